package copychoice

import (
	"fmt"
	"os"
	"os/exec"
	"strings"

	osc52 "github.com/aymanbagabas/go-osc52/v2"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/chatlens/chatlens/ui/common"
)

// CopiedMsg is the outcome of a copy.
type CopiedMsg struct {
	chars int
	via   string // where the text went
	note  string // how to let it reach the system clipboard, when it may not
	err   error
}

// Copy hands text to the clipboard: OSC 52 to the terminal, or inside
// tmux through tmux itself. The text is sanitised first, so a message can
// never smuggle its own sequence out.
func Copy(e *common.Common, text string) tea.Cmd {
	return func() tea.Msg {
		chars := len([]rune(text))
		if os.Getenv("TMUX") != "" {
			return copyInTmux(e, text, chars)
		}
		seq := osc52.New(text)
		if strings.HasPrefix(os.Getenv("TERM"), "screen") {
			seq = seq.Screen()
		}
		_, err := fmt.Fprint(e.Clip, seq.String())
		return CopiedMsg{chars: chars, via: "OSC 52", err: err}
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
func copyInTmux(e *common.Common, text string, chars int) CopiedMsg {
	if _, err := e.Tmux(text, "load-buffer", "-w", "-"); err != nil {
		if _, err := e.Tmux(text, "load-buffer", "-"); err != nil { // tmux before 3.2 has no -w
			_, werr := fmt.Fprint(e.Clip, osc52.New(text).Tmux().String())
			return CopiedMsg{chars: chars, via: "OSC 52 through tmux", err: werr,
				note: "if nothing was copied, add to tmux.conf: " + enableTmuxClipboard + " (and set -g allow-passthrough on)"}
		}
	}
	if mode, err := e.Tmux("", "show-options", "-gv", "set-clipboard"); err == nil && strings.TrimSpace(mode) == "off" {
		return CopiedMsg{chars: chars, via: "tmux paste buffer",
			note: "not the system clipboard; to enable: " + enableTmuxClipboard}
	}
	return CopiedMsg{chars: chars, via: "tmux buffer and clipboard"}
}

// RunTmux runs the tmux of the session the UI is in, input on stdin.
func RunTmux(stdin string, args ...string) (string, error) {
	cmd := exec.Command("tmux", args...)
	cmd.Stdin = strings.NewReader(stdin)
	out, err := cmd.Output()
	return string(out), err
}

// Status is what the status bar says of the copy; isErr when it failed or
// may not have reached the system clipboard (a warning, kept in the log).
func (msg CopiedMsg) Status() (text string, isErr bool) {
	switch {
	case msg.err != nil:
		return "copy failed: " + msg.err.Error(), true
	case msg.note != "":
		return fmt.Sprintf("copied %d characters (%s); %s", msg.chars, msg.via, msg.note), true
	}
	return fmt.Sprintf("copied %d characters (%s)", msg.chars, msg.via), false
}
