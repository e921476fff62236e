//go:build linux

package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Pressing TAB ran shell code held in the store or the config: bash's
// completion handed stored IDs and context names to compgen's word list, which
// expands $(…) and backticks in them. Each shell here runs for real in a
// terminal (tmux draws it), with the completion script sourced as its user
// would, and TAB is pressed after the start of a hostile word. The word is
// offered as data, quoted for the command line, and nothing runs.
func TestTabNeverRunsStoredCode(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed (.ci/run installs it)")
	}
	bin := chatlensBinary(t)
	dir := t.TempDir()
	data := filepath.Join(dir, "c.db")
	// The user ID and the conversation ID each create a file of their own
	// when expanded; the context name runs the id command, whose output
	// would stand in the completed word.
	user := `m$(touch${IFS}PWNED_USER)`
	conv := "c`touch${IFS}PWNED_CONV`"
	ctxName := "c$(id)"
	writeFile(t, filepath.Join(dir, "u.json"), fmt.Sprintf("{\"user_id\":%q}\n", user))
	writeFile(t, filepath.Join(dir, "conv.json"), fmt.Sprintf("{\"owner_user_id\":\"alice\",\"conversation_id\":%q}\n", conv))
	for _, imp := range [][]string{
		{"import", "--data", data, "--collection", "user", filepath.Join(dir, "u.json")},
		{"import", "--data", data, "--collection", "conversation", filepath.Join(dir, "conv.json")},
	} {
		if out, err := exec.Command(bin, imp...).CombinedOutput(); err != nil {
			t.Fatalf("%v: %v\n%s", imp, err, out)
		}
	}
	config := filepath.Join(dir, "xdg", "chatlens", "config.yaml")
	if err := os.MkdirAll(filepath.Dir(config), 0o700); err != nil {
		t.Fatal(err)
	}
	writeFile(t, config, fmt.Sprintf("contexts:\n  %q:\n    data: %s\n", ctxName, data))

	// Each case types a command line ending in the start of a hostile word
	// and wants the whole word back, quoted as the shell quotes it (fish
	// gives backticks no meaning, so leaves them as they are).
	cases := []struct{ line, want, fish string }{
		{"chatlens --data c.db dump --as m", `--as m\$\(touch\$\{IFS\}PWNED_USER\)`, ""},
		{"chatlens --data c.db dump --as alice --conversation c", "--conversation c\\`touch\\$\\{IFS\\}PWNED_CONV\\`", "--conversation c`touch\\$\\{IFS\\}PWNED_CONV`"},
		{"chatlens --context c", `--context c\$\(id\)`, ""},
	}
	shells := []struct {
		name, start, load string
	}{
		{"bash", "bash --norc --noprofile", "source ./chatlens.bash"},
		{"zsh", "zsh -f", "autoload -U compinit && compinit -u && source ./_chatlens"},
		{"fish", "fish --no-config", "source ./chatlens.fish"},
	}
	for _, sh := range shells {
		t.Run(sh.name, func(t *testing.T) {
			t.Parallel()
			if _, err := exec.LookPath(sh.name); err != nil {
				t.Skipf("%s is not installed (.ci/run installs it)", sh.name)
			}
			work := t.TempDir()
			if err := os.Symlink(data, filepath.Join(work, "c.db")); err != nil {
				t.Fatal(err)
			}
			script := map[string]string{"bash": "chatlens.bash", "zsh": "_chatlens", "fish": "chatlens.fish"}[sh.name]
			out, err := exec.Command(bin, "completion", sh.name).Output()
			if err != nil {
				t.Fatal(err)
			}
			writeFile(t, filepath.Join(work, script), string(out))

			tm := startTmux(t, work, sh.start, map[string]string{
				"PATH":            filepath.Dir(bin) + ":" + os.Getenv("PATH"),
				"XDG_CONFIG_HOME": filepath.Join(dir, "xdg"),
				"XDG_DATA_HOME":   filepath.Join(dir, "xdg-data"),
			})
			tm.send(t, sh.load, "Enter")
			tm.send(t, "echo ready''-42", "Enter") // the quotes keep the echo apart from what is typed
			tm.waitFor(t, "ready-42")
			for _, c := range cases {
				tm.send(t, "C-u")
				tm.send(t, c.line, "Tab")
				want := c.want
				if sh.name == "fish" && c.fish != "" {
					want = c.fish
				}
				tm.waitFor(t, want)
			}
			// Give anything started by a TAB time to leave its mark.
			time.Sleep(300 * time.Millisecond)
			for _, d := range []string{work, dir} {
				entries, _ := os.ReadDir(d)
				for _, e := range entries {
					if strings.HasPrefix(e.Name(), "PWNED") {
						t.Errorf("%s: TAB ran code from a stored ID: %s was created in %s", sh.name, e.Name(), d)
					}
				}
			}
		})
	}
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

// tmuxShell is a shell running in a tmux session of its own server.
type tmuxShell struct{ socket, session string }

func startTmux(t *testing.T, dir, command string, env map[string]string) *tmuxShell {
	t.Helper()
	tm := &tmuxShell{socket: filepath.Join(t.TempDir(), "tmux.sock"), session: "t"}
	args := []string{"-S", tm.socket, "-f", "/dev/null", "new-session", "-d", "-s", tm.session, "-x", "200", "-y", "40", "-c", dir}
	for k, v := range env {
		args = append(args, "-e", k+"="+v)
	}
	args = append(args, command)
	cmd := exec.Command("tmux", args...)
	cmd.Env = append(os.Environ(), "TERM=xterm-256color", "TMUX=")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("tmux: %v\n%s", err, out)
	}
	t.Cleanup(func() { _ = exec.Command("tmux", "-S", tm.socket, "kill-server").Run() })
	return tm
}

func (tm *tmuxShell) send(t *testing.T, keys ...string) {
	t.Helper()
	for _, k := range keys {
		args := []string{"-S", tm.socket, "send-keys", "-t", tm.session}
		if k != "Enter" && k != "Tab" && k != "C-u" {
			args = append(args, "-l")
		}
		if out, err := exec.Command("tmux", append(args, k)...).CombinedOutput(); err != nil {
			t.Fatalf("tmux send-keys: %v\n%s", err, out)
		}
	}
}

func (tm *tmuxShell) screen() string {
	out, _ := exec.Command("tmux", "-S", tm.socket, "capture-pane", "-p", "-t", tm.session).Output()
	return string(out)
}

// waitFor waits until the screen shows want.
func (tm *tmuxShell) waitFor(t *testing.T, want string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		s := tm.screen()
		if strings.Contains(s, want) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the screen never showed %q; it shows:\n%s", want, s)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
