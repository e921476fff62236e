package list

import (
	"errors"
	"fmt"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/ui/common"
)

// Without --as, the list finds whose it is: a user of the first
// conversation stored.

type firstViewerMsg struct {
	req    common.ReqID
	viewer string
	why    string // how the viewer was chosen, for the status bar
	err    error
}

// findFirstViewer picks a user to start as when --as is not given, in two
// round trips at most (past n_ conversations, a few more): the first
// conversation stored, then for a group the
// member of highest role (its owner sees what everyone else is shown and
// is who a support call is usually about), for a single chat its first user.
func findFirstViewer(e *common.Common, req common.ReqID) tea.Cmd {
	return func() tea.Msg {
		cid, ok, err := e.Store.NextConversationID(e.Ctx, "")
		// An n_ conversation names a group or a pair, not a viewer: the next
		// one does (a few round trips at most).
		for tries := 0; err == nil && ok && bucket.IsNotificationConversation(cid) && tries < 8; tries++ {
			cid, ok, err = e.Store.NextConversationID(e.Ctx, cid)
		}
		if err != nil || !ok {
			return firstViewerMsg{req: req, err: err}
		}
		if _, a, _ := store.SplitConversationID(cid); !store.IsGroupConversation(cid) && a != "" {
			return firstViewerMsg{req: req, viewer: a, why: "a user of " + cid}
		}
		ms, err := e.Store.Members(e.Ctx, cid)
		if err != nil || len(ms) == 0 {
			return firstViewerMsg{req: req, err: err}
		}
		best := ms[0] // Members come highest role first
		why := "a member of " + cid
		if best.RoleLevel != 0 {
			why = bucket.RoleName(best.RoleLevel) + " of " + cid
		}
		return firstViewerMsg{req: req, viewer: best.UserID, why: why}
	}
}

// FindOwner looks for a user to start as (--as not given).
func (l *Model) FindOwner() tea.Cmd {
	l.loading = true
	l.req = l.e.NewReq()
	return findFirstViewer(l.e, l.req)
}

// firstViewer takes the user found and reads their list.
func (l *Model) firstViewer(msg firstViewerMsg) tea.Cmd {
	if msg.req != l.req {
		return nil // a retry asked again meanwhile
	}
	if msg.err != nil || msg.viewer == "" {
		l.loading = false
		l.err = msg.err
		if l.err == nil {
			l.err = errors.New("no conversations stored: start with --as USER")
		}
		return nil
	}
	l.owner = msg.viewer
	return tea.Batch(l.OwnerChosen(msg.why), l.Load())
}

// OwnerChosen says, for the status bar, that the owner was chosen for the
// user and why, and how to view as anyone else.
func (l *Model) OwnerChosen(why string) tea.Cmd {
	lead := "no --as given"
	if l.ownerLost != "" {
		lead = l.ownerLost
	}
	return l.e.Say(fmt.Sprintf("%s: viewing as %s (%s) · %s to view as anyone",
		lead, l.owner, why, l.e.Keys.ViewAsAny.Help().Key), false)
}

// OwnerLost says why the owner is to be found (FindOwner) though one was
// given: the viewer is no user of the deployment switched to.
func (l *Model) OwnerLost(why string) { l.ownerLost = why }
