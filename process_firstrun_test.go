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
	t.Parallel()
	seededAndAudited := func(t *testing.T, out, data, audit string) {
		t.Helper()
		if !strings.Contains(out, "chatlens: seeded ") {
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
	}
	t.Run("UI", func(t *testing.T) {
		t.Parallel()
		env, data, audit := firstRunEnv(t)
		term, tty := openTerminal(t)
		cmd := exec.Command(chatlensBinary(t), "--theme", "dark")
		cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
		cmd.Env = append(cmd.Environ(), append(env, "TERM=xterm-256color")...)
		cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		tty.Close()
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		// The whole demo is seeded before the first frame: a slow machine
		// may take minutes, and an ended process ends the wait.
		guard := time.After(5 * time.Minute)
		for !strings.Contains(term.since(0), "Bob") {
			select {
			case <-term.seen:
			case err := <-done:
				t.Fatalf("the UI ended (%v) before its list; it drew %q", err, term.since(0))
			case <-guard:
				t.Fatalf("no list after 5 minutes; drawn %q", term.since(0))
			}
		}
		_ = cmd.Process.Kill()
		<-done
		seededAndAudited(t, term.since(0), data, audit)
	})
	t.Run("conversations", func(t *testing.T) {
		t.Parallel()
		env, data, audit := firstRunEnv(t)
		cmd := exec.Command(chatlensBinary(t), "conversations", "--as", "alice")
		cmd.Env = append(cmd.Environ(), env...)
		out, _ := cmd.CombinedOutput()
		seededAndAudited(t, string(out), data, audit)
	})
	t.Run("killed", func(t *testing.T) {
		t.Parallel()
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

// Issue 27, item 8: the UI where there is no terminal (a script, cron, a CI
// job) said Bubble Tea's "could not open a new TTY: open /dev/tty: no such
// device or address", after seeding the demo for nothing. It says the UI
// needs a terminal and which commands serve scripts, as bad usage, and
// creates nothing.
func TestUIWithoutTerminal(t *testing.T) {
	t.Parallel()
	env, data, _ := firstRunEnv(t)
	cmd := exec.Command(chatlensBinary(t), "--as", "alice")
	cmd.Env = append(cmd.Environ(), env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true} // no controlling terminal; stdin is /dev/null
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := cmd.ProcessState.ExitCode()
	if err != nil && code < 0 {
		t.Fatal(err)
	}
	want := "chatlens: the UI needs a terminal, and this process has none; for scripts, chatlens dump and chatlens conversations print to standard output\n"
	if code != 2 || stderr.String() != want || stdout.Len() != 0 {
		t.Errorf("no terminal: exit %d, stdout %q, stderr %q; want exit 2 and %q", code, stdout.String(), stderr.String(), want)
	}
	if fileSize(data) != 0 {
		t.Errorf("the demo store was created at %s without a terminal to show it", data)
	}
}
