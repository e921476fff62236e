package main

import (
	"bufio"
	"bytes"
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

// writeBucketFile writes about mib MiB of mongoexport lines: full buckets of
// 800-byte messages, as an export of a long conversation looks.
func writeBucketFile(t *testing.T, path string, mib int) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	content := strings.Repeat("x", 800)
	written := 0
	for index := 0; written < mib<<20; index++ {
		var line bytes.Buffer
		fmt.Fprintf(&line, `{"doc_id":"sg_big:%d","msgs":[`, index)
		for i := range 100 {
			if i > 0 {
				line.WriteByte(',')
			}
			fmt.Fprintf(&line, `{"msg":{"seq":%d,"content":"%s"}}`, index*100+i+1, content)
		}
		line.WriteString("]}\n")
		written += line.Len()
		if _, err := w.Write(line.Bytes()); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// import of a large file reads and stores it a few MiB at a time, so its
// memory stays flat whatever the file's size; Ctrl-C or SIGTERM stops it
// before the next line, and what it says was stored is what the store holds.
func TestImportIsStreamedAndStopsOnSignals(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skip("needs /proc to read the peak memory")
	}
	dir := t.TempDir()
	input := filepath.Join(dir, "big.json")
	writeBucketFile(t, input, 100)

	// The whole file, and the stops part way (below), at once.
	t.Run("whole file", func(t *testing.T) {
		t.Parallel()
		data := filepath.Join(dir, "whole.db")
		p := startChatlens(t, nil, "import", input, "--data", data, "--audit-log", filepath.Join(dir, "audit.log"))
		var peak int64
		p.waitFor(t, "the import to end", func() bool {
			peak = max(peak, peakMemory(p.cmd.Process.Pid))
			select {
			case <-p.done:
				return true
			default:
				return false
			}
		})
		if code := p.cmd.ProcessState.ExitCode(); code != 0 {
			t.Fatalf("import: exit %d, stderr %q", code, p.stderr.String())
		}
		// 500 buckets a batch held over 40 MiB of BSON at once, several times over.
		t.Logf("peak memory %d MiB importing 100 MiB", peak>>20)
		if peak > 200<<20 {
			t.Errorf("peak memory %d MiB importing 100 MiB, want it streamed (under 200 MiB)", peak>>20)
		}
	})

	// It said how many documents were stored; it says which lines of the
	// input, and the audit's outcome says the same.
	stored := regexp.MustCompile(`import: interrupted: stored lines 1-(\d+) of the input \((\d+) documents\); line (\d+) on not stored: [^\n]*`)
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			t.Parallel()
			data, audit := filepath.Join(t.TempDir(), "part.db"), filepath.Join(t.TempDir(), "audit.log")
			p := startChatlens(t, nil, "import", input, "--data", data, "--audit-log", audit)
			p.waitFor(t, "documents stored", func() bool { return fileSize(data) > 8<<20 })
			if err := p.cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			code := p.exitWithin(t, 30*time.Second)
			m := stored.FindStringSubmatch(p.stderr.String())
			if code != 1 || m == nil {
				t.Fatalf("after %s: exit %d, stderr %q; want 1 and where the import stopped", sig, code, p.stderr.String())
			}
			last, _ := strconv.Atoi(m[1])
			n, _ := strconv.Atoi(m[2])
			line, _ := strconv.Atoi(m[3])
			if last != n || line != last+1 || len(m[0]) > 200 {
				t.Errorf("%q; want the lines stored, as many documents, and the next line not stored, in a short line", m[0])
			}
			lines := auditLines(t, audit)
			if len(lines) != 2 || lines[1]["result"] != "partial" || lines[1]["error"] != m[0] {
				t.Errorf("audit log %v; want the intent, then partial with %q", lines, m[0])
			}
			out, err := exec.Command(chatlensBinary(t), "export", "--data", data, "--audit-log", filepath.Join(dir, "audit.log")).Output()
			if err != nil {
				t.Fatal(err)
			}
			if held := bytes.Count(out, []byte("\n")); held != n || line != n+1 {
				t.Errorf("stopped at line %d with %d documents said stored; the store holds %d", line, n, held)
			}
		})
	}
}
