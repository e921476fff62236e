package ui

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// fakeTmux answers like tmux with set-clipboard at mode, or fails every
// command when mode is "".
type fakeTmux struct {
	mode   string
	buffer string
	calls  []string
}

func (f *fakeTmux) run(stdin string, args ...string) (string, error) {
	f.calls = append(f.calls, strings.Join(args, " "))
	if f.mode == "" {
		return "", errors.New("exec: \"tmux\": executable file not found in $PATH")
	}
	switch args[0] {
	case "load-buffer":
		f.buffer = stdin
	case "show-options":
		return f.mode + "\n", nil
	}
	return "", nil
}

// TestCopyInsideTmux: inside tmux y goes through tmux's buffer; when tmux
// keeps it from the system clipboard the status says how to enable it, and
// without a tmux to run the OSC 52 passthrough is written with the same
// advice.
func TestCopyInsideTmux(t *testing.T) {
	for _, c := range []struct {
		mode, status string
		buffered     bool
	}{
		{"on", "(tmux buffer and clipboard)", true},
		{"external", "(tmux buffer and clipboard)", true},
		{"off", "set -g set-clipboard on", true},
		{"", "set -g set-clipboard on", false},
	} {
		t.Run("set-clipboard "+c.mode, func(t *testing.T) {
			st, _ := newTestStore(t, false)
			seedSmall(t, st)
			opts, clip := testOptions(t, "alice")
			t.Setenv("TMUX", "/tmp/tmux-0/default,1,0")
			d := newDriver(t, st, opts, 200, 40)
			fake := &fakeTmux{mode: c.mode}
			d.m.e.Tmux = fake.run
			d.open(chatAB)
			d.keys("y", "y") // y, then the text alone
			if c.buffered && !strings.Contains(fake.buffer, "hello 120 from bob") {
				t.Errorf("tmux's buffer got %q (calls %v)", fake.buffer, fake.calls)
			}
			if c.buffered && clip.Len() != 0 {
				t.Errorf("an OSC 52 sequence was written besides tmux's buffer: %q", clip.String())
			}
			if !c.buffered && !strings.HasPrefix(clip.String(), "\x1bPtmux;") {
				t.Errorf("without tmux to run, no passthrough sequence: %q", clip.String())
			}
			if !strings.Contains(d.m.status, c.status) {
				t.Errorf("status %q, want it to say %q", d.m.status, c.status)
			}
		})
	}
}

// TestCopyReachesARealTmux: with a real tmux server around the UI, y
// puts the message into tmux's paste buffer.
func TestCopyReachesARealTmux(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("no tmux")
	}
	sock := fmt.Sprintf("chatlens-test-%d", os.Getpid())
	tmux := func(args ...string) string {
		out, err := exec.Command("tmux", append([]string{"-L", sock}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("tmux %v: %v: %s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	tmux("-f", "/dev/null", "new-session", "-d", "-s", "t", "sleep 60")
	t.Cleanup(func() { _ = exec.Command("tmux", "-L", sock, "kill-server").Run() })
	path := tmux("display-message", "-p", "#{socket_path}")

	st, _ := newTestStore(t, false)
	seedSmall(t, st)
	opts, clip := testOptions(t, "alice")
	t.Setenv("TMUX", path+",0,0")
	d := newDriver(t, st, opts, 200, 40)
	d.open(chatAB)
	d.keys("y", "y")
	if got := tmux("show-buffer"); !strings.Contains(got, "hello 120 from bob") {
		t.Errorf("tmux's buffer holds %q; status %q", got, d.m.status)
	}
	if clip.Len() != 0 {
		t.Errorf("an escape sequence went to the terminal too: %q", clip.String())
	}
}
