package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Issue 19, items 1 and 2: a seed or import stopped part way says what it
// stored, and leaves its intent in the audit log even when killed.

// auditLines reads the audit log at path: one map per line.
func auditLines(t *testing.T, path string) []map[string]any {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if line == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("audit line %q: %v", line, err)
		}
		out = append(out, m)
	}
	return out
}

// checkMessages is the message count `check` gives for the store at data.
func checkMessages(t *testing.T, data string) int {
	t.Helper()
	n, _, _ := checkSummary(t, data)
	return n
}

// checkSummary is what `check` finds in the store at data: the messages,
// the problems, and its whole report.
func checkSummary(t *testing.T, data string) (messages, problems int, report string) {
	t.Helper()
	out, err := exec.Command(chatlensBinary(t), "check", "--data", data).Output()
	if err != nil && len(out) == 0 {
		t.Fatalf("check: %v", err)
	}
	m := regexp.MustCompile(`summary: \d+ documents, \d+ slots, (\d+) messages, .*, (\d+) problems`).FindSubmatch(out)
	if m == nil {
		t.Fatalf("check printed no summary:\n%s", out)
	}
	messages, _ = strconv.Atoi(string(m[1]))
	problems, _ = strconv.Atoi(string(m[2]))
	return messages, problems, string(out)
}

// An interrupted seed once said "read interrupted, nothing written" after
// storing 600,000 messages, and SIGTERM listed every seq a mark read had
// done. It says how many messages it stored, and where, in one bounded
// line, and check counts the same; the audit log says so too.
func TestInterruptedSeedSaysWhatItStored(t *testing.T) {
	t.Parallel()
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			data, audit := filepath.Join(dir, "x.db"), filepath.Join(dir, "audit.log")
			p := startChatlens(t, nil, "seed", "--data", data, "--audit-log", audit,
				"--conversations", "2", "--messages", "300000", "--long", "0")
			p.waitFor(t, "messages written", func() bool { return fileSize(data) > 24<<20 })
			if err := p.cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			code := p.exitWithin(t, 30*time.Second)
			stderr := p.stderr.String()
			last := stderr[strings.LastIndex(strings.TrimSuffix(stderr, "\n"), "\n")+1:]
			m := regexp.MustCompile(`interrupted after storing (\d+) of 600000 messages \(si_alice_bob seqs 1-(\d+)`).FindStringSubmatch(last)
			if code != 1 || m == nil || strings.Contains(stderr, "nothing written") || len(last) > 400 {
				t.Fatalf("after %s: exit %d, last line %q; want 1 and one bounded line of what was stored", sig, code, last)
			}
			stored, _ := strconv.Atoi(m[1])
			if got := checkMessages(t, data); got != stored {
				t.Errorf("the seed said it stored %d messages, check counts %d", stored, got)
			}
			lines := auditLines(t, audit)
			if len(lines) != 2 || lines[0]["result"] != "intent" || lines[1]["result"] != "partial" ||
				!strings.Contains(fmt.Sprint(lines[1]["error"]), "storing "+m[1]+" of 600000") {
				t.Errorf("audit log %v; want the intent, then partial saying what was stored", lines)
			}
		})
	}
}

// import and seed killed outright (SIGKILL) once left an empty audit log
// after storing tens of thousands of documents: each writes its intent
// before its first write.
func TestKilledSeedAndImportLeaveTheirIntent(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	users := filepath.Join(dir, "users.json")
	var b strings.Builder
	for i := range 300000 {
		fmt.Fprintf(&b, `{"user_id":"u%d","nickname":"User %d","face_url":"","ex":"%s"}`+"\n", i, i, strings.Repeat("x", 100))
	}
	if err := os.WriteFile(users, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, action string
		args         []string
	}{
		{"seed", "seed 1", []string{"seed", "--conversations", "1", "--messages", "1000000", "--long", "0"}},
		{"import", "import user from " + users, []string{"import", users, "--collection", "user", "--mode", "upsert"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			data, audit := filepath.Join(dir, c.name+".db"), filepath.Join(dir, c.name+".log")
			p := startChatlens(t, nil, append(c.args, "--data", data, "--audit-log", audit)...)
			p.waitFor(t, "documents written", func() bool { return fileSize(data) > 4<<20 })
			if err := p.cmd.Process.Kill(); err != nil {
				t.Fatal(err)
			}
			p.exitWithin(t, 30*time.Second)
			lines := auditLines(t, audit)
			if len(lines) != 1 || lines[0]["result"] != "intent" || lines[0]["action"] != c.action {
				t.Errorf("audit log after kill -9: %v; want the %q intent line", lines, c.action)
			}
		})
	}
}

// seed refusing a store that holds documents wrote no audit line: every
// attempted write is audited, one refused before it starts with why.
func TestRefusedSeedIsAudited(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	data := filepath.Join(dir, "x.db")
	small := []string{"--conversations", "1", "--messages", "20", "--long", "0"}
	if out, err := exec.Command(chatlensBinary(t), append([]string{"seed", "--data", data,
		"--audit-log", filepath.Join(dir, "first.log")}, small...)...).CombinedOutput(); err != nil {
		t.Fatalf("seed: %v %s", err, out)
	}
	audit := filepath.Join(dir, "audit.log")
	p := startChatlens(t, nil, append([]string{"seed", "--data", data, "--audit-log", audit, "--seed", "4"}, small...)...)
	if code := p.exitWithin(t, time.Minute); code != 1 || !strings.Contains(p.stderr.String(), "already holds") {
		t.Fatalf("seed of a seeded store: exit %d, stderr %q; want 1 and the refusal", code, p.stderr.String())
	}
	lines := auditLines(t, audit)
	if len(lines) != 1 || lines[0]["action"] != "seed 4" || lines[0]["result"] != "refused" ||
		!strings.Contains(fmt.Sprint(lines[0]["error"]), "already holds") {
		t.Errorf("audit log %v; want one line: seed 4 refused, saying the store holds documents", lines)
	}
}

// A seed killed outright left seqs stored above its seq document ("seq
// document says max_seq 154000 but seq 154400 is stored"), which OpenIM
// would hand out again: the seq document was raised after the messages it
// covers, and a commit could hold the messages without it. It is raised
// first, as OpenIM's allocator reserves a block of seqs before using them,
// so wherever the kill lands no message is above max_seq.
func TestKilledSeedLeavesNoSeqAboveTheSeqDocument(t *testing.T) {
	t.Parallel()
	// bbolt grows the file in steps: each size is a later moment.
	for _, at := range []int64{1 << 20, 16 << 20, 32 << 20, 48 << 20} {
		t.Run(fmt.Sprintf("%dMiB", at>>20), func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			data := filepath.Join(dir, "x.db")
			p := startChatlens(t, nil, "seed", "--data", data, "--audit-log", filepath.Join(dir, "audit.log"),
				"--conversations", "1", "--messages", "100", "--long", "1000000")
			p.waitFor(t, "messages written", func() bool { return fileSize(data) > at })
			if err := p.cmd.Process.Kill(); err != nil {
				t.Fatal(err)
			}
			p.exitWithin(t, 30*time.Second)
			messages, _, report := checkSummary(t, data)
			if strings.Contains(report, "max_seq") {
				t.Errorf("after kill -9 with %d messages stored, check finds seqs above the seq document:\n%s", messages, report)
			}
		})
	}
}
