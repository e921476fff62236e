package ui

import (
	"fmt"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/chatlens/chatlens/projection"
	"github.com/chatlens/chatlens/store"
)

// confirmDialog asks before a write; run is the write as a command.
type confirmDialog struct {
	title string
	lines []string
	run   tea.Cmd
}

// askAction prepares the confirmation of a write on the selected message,
// or says in the status bar why there is nothing to do.
func (m *Model) askAction(act action) {
	t := m.tl
	seq, viewer := t.cursor, t.viewer
	msg, ok := t.message(seq, viewer)
	if !ok {
		return
	}
	summary := projection.Summary(msg)
	var d confirmDialog
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
		d = confirmDialog{title: "Revoke for everyone?", lines: []string{
			fmt.Sprintf("seq %d: %s", seq, summary),
			fmt.Sprintf("revoked by %s (role %s)", viewer, roleName(t.roleOf(viewer))),
		}, run: runAction(m.e, t.cid, act, viewer, []int64{seq})}
	case actDelete:
		if msg.Hole {
			m.refuse(act, []int64{seq}, fmt.Sprintf("seq %d holds no message: nothing to delete", seq))
			return
		}
		if msg.DeletedForViewer {
			m.refuse(act, []int64{seq}, fmt.Sprintf("seq %d is already deleted for %s", seq, viewer))
			return
		}
		d = confirmDialog{title: "Delete for " + viewer + " only?", lines: []string{
			fmt.Sprintf("seq %d: %s", seq, summary),
			"others still see it; " + viewer + " is added to del_list",
		}, run: runAction(m.e, t.cid, act, viewer, []int64{seq})}
	case actRead:
		from := max(t.win.ReadSeq+1, t.minSeq())
		if seq < from {
			m.refuse(act, []int64{seq}, fmt.Sprintf("%s has read up to seq %d already", viewer, t.win.ReadSeq))
			return
		}
		seqs := make([]int64, 0, seq-from+1)
		for s := from; s <= seq; s++ {
			seqs = append(seqs, s)
		}
		d = confirmDialog{title: "Mark read up to here?", lines: []string{
			fmt.Sprintf("seqs %s (%d messages) read by %s", store.FormatSeqs(seqs), len(seqs), viewer),
			fmt.Sprintf("%s's read seq becomes %d", viewer, seq),
		}, run: runAction(m.e, t.cid, act, viewer, seqs)}
	}
	if m.e.operator != "" {
		d.lines = append(d.lines, "operator: "+m.e.operator)
	}
	m.confirm, m.overlay = d, ovConfirm
}

// refuse says on the status bar why a write on seqs is not offered, and
// logs the refusal (every refusal is in the audit log) from a command, so
// the screen never waits on the file.
func (m *Model) refuse(act action, seqs []int64, why string) {
	m.setStatus(why, true)
	if m.tl == nil {
		return
	}
	e, cid, viewer := m.e, m.tl.cid, m.tl.viewer
	reason := error(store.ErrReadOnly)
	if !e.readOnly {
		reason = &store.TargetError{Action: storeAction[act], Cid: cid, UserID: viewer,
			Refused: []store.RefusedSeqs{{Reason: why, Seqs: seqs}}}
	}
	m.refusals = append(m.refusals, func() tea.Msg {
		_ = e.st.AuditRefusal(storeAction[act], cid, viewer, seqs, reason)
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

func (m *Model) confirmKey(k tea.KeyMsg) tea.Cmd {
	switch k.String() {
	case "y", "Y", "enter":
		m.overlay = ovNone
		m.setStatus(m.confirm.title+" working…", false)
		m.writing++
		return m.confirm.run
	case "n", "N", "esc", "q":
		m.overlay = ovNone
		m.setStatus("cancelled", false)
	}
	return nil
}

// roleOf is the role level a viewer revokes with, for the dialog.
func (t *timeline) roleOf(uid string) int32 {
	for _, mb := range t.members {
		if mb.UserID == uid {
			return mb.RoleLevel
		}
	}
	return 0
}

func roleName(level int32) string {
	switch level {
	case store.RoleOwner:
		return "owner"
	case store.RoleAdmin:
		return "admin"
	case store.RoleMember:
		return "member"
	}
	if level == 0 {
		return "0, none"
	}
	return fmt.Sprintf("%d", level)
}
