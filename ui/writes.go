package ui

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/ui/common"
)

// Writes run in a command, off the UI goroutine, through store.Do: the
// path the scripted commands take.

// action names a write the timeline offers.
type action string

const (
	actRevoke action = "revoke"
	actDelete action = "delete"
	actRead   action = "mark read"
)

type actionDoneMsg struct {
	req    common.ReqID
	cid    string
	act    action
	viewer string
	seqs   []int64
	res    store.WriteResult
	api    *store.APIDone // set when the server's API made the write
	err    error
}

// storeAction names each action for store.Do.
var storeAction = map[action]string{actRevoke: store.ActionRevoke, actDelete: store.ActionDelete, actRead: store.ActionRead}

// runAction writes through store.Do, the path the scripted commands take:
// the held bucket may be stale, so the store checks the targets and the
// revoke permission as they are now and builds the revoke record itself.
func runAction(e *common.Common, req common.ReqID, cid string, act action, viewer string, seqs []int64) tea.Cmd {
	return func() tea.Msg {
		if e.ReadOnly {
			return actionDoneMsg{req: req, cid: cid, act: act, viewer: viewer, seqs: seqs, err: store.ErrReadOnly}
		}
		done, err := e.Store.Do(e.Ctx, store.WriteRequest{Action: storeAction[act], Cid: cid, By: viewer, Seqs: seqs, Admin: e.Admin})
		return actionDoneMsg{req: req, cid: cid, act: act, viewer: viewer, seqs: seqs, res: done.WriteResult, api: done.API, err: err}
	}
}
