package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Issue 19, item 8: a write that fails before it starts (the file locked by
// another process, MongoDB unreachable, permission denied) was in no audit
// line. Each is audited failed, "not started", with why.

// wantNotStarted checks the audit log at path holds exactly one line: action
// failed before it started, saying why.
func wantNotStarted(t *testing.T, path, action, why string) {
	t.Helper()
	lines := auditLines(t, path)
	if len(lines) != 1 || lines[0]["action"] != action || lines[0]["result"] != "failed" {
		t.Fatalf("audit log %v; want one failed %q", lines, action)
	}
	if msg, _ := lines[0]["error"].(string); !strings.HasPrefix(msg, "not started: ") || !strings.Contains(msg, why) {
		t.Errorf("audit error %q; want it to say it did not start, and %q", msg, why)
	}
}

func TestWritesThatCannotStartAreAudited(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	users := filepath.Join(dir, "users.json")
	if err := os.WriteFile(users, []byte(`{"user_id":"u1"}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Run("locked by another process", func(t *testing.T) {
		t.Parallel()
		data := filepath.Join(dir, "locked.db")
		seed := startChatlens(t, nil, "seed", "--data", data, "--audit-log", filepath.Join(dir, "seed.log"),
			"--conversations", "1", "--messages", "1000000", "--long", "0")
		seed.waitFor(t, "the seed under way", func() bool { return fileSize(data) > 1<<20 })
		for _, c := range []struct{ action string }{{"import user from " + users}, {"revoke"}} {
			log := filepath.Join(dir, strings.Fields(c.action)[0]+".log")
			args := []string{"import", users, "--collection", "user"}
			if c.action == "revoke" {
				args = []string{"revoke", "--conversation", "si_alice_bob", "--seq", "1", "--by", "alice"}
			}
			p := startChatlens(t, nil, append(args, "--data", data, "--audit-log", log)...)
			if code := p.exitWithin(t, time.Minute); code != 1 {
				t.Fatalf("%s of a locked store: exit %d, stderr %q", c.action, code, p.stderr.String())
			}
			wantNotStarted(t, log, c.action, "in use by another process")
		}
		_ = seed.cmd.Process.Signal(syscall.SIGINT)
		seed.exitWithin(t, 30*time.Second)
	})
	t.Run("MongoDB unreachable", func(t *testing.T) {
		t.Parallel()
		log := filepath.Join(dir, "mongo.log")
		p := startChatlens(t, nil, "delete", "--conversation", "si_alice_bob", "--seq", "2-4", "--by", "bob",
			"--mongo-uri", "mongodb://127.0.0.1:1/?serverSelectionTimeoutMS=300", "--audit-log", log)
		if code := p.exitWithin(t, time.Minute); code != 1 {
			t.Fatalf("exit %d, stderr %q", code, p.stderr.String())
		}
		wantNotStarted(t, log, "delete", "no server reachable")
		if seqs := auditLines(t, log)[0]["seqs"]; seqs != "2-4" {
			t.Errorf("audited seqs %v, want 2-4", seqs)
		}
	})
	t.Run("permission denied", func(t *testing.T) {
		t.Parallel()
		// As root, permissions do not apply: the write runs as nobody.
		shared := filepath.Join(dir, "shared")
		if err := os.Mkdir(shared, 0o777); err != nil {
			t.Fatal(err)
		}
		_ = os.Chmod(shared, 0o777) // past the umask
		data := filepath.Join(shared, "s.db")
		if out, err := exec.Command(chatlensBinary(t), "seed", "--data", data, "--audit-log", filepath.Join(dir, "s.log"),
			"--conversations", "1", "--messages", "20", "--long", "0").CombinedOutput(); err != nil {
			t.Fatalf("seed: %v %s", err, out)
		}
		if err := os.Chmod(data, 0o400); err != nil {
			t.Fatal(err)
		}
		log, input := filepath.Join(shared, "audit.log"), filepath.Join(shared, "users.json")
		if err := os.WriteFile(input, []byte(`{"user_id":"u1"}`+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(chatlensBinary(t), "import", input, "--collection", "user", "--data", data, "--audit-log", log)
		if os.Getuid() == 0 {
			if err := os.Chmod(filepath.Dir(chatlensBinary(t)), 0o755); err != nil {
				t.Fatal(err)
			}
			_ = os.Chmod(filepath.Dir(dir), 0o755) // the test's temporary directories
			_ = os.Chmod(dir, 0o755)
			cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
		}
		out, err := cmd.CombinedOutput()
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
			t.Fatalf("import into a file it may not write: %v, %s", err, out)
		}
		wantNotStarted(t, log, "import user from "+input, "permission denied")
	})
}
