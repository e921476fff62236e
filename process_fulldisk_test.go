//go:build linux

package main

import (
	"encoding/json"
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

// A seed on a full disk printed and audited "stopped after storing 20594
// of 30600 messages (… sg_townsquare seqs 1-20000) … they stay stored"
// when 15,494 were, and check found seqs above the seq document: a group
// commit that fails loses writes that had returned, and the seed had
// counted them. A write counts once its commit is made; what the seed says
// it stored is what export and check find.
func TestSeedOnAFullDiskSaysWhatItStored(t *testing.T) {
	t.Parallel()
	if os.Geteuid() != 0 {
		t.Skip("mounting a small tmpfs (a disk of a fixed size) needs root; CI runs as root")
	}
	for _, size := range []string{"2m", "12m"} {
		t.Run(size, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			disk := filepath.Join(dir, "disk")
			if err := os.Mkdir(disk, 0o700); err != nil {
				t.Fatal(err)
			}
			if err := syscall.Mount("tmpfs", disk, "tmpfs", 0, "size="+size); err != nil {
				t.Skipf("cannot mount a tmpfs here: %v", err)
			}
			t.Cleanup(func() { _ = syscall.Unmount(disk, 0) }) // before the temporary directory goes
			data, audit := filepath.Join(disk, "F.db"), filepath.Join(dir, "audit.log")
			p := startChatlens(t, nil, "seed", "--data", data, "--audit-log", audit,
				"--conversations", "2", "--messages", "300", "--long", "30000")
			code := p.exitWithin(t, 2*time.Minute)
			stderr := p.stderr.String()
			m := regexp.MustCompile(`stopped after storing (\d+) of 30600 messages .*no space left on device`).FindStringSubmatch(stderr)
			if code != 1 || m == nil {
				t.Fatalf("seed on a %s disk: exit %d, stderr %q; want 1 and how many messages it stored", size, code, stderr)
			}
			stored, _ := strconv.Atoi(m[1])
			messages, problems, report := checkSummary(t, data)
			if messages != stored || problems != 0 {
				t.Errorf("the seed said it stored %d messages; check counts %d and %d problems:\n%s", stored, messages, problems, report)
			}
			if exported := exportedMessages(t, data); exported != stored {
				t.Errorf("the seed said it stored %d messages; export holds %d", stored, exported)
			}
			lines := auditLines(t, audit)
			if len(lines) != 2 || lines[0]["result"] != "intent" || lines[1]["result"] != "partial" ||
				!strings.Contains(lines[1]["error"].(string), "storing "+m[1]+" of 30600") {
				t.Errorf("audit log %v; want the intent, then partial saying %s messages were stored", lines, m[1])
			}
			t.Logf("%s disk: %d of 30600 messages stored", size, stored)
		})
	}
}

// exportedMessages counts the messages export writes of the store at
// data: the slots of its msg documents that hold one.
func exportedMessages(t *testing.T, data string) int {
	t.Helper()
	out, err := exec.Command(chatlensBinary(t), "export", "--data", data, "--collection", "msg").Output()
	if err != nil {
		t.Fatalf("export: %v", err)
	}
	n := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		var doc struct{ Msgs []struct{ Msg any } }
		if err := json.Unmarshal([]byte(line), &doc); err != nil {
			t.Fatalf("export line %.200q: %v", line, err)
		}
		for _, slot := range doc.Msgs {
			if slot.Msg != nil {
				n++
			}
		}
	}
	return n
}
