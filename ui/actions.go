package ui

import (
	"fmt"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/chatlens/chatlens/projection"
	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"

	"github.com/chatlens/chatlens/ui/components/confirm"
)

// askAction prepares the confirmation of a write on the selected message,
// or says in the status bar why there is nothing to do.
func (m *Model) askAction(act action) {
	t := m.tl
	seq, viewer := t.Cursor(), t.Viewer()
	msg, ok := t.Message(seq, viewer)
	if !ok {
		return
	}
	summary := projection.Summary(msg)
	req := m.e.NewReq() // the number the write's reply will carry
	var d confirm.Dialog
	switch act {
	case actRevoke:
		if msg.Hole {
			m.refuse(act, []int64{seq}, fmt.Sprintf("seq %d holds no message: nothing to revoke", seq))
			return
		}
		if msg.Revoked {
			m.refuse(act, []int64{seq}, fmt.Sprintf("seq %d is already revoked", seq))
			return
		}
		d = m.revokeDialog(seq, viewer, summary)
		switch {
		case d.Run == nil && m.e.Store.WritesViaAPI():
			// The server decides: the rule is chatlens's prediction of its
			// answer, and the operator may send it all the same.
			d.Title = "Revoke through OpenIM?"
			d.Lines[len(d.Lines)-1] = "OpenIM will refuse this: " + viewer + " may not revoke it: " + d.Rule
			d.Run = runAction(m.e, req, t.ID(), act, viewer, []int64{seq})
		case d.Run == nil:
			// The rule refused before the store was asked: audited here, as
			// store.Do audits the same refusal from the command line.
			m.auditRefusal(act, []int64{seq}, viewer+" may not revoke: "+d.Rule)
		default:
			d.Run = runAction(m.e, req, t.ID(), act, viewer, []int64{seq})
		}
	case actDelete:
		if msg.Hole {
			m.refuse(act, []int64{seq}, fmt.Sprintf("seq %d holds no message: nothing to delete", seq))
			return
		}
		if msg.DeletedForViewer {
			m.refuse(act, []int64{seq}, fmt.Sprintf("seq %d is already deleted for %s", seq, viewer))
			return
		}
		d = confirm.Dialog{Title: "Delete for " + viewer + " only?", Lines: []string{
			fmt.Sprintf("seq %d: %s", seq, summary),
			"others still see it; " + viewer + " is added to del_list",
		}, Run: runAction(m.e, req, t.ID(), act, viewer, []int64{seq})}
	case actRead:
		if !t.WindowKnown() {
			// The read seq held is the previous viewer's until theirs arrives.
			why := fmt.Sprintf("%s's read seq is not known yet: mark read waits for their window", viewer)
			if !t.WindowPending() {
				why = fmt.Sprintf("%s's read seq could not be read: mark read needs it", viewer)
			}
			m.refuse(act, []int64{seq}, why)
			return
		}
		win := t.Window()
		from := max(win.ReadSeq+1, win.MinSeq, 1)
		if seq < from {
			m.refuse(act, []int64{seq}, fmt.Sprintf("%s has read up to seq %d already", viewer, win.ReadSeq))
			return
		}
		if n := seq - from + 1; n > store.MaxSeqsPerCommand {
			m.refuse(act, []int64{seq}, fmt.Sprintf("seqs %d-%d are %d messages: a write names at most %d; mark read in steps", from, seq, n, store.MaxSeqsPerCommand))
			return
		}
		seqs := make([]int64, 0, seq-from+1)
		for s := from; s <= seq; s++ {
			seqs = append(seqs, s)
		}
		d = confirm.Dialog{Title: "Mark read up to here?", Lines: []string{
			fmt.Sprintf("seqs %s (%d messages) read by %s", store.FormatSeqs(seqs), len(seqs), viewer),
			fmt.Sprintf("%s's read seq becomes %d", viewer, seq),
		}, Run: runAction(m.e, req, t.ID(), act, viewer, seqs)}
	}
	d.Req = req
	switch {
	case d.Run == nil:
	case m.e.Store.WritesViaAPI():
		d.Lines = append(d.Lines, store.APINote)
		if note := m.e.Store.APISessionNote(viewer, m.e.Admin); note != "" {
			d.Lines = append(d.Lines, note)
		}
	case m.e.Deployment:
		d.Lines = append(d.Lines, store.NotificationNote(storeAction[act], viewer))
	}
	if m.e.Operator != "" {
		d.Lines = append(d.Lines, "operator: "+m.e.Operator)
	}
	m.showConfirm(d)
}

// refuse says on the status bar why a write on seqs is not offered, and
// logs the refusal (every refusal is in the audit log) from a command, so
// the screen never waits on the file.
func (m *Model) refuse(act action, seqs []int64, why string) {
	m.setStatus(why, true)
	m.auditRefusal(act, seqs, why)
}

// auditRefusal queues the audit line of a refusal, to run after the key.
func (m *Model) auditRefusal(act action, seqs []int64, why string) {
	if m.tl == nil {
		return
	}
	e, cid, viewer := m.e, m.tl.ID(), m.tl.Viewer()
	reason := error(store.ErrReadOnly)
	if !e.ReadOnly {
		reason = &store.TargetError{Action: storeAction[act], Cid: cid, UserID: viewer,
			Refused: []store.RefusedSeqs{{Reason: why, Seqs: seqs}}}
	}
	m.refusals = append(m.refusals, func() tea.Msg {
		_ = e.Store.AuditRefusal(storeAction[act], cid, viewer, seqs, reason)
		return nil
	})
}

// withRefusals runs cmd and the audit of the refusals made meanwhile.
func (m *Model) withRefusals(cmd tea.Cmd) tea.Cmd {
	if len(m.refusals) == 0 {
		return cmd
	}
	cmds := append([]tea.Cmd{cmd}, m.refusals...)
	m.refusals = nil
	return tea.Batch(cmds...)
}

// revokeDialog says, before asking, who may revoke seq and whether viewer
// may, by store.PreviewRevoke (the rule the store applies when it writes); a
// viewer who may not gets the reason and nothing to confirm. run is a
// placeholder the caller replaces when the viewer may.
func (m *Model) revokeDialog(seq int64, viewer, summary string) confirm.Dialog {
	t := m.tl
	lines := []string{fmt.Sprintf("seq %d: %s", seq, summary)}
	st, _, ok := t.Slot(seq)
	if !ok || st.Slot == nil || st.Slot.Msg == nil {
		return confirm.Dialog{Title: "Revoke for everyone?", Lines: lines, Run: func() tea.Msg { return nil }}
	}
	msg := st.Slot.Msg
	admin := m.e.Admin || m.e.Store.IsIMAdmin(viewer)
	d := store.PreviewRevoke(t.ID(), msg, viewer, admin, t.Members())
	lines = append(lines, d.Who)
	if !d.Allowed {
		lines = append(lines, viewer+" may not revoke it: "+d.Rule)
		return confirm.Dialog{Title: "Revoke refused", Lines: lines, Rule: d.Rule}
	}
	role := "role " + bucket.RoleName(d.Role)
	if msg.SessionType == bucket.SessionSingle && !admin { // an app admin's revoke records role 0
		role = "role = user.app_manger_level"
	}
	lines = append(lines, fmt.Sprintf("%s may: %s; revoked by %s (%s)", viewer, d.Rule, viewer, role))
	return confirm.Dialog{Title: "Revoke for everyone?", Lines: lines, Run: func() tea.Msg { return nil }}
}
