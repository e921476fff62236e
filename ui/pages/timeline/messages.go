package timeline

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/chatlens/chatlens/ui/common"
)

// What the page tells the root, as messages its commands return (the
// idiom of soft-serve's pages): a line for the status bar, a viewer switch
// the model decided on a reply, a transcript written, the followed
// conversation grown. The root handles each when it arrives and polls
// nothing. Each names the page it is from: one from a conversation already
// left is dropped (Of).

// from is the page a message is from.
type from struct{ page *Model }

// Of reports the message is from t, the page open (nil: none).
func (f from) Of(t *Model) bool { return t != nil && f.page == t }

// NoteMsg is a line for the status bar.
type NoteMsg struct {
	from
	common.NoteMsg
}

// SwitchViewerMsg asks the root to switch the list and the timeline at
// once (the root's one switch): to Window, whose window the model waits
// for (the switch reads it), then to Moved, the viewer the model moved to
// (V, or a switch whose window came). "" is no switch.
type SwitchViewerMsg struct {
	from
	Window, Moved string
}

// TranscriptWrittenMsg is a transcript written: its whole path and what
// it holds, for the root's dialog that copies the path.
type TranscriptWrittenMsg struct {
	from
	Path, What string
}

// FollowedMsg is the followed conversation grown, or its newest buckets
// read: the list's row follows it (Follow().End, Slot).
type FollowedMsg struct{ from }

// say is the command that sends a line to the status bar, said now.
func say(t *Model, text string, isErr bool) tea.Cmd {
	msg := NoteMsg{from{t}, common.NoteMsg{Note: common.Note{Text: text, IsErr: isErr}, At: t.e.NewReq()}}
	return func() tea.Msg { return msg }
}

// said is what one call of the page has for the root beside its reads:
// the line for the status bar (the last said wins, as on the bar; nil
// for none) and the viewer switch the model asked for.
type said struct {
	note          *common.Note
	window, moved string
}

func (s *said) say(text string, isErr bool) { s.note = &common.Note{Text: text, IsErr: isErr} }

// ask is the switch s holds; a window whose read is on its way is none.
func (s said) ask(t *Model) SwitchViewerMsg {
	window := s.window
	if window == t.viewer && t.winReq != 0 {
		window = ""
	}
	return SwitchViewerMsg{from{t}, window, s.moved}
}

// line is the command saying s's line: what was said, else, on a switch,
// whom the screen views as.
func (s said) line(t *Model) tea.Cmd {
	switch ask := s.ask(t); {
	case s.note != nil:
		return say(t, s.note.Text, s.note.IsErr)
	case ask.Moved != "":
		return say(t, "viewing as "+ask.Moved, false)
	case ask.Window != "":
		return say(t, "viewing as "+ask.Window, false)
	}
	return nil
}

// send is cmd with s's messages: its line and its switch.
func (s said) send(t *Model, cmd tea.Cmd) tea.Cmd {
	var sw tea.Cmd
	if ask := s.ask(t); ask.Window != "" || ask.Moved != "" {
		sw = func() tea.Msg { return ask }
	}
	return tea.Batch(s.line(t), sw, cmd)
}
