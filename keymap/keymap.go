// Package keymap holds every key the UI answers to, as key.Binding sets that
// implement help.KeyMap, with the defaults of issue 3 and user overrides
// loaded from a JSON file.
package keymap

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
)

// KeyMap is every action the UI has. Field names are the action names users
// write in their override file (lower-cased, see Actions).
type KeyMap struct {
	Up, Down, PageUp, PageDown, Top, Bottom key.Binding
	HalfPageUp, HalfPageDown                key.Binding // as in less: ctrl+u, ctrl+d
	SwitchPane, Open, Back                  key.Binding
	ViewAs, CycleViewer, ViewAsAny, Compare key.Binding
	Revoke, Delete, MarkRead                key.Binding
	Inspect, Search, NextHit, PrevHit, Jump key.Binding
	Copy, Boundaries, Retry, Help, Quit     key.Binding

	// The compare view: step between the rows two viewers see differently,
	// show only those.
	NextDiff, PrevDiff, DiffOnly key.Binding

	// Finding messages (issue 11): past a run of holes, by message ID;
	// after a find by ID missed in the viewer's conversations, in all.
	NextMessage, PrevMessage, FindByID, FindAll key.Binding

	// Transcript writes what the viewer sees of a range to a file, for a ticket.
	Transcript key.Binding

	// Now leaves a moment typed at Jump ("at 2024-06-15 14:30"): the rows
	// are what a pull gives now again.
	Now key.Binding

	// Context switches to another named deployment of the config file.
	Context key.Binding

	// Input and feedback: the dialog answers (their own context, so they
	// may share keys with the actions above), the message log, follow mode.
	Confirm, Cancel    key.Binding
	MessageLog, Follow key.Binding

	// While typing (the bottom input, the picker's type-ahead): every
	// printable key is text there, so only these act, in their own context.
	Submit, Dismiss, ChoiceUp, ChoiceDown key.Binding
}

// contexts name the actions that act only in a context of their own (a
// dialog, an input): their keys may equal those of the actions outside.
var contexts = map[string]string{
	"confirm": "dialog", "cancel": "dialog",
	"submit": "input", "dismiss": "input", "choiceup": "input", "choicedown": "input",
}

// Default is the key map of issue 3.
func Default() KeyMap {
	b := func(help, desc string, keys ...string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
	}
	return KeyMap{
		Up:           b("↑/k", "up", "up", "k"),
		Down:         b("↓/j", "down", "down", "j"),
		PageUp:       b("pgup", "page up", "pgup"),
		PageDown:     b("pgdn/space", "page down", "pgdown", " "),
		HalfPageUp:   b("ctrl+u", "half page up", "ctrl+u"),
		HalfPageDown: b("ctrl+d", "half page down", "ctrl+d"),
		Top:          b("g", "oldest", "g", "home"),
		Bottom:       b("G", "newest", "G", "end"),
		SwitchPane:   b("tab", "switch pane", "tab"),
		Open:         b("enter", "open", "enter"),
		Back:         b("esc", "back", "esc"),
		ViewAs:       b("v", "view as", "v"),
		CycleViewer:  b("V", "next viewer", "V"),
		ViewAsAny:    b("u", "view as user ID", "u"),
		Compare:      b("c", "compare", "c"),
		Revoke:       b("r", "revoke", "r"),
		Delete:       b("d", "delete for me", "d"),
		MarkRead:     b("m", "mark read to here", "m"),
		Inspect:      b("i", "inspect slot", "i"),
		Search:       b("/", "search / filter", "/"),
		NextHit:      b("n", "next hit", "n"),
		PrevHit:      b("N", "previous hit", "N"),
		Jump:         b(":", "jump to seq/date", ":"),
		Copy:         b("y", "copy message", "y"),
		Boundaries:   b("b", "bucket boundaries", "b"),
		Retry:        b("R", "retry", "R"),
		Help:         b("?", "help", "?"),
		Quit:         b("q", "quit", "q", "ctrl+c"),

		NextDiff: b("]", "next diff", "]"),
		PrevDiff: b("[", "prev diff", "["),
		DiffOnly: b("D", "diffs only", "D"),

		NextMessage: b("}", "next message", "}"),
		PrevMessage: b("{", "previous message", "{"),
		FindByID:    b("I", "find by msg ID", "I"),
		FindAll:     b("a", "find in all conversations", "a"),
		Transcript:  b("T", "transcript to file", "T"),
		Now:         b("@", "back to now", "@"),
		Context:     b("X", "switch context", "X"),

		Confirm:    b("y/enter", "do it", "y", "Y", "enter"),
		Cancel:     b("n/esc", "cancel", "n", "N", "esc", "q"),
		MessageLog: b("L", "message log", "L"),
		Follow:     b("F", "follow", "F"),

		Submit:     b("enter", "ok", "enter"),
		Dismiss:    b("esc", "cancel", "esc"),
		ChoiceUp:   b("↑", "previous", "up", "ctrl+p"),
		ChoiceDown: b("↓", "next", "down", "ctrl+n"),
	}
}

// ShortHelp is the one-line footer.
func (k KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Up, k.SwitchPane, k.Open, k.ViewAs, k.Compare, k.Revoke, k.Delete, k.MarkRead,
		k.Inspect, k.Search, k.Jump, k.Help, k.Quit}
}

// ListHelp is the footer while the conversation list has the focus: only
// keys that do something there (help and quit are always added after).
func (k KeyMap) ListHelp() []key.Binding {
	return []key.Binding{k.Up, k.Open, k.Search, k.ViewAsAny, k.SwitchPane}
}

// TimelineHelp is the footer while the timeline has the focus.
func (k KeyMap) TimelineHelp() []key.Binding {
	return []key.Binding{k.Up, k.ViewAs, k.Compare, k.Revoke, k.Delete, k.MarkRead,
		k.Inspect, k.Search, k.Jump, k.Back}
}

// FullHelp is the ? overlay, one column per kind of key, at most nine keys
// a column and eight in the second row's, so that two rows of columns fit
// a 60x24 terminal (? itself is named in the overlay's closing line). Keys
// that go both ways share a line ("n/N next/previous hit").
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Up, k.Down, k.PageUp, k.PageDown, both(k.HalfPageUp, k.HalfPageDown, "half page up/down"), k.Top, k.Bottom, k.SwitchPane, k.Open},
		{k.ViewAs, k.CycleViewer, k.ViewAsAny, k.Compare, both(k.NextDiff, k.PrevDiff, "next/prev diff"), k.DiffOnly, k.Inspect, k.Transcript, k.Context},
		{k.Revoke, k.Delete, k.MarkRead, k.Search, both(k.NextHit, k.PrevHit, "next/previous hit"), k.Jump, k.FindByID, k.Back},
		{both(k.NextMessage, k.PrevMessage, "next/prev message"), k.Now, k.Boundaries, k.Copy, k.Follow, k.MessageLog, k.Retry, k.Quit},
	}
}

// both is one line of help for two keys that go opposite ways: "n/N",
// "ctrl+u/d" (a prefix the two share is written once). It is for the help
// alone, and names only the keys that are on.
func both(a, b key.Binding, desc string) key.Binding {
	if !a.Enabled() || !b.Enabled() {
		if a.Enabled() {
			return a
		}
		return b
	}
	second := b.Help().Key
	if i := strings.LastIndex(a.Help().Key, "+"); i > 0 && strings.HasPrefix(second, a.Help().Key[:i+1]) && !strings.Contains(a.Help().Key+second, "/") {
		second = strings.TrimPrefix(second, a.Help().Key[:i+1])
	}
	return key.NewBinding(key.WithKeys(append(a.Keys(), b.Keys()...)...), key.WithHelp(a.Help().Key+"/"+second, desc))
}

// WithoutWrites disables the write actions (--read-only): they leave the
// help and stop matching.
func (k KeyMap) WithoutWrites() KeyMap {
	for _, b := range []*key.Binding{&k.Revoke, &k.Delete, &k.MarkRead} {
		b.SetEnabled(false)
	}
	return k
}
