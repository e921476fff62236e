package copychoice

import (
	"encoding/base64"
	"errors"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/chatlens/chatlens/keymap"
	"github.com/chatlens/chatlens/projection"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/themes"
	"github.com/chatlens/chatlens/ui/common"
)

func env(clip *strings.Builder) *common.Common {
	theme, _ := themes.Get("none")
	return &common.Common{Theme: theme, Keys: keymap.Default(), Loc: time.UTC, Clip: clip}
}

func press(s string) tea.KeyMsg {
	switch s {
	case "enter":
		return tea.KeyMsg{Type: tea.KeyEnter}
	case "esc":
		return tea.KeyMsg{Type: tea.KeyEsc}
	case "down":
		return tea.KeyMsg{Type: tea.KeyDown}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)}
}

func message() projection.Message {
	return projection.Message{MsgData: bucket.MsgData{Seq: 42, SendID: "bob", ClientMsgID: "c42", ServerMsgID: "s42",
		ContentType: 101, Content: `{"content":"see you at noon"}`,
		SendTime: time.Date(2024, 1, 20, 9, 30, 0, 0, time.UTC).UnixMilli()}}
}

// TestTheTextIsTheFirstChoiceAndTheRowTheSecond: y then enter copies the
// text alone; the next choice copies the row a ticket wants (seq, time,
// sender, both message IDs, text); esc copies nothing.
func TestTheTextIsTheFirstChoiceAndTheRowTheSecond(t *testing.T) {
	for _, c := range []struct {
		keys   []string
		chosen bool
		want   []string
	}{
		{[]string{"enter"}, true, []string{"see you at noon"}},
		{[]string{"y"}, true, []string{"see you at noon"}},
		{[]string{"down", "enter"}, true, []string{"seq 42", "2024-01-20 09:30", "Bob (bob)", "client_msg_id c42", "server_msg_id s42", "see you at noon"}},
		{[]string{"esc"}, false, nil},
	} {
		m := New(env(nil), message(), "Bob")
		for _, k := range c.keys {
			m.Update(press(k))
		}
		answered, chosen, text := m.Answer()
		if !answered || chosen != c.chosen {
			t.Errorf("%v: answered %v chosen %v, want chosen %v", c.keys, answered, chosen, c.chosen)
		}
		for _, w := range c.want {
			if !strings.Contains(text, w) {
				t.Errorf("%v copies %q, without %q", c.keys, text, w)
			}
		}
		if c.keys[0] == "enter" && strings.Contains(text, "seq 42") {
			t.Errorf("the first choice copies the row, not the text alone: %q", text)
		}
	}
}

// TestAPathIsShownWholeAndTheDialogSaysWhatYDoes: a transcript's long path
// wraps inside the dialog rather than being cut, and the one choice says
// it copies.
func TestAPathIsShownWholeAndTheDialogSaysWhatYDoes(t *testing.T) {
	path := "/home/support/tickets/" + strings.Repeat("deep/", 12) + "transcript-si_alice_bob.md"
	m := NewPath(env(nil), "Transcript written", path)
	m.SetSize(50, 20)
	view := m.View()
	joined := strings.Join(strings.Fields(strings.NewReplacer("│", "", "─", "").Replace(view)), "")
	if !strings.Contains(joined, strings.ReplaceAll(path, " ", "")) {
		t.Errorf("the path is not shown whole:\n%s", view)
	}
	if !strings.Contains(view, "Transcript written") || !strings.Contains(view, "y/enter: copy") {
		t.Errorf("the dialog does not say what it holds and how to copy it:\n%s", view)
	}
	for _, l := range strings.Split(view, "\n") {
		if ansi.StringWidth(l) > 50 {
			t.Errorf("a line is wider than the 50-cell screen: %q", l)
		}
	}
}

// TestCopyGoesToTheTerminalAsOSC52: outside tmux the text reaches the
// clipboard as one OSC 52 sequence, base64, so an escape in the text is
// never written raw; the status counts the characters.
func TestCopyGoesToTheTerminalAsOSC52(t *testing.T) {
	t.Setenv("TMUX", "")
	t.Setenv("TERM", "xterm-256color")
	clip := &strings.Builder{}
	text := "evil \x1b]0;title\x07 text"
	msg, ok := Copy(env(clip), text)().(CopiedMsg)
	if !ok {
		t.Fatal("Copy did not answer with a CopiedMsg")
	}
	want := "\x1b]52;c;" + base64.StdEncoding.EncodeToString([]byte(text)) + "\x07"
	if clip.String() != want {
		t.Errorf("the terminal got %q, want %q", clip.String(), want)
	}
	if s, isErr := msg.Status(); isErr || !strings.Contains(s, "copied 20 characters (OSC 52)") {
		t.Errorf("status %q (error %v)", s, isErr)
	}
}

// TestCopyInTmuxWithoutTmuxSaysHowToEnableIt: inside tmux, a tmux that
// cannot be run leaves the passthrough sequence as the last try, and the
// status says what to add to tmux.conf.
func TestCopyInTmuxWithoutTmuxSaysHowToEnableIt(t *testing.T) {
	t.Setenv("TMUX", "/tmp/tmux-1000/default,1,0")
	clip := &strings.Builder{}
	e := env(clip)
	e.Tmux = func(string, ...string) (string, error) { return "", errors.New("no tmux") }
	msg := Copy(e, "hello")().(CopiedMsg)
	if !strings.HasPrefix(clip.String(), "\x1bPtmux;") {
		t.Errorf("no passthrough sequence written: %q", clip.String())
	}
	if s, isErr := msg.Status(); !isErr || !strings.Contains(s, "set -g set-clipboard on") {
		t.Errorf("status %q (warning %v) does not say how to enable the clipboard", s, isErr)
	}
}
