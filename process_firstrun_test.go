package main

import (
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Issue 19, item 2, for the first run: the demo seed that `chatlens` writes
// into a new default store left no audit line, killed or not. It logs its
// intent before its first write and its outcome after, as `seed` does.

// firstRunEnv is a new user's directories: the default store and audit
// log under them.
func firstRunEnv(t *testing.T) (env []string, data, audit string) {
	dir := t.TempDir()
	env = []string{"XDG_DATA_HOME=" + filepath.Join(dir, "data"), "XDG_STATE_HOME=" + filepath.Join(dir, "state")}
	return env, filepath.Join(dir, "data", "chatlens", "chatlens.db"), filepath.Join(dir, "state", "chatlens", "audit.log")
}

func TestFirstRunSeedIsAudited(t *testing.T) {
	for _, c := range []struct {
		name string
		args []string
	}{{"UI", nil}, {"conversations", []string{"conversations", "--as", "alice"}}} {
		t.Run(c.name, func(t *testing.T) {
			env, data, audit := firstRunEnv(t)
			cmd := exec.Command(chatlensBinary(t), c.args...)
			cmd.Env = append(cmd.Environ(), env...)
			cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true} // no terminal for the UI
			out, _ := cmd.CombinedOutput()
			if !strings.Contains(string(out), "chatlens: seeded ") {
				t.Fatalf("first run: %s; want the demo seeded", out)
			}
			lines := auditLines(t, audit)
			if len(lines) != 2 || lines[0]["result"] != "intent" || lines[1]["result"] != "ok" ||
				lines[0]["action"] != "seed 1" || lines[1]["action"] != "seed 1" {
				t.Errorf("audit log after a first run: %v; want the seed's intent, then ok", lines)
			}
			if fileSize(data) == 0 {
				t.Errorf("no store at %s", data)
			}
		})
	}
	t.Run("killed", func(t *testing.T) {
		env, data, audit := firstRunEnv(t)
		p := startChatlens(t, env, "conversations", "--as", "alice")
		p.waitFor(t, "the demo under way", func() bool { return fileSize(data) > 4<<20 })
		if err := p.cmd.Process.Kill(); err != nil {
			t.Fatal(err)
		}
		p.exitWithin(t, 30*time.Second)
		if strings.Contains(p.stderr.String(), "chatlens: seeded ") {
			t.Skip("the demo was seeded before the kill")
		}
		lines := auditLines(t, audit)
		if len(lines) != 1 || lines[0]["result"] != "intent" || lines[0]["action"] != "seed 1" {
			t.Errorf("audit log after kill -9 of a first run: %v; want the seed's intent line", lines)
		}
	})
}
