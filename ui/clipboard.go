package ui

import (
	"fmt"
	"os"
	"os/exec"
	"strings"

	osc52 "github.com/aymanbagabas/go-osc52/v2"
	tea "github.com/charmbracelet/bubbletea"
)

type copiedMsg struct {
	chars int
	via   string // where the text went
	note  string // how to let it reach the system clipboard, when it may not
	err   error
}

// copyText hands text to the clipboard: OSC 52 to the terminal, or inside
// tmux through tmux itself. The text is sanitised first, so a message can
// never smuggle its own sequence out.
func copyText(e *common, text string) tea.Cmd {
	return func() tea.Msg {
		chars := len([]rune(text))
		if os.Getenv("TMUX") != "" {
			return copyInTmux(e, text, chars)
		}
		seq := osc52.New(text)
		if strings.HasPrefix(os.Getenv("TERM"), "screen") {
			seq = seq.Screen()
		}
		_, err := fmt.Fprint(e.clip, seq.String())
		return copiedMsg{chars: chars, via: "OSC 52", err: err}
	}
}

// enableTmuxClipboard is what a tmux user adds to tmux.conf so copies reach
// the system clipboard.
const enableTmuxClipboard = "set -g set-clipboard on"

// copyInTmux: tmux drops an application's OSC 52 unless set-clipboard is
// on (and the wrapped form unless allow-passthrough is on), so the text
// goes to tmux's paste buffer with load-buffer -w, which also sends it to
// the system clipboard when set-clipboard allows tmux to. Without tmux to
// run, the passthrough form is the last try.
func copyInTmux(e *common, text string, chars int) copiedMsg {
	if _, err := e.tmux(text, "load-buffer", "-w", "-"); err != nil {
		if _, err := e.tmux(text, "load-buffer", "-"); err != nil { // tmux before 3.2 has no -w
			_, werr := fmt.Fprint(e.clip, osc52.New(text).Tmux().String())
			return copiedMsg{chars: chars, via: "OSC 52 through tmux", err: werr,
				note: "if nothing was copied, add to tmux.conf: " + enableTmuxClipboard + " (and set -g allow-passthrough on)"}
		}
	}
	if mode, err := e.tmux("", "show-options", "-gv", "set-clipboard"); err == nil && strings.TrimSpace(mode) == "off" {
		return copiedMsg{chars: chars, via: "tmux paste buffer",
			note: "not the system clipboard; to enable: " + enableTmuxClipboard}
	}
	return copiedMsg{chars: chars, via: "tmux buffer and clipboard"}
}

// runTmux runs the tmux of the session the UI is in, input on stdin.
func runTmux(stdin string, args ...string) (string, error) {
	cmd := exec.Command("tmux", args...)
	cmd.Stdin = strings.NewReader(stdin)
	out, err := cmd.Output()
	return string(out), err
}

func (m *Model) copied(msg copiedMsg) {
	switch {
	case msg.err != nil:
		m.setStatus("copy failed: "+msg.err.Error(), true)
	case msg.note != "":
		// A warning: kept in the message log in full.
		m.setStatus(fmt.Sprintf("copied %d characters (%s); %s", msg.chars, msg.via, msg.note), true)
	default:
		m.setStatus(fmt.Sprintf("copied %d characters (%s)", msg.chars, msg.via), false)
	}
}
