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
			m.setStatus(fmt.Sprintf("seq %d holds no message: nothing to revoke", seq), true)
			return
		}
		if msg.Revoked {
			m.setStatus(fmt.Sprintf("seq %d is already revoked", seq), true)
			return
		}
		d = confirmDialog{title: "Revoke for everyone?", lines: []string{
			fmt.Sprintf("seq %d: %s", seq, summary),
			fmt.Sprintf("revoked by %s (role %s)", viewer, roleName(t.roleOf(viewer))),
		}, run: runAction(m.e, t.cid, act, viewer, []int64{seq})}
	case actDelete:
		if msg.Hole {
			m.setStatus(fmt.Sprintf("seq %d holds no message: nothing to delete", seq), true)
			return
		}
		if msg.DeletedForViewer {
			m.setStatus(fmt.Sprintf("seq %d is already deleted for %s", seq, viewer), true)
			return
		}
		d = confirmDialog{title: "Delete for " + viewer + " only?", lines: []string{
			fmt.Sprintf("seq %d: %s", seq, summary),
			"others still see it; " + viewer + " is added to del_list",
		}, run: runAction(m.e, t.cid, act, viewer, []int64{seq})}
	case actRead:
		from := max(t.win.ReadSeq+1, t.minSeq())
		if seq < from {
			m.setStatus(fmt.Sprintf("%s has read up to seq %d already", viewer, t.win.ReadSeq), true)
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
