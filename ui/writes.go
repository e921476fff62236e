package ui

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/ui/common"
)

// Writes run in a command, off the UI goroutine: the store applies the
// plan the dialog showed (store.Apply), as a scripted command applies
// its own.

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

// storeAction names each action for the store.
var storeAction = map[action]string{actRevoke: store.ActionRevoke, actDelete: store.ActionDelete, actRead: store.ActionRead}

// apply has the store make the write p plans.
func apply(e *common.Common, req common.ReqID, act action, p store.Plan) tea.Cmd {
	r := p.Request
	return func() tea.Msg {
		done, err := e.Store.Apply(e.Ctx, p)
		return actionDoneMsg{req: req, cid: r.Cid, act: act, viewer: r.By, seqs: r.Seqs, res: done.WriteResult, api: done.API, err: err}
	}
}
