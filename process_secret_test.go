//go:build linux

package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A context's openim-secret-cmd is a process chatlens starts: it runs
// only when a write needs the secret, once per run, within a timeout, and
// its whole process group ends on that timeout and on Ctrl-C.

// secretConfig writes config.yaml with the contexts given (name: keys,
// one "key: value" a line); it returns the environment a chatlens process
// needs to read it.
func secretConfig(t *testing.T, contexts map[string][]string) []string {
	t.Helper()
	dir := t.TempDir()
	var cfg strings.Builder
	cfg.WriteString("contexts:\n")
	for name, keys := range contexts {
		cfg.WriteString("  " + name + ":\n")
		for _, k := range keys {
			cfg.WriteString("    " + k + "\n")
		}
	}
	if err := os.MkdirAll(filepath.Join(dir, "chatlens"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "chatlens", "config.yaml"), []byte(cfg.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return []string{"XDG_CONFIG_HOME=" + dir, "CHATLENS_CONTEXT="}
}

// slowSecret is a secret command whose child sleeps long, its pid in
// pidFile: the child must end with the command.
func slowSecret(pidFile string) string {
	return `openim-secret-cmd: 'sleep 30 & echo $! > ` + pidFile + `; wait; echo too-late-secret'`
}

// childPid waits for the secret command to have started its child.
func childPid(t *testing.T, p *running, pidFile string) int {
	t.Helper()
	var pid int
	p.waitFor(t, "the secret command's child", func() bool {
		b, err := os.ReadFile(pidFile)
		pid, _ = strconv.Atoi(strings.TrimSpace(string(b)))
		return err == nil && pid > 0
	})
	return pid
}

// ended waits a few seconds for pid to be gone (or a zombie nobody waits
// for yet) and fails the test if it is not.
func ended(t *testing.T, pid int, what string) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil {
			return
		}
		if f := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:])); len(f) > 0 && f[0] == "Z" {
			return
		}
		if time.Now().After(deadline) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("%s: the secret command's child (pid %d) still runs", what, pid)
		}
	}
}

// A revoke whose secret command does not answer within its timeout (the
// context's openim-secret-timeout) fails then, says why, and leaves no
// process of the command behind; it said what it waited on meanwhile.
func TestSecretCmdEndsAtItsTimeout(t *testing.T) {
	s := seeded(t)
	pidFile := filepath.Join(t.TempDir(), "child.pid")
	env := secretConfig(t, map[string][]string{"slow": {"data: " + s.data, "openim-api: http://127.0.0.1:1", "openim-secret-timeout: 1s", slowSecret(pidFile)}})
	chatlensBinary(t) // (built before the clock starts)
	start := time.Now()
	p := startChatlens(t, env, "--context", "slow", "revoke", "--audit-log", s.audit, "--conversation", "si_alice_bob", "--seq", "4", "--by", "bob")
	pid := childPid(t, p, pidFile)
	code := p.exitWithin(t, 15*time.Second)
	took := time.Since(start)
	stderr := p.stderr.String()
	if code != 1 || took > 8*time.Second || !strings.Contains(stderr, "chatlens: waiting for openim-secret-cmd of context slow (1s at most)…") ||
		!strings.Contains(stderr, "openim-secret-cmd did not finish within 1s") || strings.Contains(stderr, "too-late-secret") {
		t.Errorf("exit %d after %s; want 1 within a few seconds, having said it waited and that the command did not finish within 1s:\n%s", code, took, stderr)
	}
	ended(t, pid, "after the timeout")
}

// Ctrl-C (SIGINT) while a revoke waits on the secret command ends the run
// at once, the command's whole process group with it.
func TestCtrlCEndsTheSecretCmd(t *testing.T) {
	s := seeded(t)
	pidFile := filepath.Join(t.TempDir(), "child.pid")
	env := secretConfig(t, map[string][]string{"slow": {"data: " + s.data, "openim-api: http://127.0.0.1:1", slowSecret(pidFile)}})
	p := startChatlens(t, env, "--context", "slow", "revoke", "--audit-log", s.audit, "--conversation", "si_alice_bob", "--seq", "4", "--by", "bob")
	pid := childPid(t, p, pidFile)
	start := time.Now()
	if err := p.cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	code := p.exitWithin(t, 40*time.Second)
	if took := time.Since(start); code == 0 || took > 3*time.Second {
		t.Errorf("after Ctrl-C: exit %d in %s; want a failure at once (the default timeout is 10s):\n%s", code, took, p.stderr.String())
	}
	ended(t, pid, "after Ctrl-C")
}

// The UI never asks the secret to read: it starts on a context whose
// secret command fails, and switches to one (:context) without running
// it. A write runs it, saying meanwhile that it waits on it; its failure
// is the write's, its stderr copied nowhere, and it runs once per run.
func TestUIAsksTheSecretOnlyForAWrite(t *testing.T) {
	t.Parallel()
	s := seeded(t)
	mark := filepath.Join(t.TempDir(), "secret-cmd-ran")
	api := []string{"data: " + s.data, "openim-api: http://127.0.0.1:1",
		`openim-secret-cmd: 'touch ` + mark + `; echo vault-said-Hunter2 >&2; sleep 1; exit 3'`}
	env := secretConfig(t, map[string][]string{"plain": {"data: " + s.data}, "api": api, "api2": api})
	ran := func() bool { _, err := os.Stat(mark); return err == nil }

	// Started on it: the list, and the command never ran.
	term, _ := startUIEnv(t, s, env, "Bob", "--context", "api", "--as", "alice")
	if ran() {
		t.Fatal("the UI ran openim-secret-cmd to start")
	}

	// A write: it runs, the status bar says so while it does, the write
	// fails with its exit status only.
	failed := func() int {
		b, _ := os.ReadFile(s.audit)
		if strings.Contains(string(b), "Hunter2") {
			t.Fatalf("the audit log holds the secret command's stderr:\n%s", b)
		}
		return strings.Count(string(b), "openim-secret-cmd failed (exit status 3)")
	}
	deleteOnce := func(want int) {
		t.Helper()
		from := term.drawn()
		_, _ = term.master.WriteString("d")
		term.waitFor(t, from, "Delete for alice only?")
		from = term.drawn()
		_, _ = term.master.WriteString("y")
		if want == 1 {
			term.waitFor(t, from, "waiting for openim-secret-cmd")
		}
		for deadline := time.Now().Add(30 * time.Second); failed() < want; time.Sleep(50 * time.Millisecond) {
			if time.Now().After(deadline) {
				b, _ := os.ReadFile(s.audit)
				t.Fatalf("delete %d: no audit line of the secret command's failure; the log:\n%s\nthe screen:\n%q", want, b, term.since(from))
			}
		}
	}
	from := term.drawn()
	_, _ = term.master.WriteString("\r")
	term.waitFor(t, from, "seq ")
	deleteOnce(1)
	if !ran() {
		t.Fatal("the write did not run openim-secret-cmd")
	}
	if err := os.Remove(mark); err != nil {
		t.Fatal(err)
	}
	deleteOnce(2)
	if ran() {
		t.Error("a second write ran openim-secret-cmd again")
	}

	// Switched to it: the same.
	term, _ = startUIEnv(t, s, env, "Bob", "--context", "plain", "--as", "alice")
	from = term.drawn()
	_, _ = term.master.WriteString(":")
	term.waitFor(t, from, "context ")
	from = term.drawn()
	_, _ = term.master.WriteString("api2\r")
	term.waitFor(t, from, "switched to context api2")
	if ran() {
		t.Fatal("the UI ran openim-secret-cmd to switch context")
	}
}
