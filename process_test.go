package main

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Process tests run the built command as a user would: signals, crashes
// and memory are properties of a process, not of a function call.

var built struct {
	once      sync.Once
	dir, path string
	err       error
}

// chatlensBinary is the command, made once per test run; TestMain removes
// it. It is this test binary, which runs as chatlens when so named (TestMain),
// linked in: building the command again took a link of its own, the longest
// step of a run. Under the race detector the command is built without it, as
// users run it: the race runtime is several times slower and larger, and
// these tests time and weigh the process.
func chatlensBinary(t *testing.T) string {
	t.Helper()
	built.once.Do(func() {
		built.dir, built.err = os.MkdirTemp("", "chatlens-bin-")
		if built.err != nil {
			return
		}
		built.path = filepath.Join(built.dir, "chatlens")
		if raceBuild {
			out, err := exec.Command("go", "build", "-o", built.path, ".").CombinedOutput()
			if err != nil {
				built.err = &buildError{err, string(out)}
			}
			return
		}
		built.err = linkSelf(built.path)
	})
	if built.err != nil {
		t.Fatal(built.err)
	}
	return built.path
}

// linkSelf puts this test binary at path: a hard link, else a copy.
func linkSelf(path string) error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	if os.Link(self, path) == nil {
		return nil
	}
	b, err := os.ReadFile(self)
	if err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o755)
}

type buildError struct {
	err error
	out string
}

func (e *buildError) Error() string { return "go build: " + e.err.Error() + "\n" + e.out }

func removeBuiltBinary() {
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
}

// running is a chatlens process started by a test.
type running struct {
	cmd    *exec.Cmd
	stderr *syncBuffer
	done   chan struct{}
}

type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// startChatlens starts the built command with args and extra environment.
func startChatlens(t *testing.T, env []string, args ...string) *running {
	t.Helper()
	cmd := exec.Command(chatlensBinary(t), args...)
	cmd.Env = append(os.Environ(), env...)
	p := &running{cmd: cmd, stderr: &syncBuffer{}, done: make(chan struct{})}
	cmd.Stderr = p.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { _ = cmd.Wait(); close(p.done) }()
	t.Cleanup(func() {
		select {
		case <-p.done:
		default:
			_ = cmd.Process.Kill()
			<-p.done
		}
	})
	return p
}

// exitWithin waits a generous while for the process to end and returns its
// exit code; the test fails if it does not end.
func (p *running) exitWithin(t *testing.T, d time.Duration) int {
	t.Helper()
	select {
	case <-p.done:
		return p.cmd.ProcessState.ExitCode()
	case <-time.After(d):
		t.Fatalf("still running %s after the signal; stderr %q", d, p.stderr.String())
		return -1
	}
}

// waitFor polls cond until it holds, failing the test after a long while
// or when the process ends first.
func (p *running) waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(60 * time.Second); !cond(); time.Sleep(20 * time.Millisecond) {
		select {
		case <-p.done:
			t.Fatalf("ended before %s: exit %d, stderr %q", what, p.cmd.ProcessState.ExitCode(), p.stderr.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("no %s within a minute; stderr %q", what, p.stderr.String())
		}
	}
}

// peakMemory is the process's peak resident set (VmHWM) in bytes; 0 when
// /proc does not say (not Linux, or the process has ended).
func peakMemory(pid int) int64 {
	f, err := os.Open("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb << 10
		}
	}
	return 0
}

func fileSize(path string) int64 {
	fi, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return fi.Size()
}

// A truncated store file, or one with pages overwritten, is a one-line
// "store is damaged" and exit 1: not a SIGBUS, a panic and a stack trace
// with the bad-usage code.
func TestDamagedStoreIsOneLine(t *testing.T) {
	t.Parallel()
	whole, err := os.ReadFile(template)
	if err != nil {
		t.Fatal(err)
	}
	garbage := bytes.Clone(whole)
	for i := 3 * 4096; i < len(garbage)-4096; i++ {
		garbage[i] = 0xff
	}
	for _, c := range []struct {
		name string
		data []byte
	}{
		{"truncated", whole[:len(whole)/2]},
		{"pages overwritten", garbage},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(t.TempDir(), "chatlens.db")
			if err := os.WriteFile(path, c.data, 0o600); err != nil {
				t.Fatal(err)
			}
			for _, args := range [][]string{
				{"conversations", "--as", "alice"}, {"dump", "--conversation", "sg_townsquare", "--as", "alice"}, {"export"},
			} {
				p := startChatlens(t, nil, append(args, "--data", path)...)
				code := p.exitWithin(t, time.Minute)
				stderr := p.stderr.String()
				if code != 1 || !strings.Contains(stderr, "store is damaged") {
					t.Errorf("%s: exit %d, stderr %.500q; want 1 and \"store is damaged\"", args[0], code, stderr)
				}
				oneErrorLine(t, stderr)
			}
		})
	}
}

// seed of a huge dataset writes as it plans, so its memory stays flat, and
// Ctrl-C or SIGTERM stops it between batches.
func TestSeedIsStreamedAndStopsOnSignals(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skip("needs /proc to read the peak memory")
	}
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			data := filepath.Join(dir, "big.db")
			p := startChatlens(t, nil, "seed", "--data", data, "--audit-log", filepath.Join(dir, "audit.log"),
				"--conversations", "1", "--messages", "2000000", "--long", "0")
			var peak int64
			p.waitFor(t, "messages written", func() bool {
				peak = max(peak, peakMemory(p.cmd.Process.Pid))
				return fileSize(data) > 32<<20
			})
			if err := p.cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			peak = max(peak, peakMemory(p.cmd.Process.Pid))
			code := p.exitWithin(t, 30*time.Second)
			if code != 1 || !strings.Contains(p.stderr.String(), "interrupted") {
				t.Errorf("after %s: exit %d, stderr %q; want 1 and \"interrupted\"", sig, code, p.stderr.String())
			}
			// Planning 3 million messages in memory took over 1 GB; 2 million is
			// the most a seed takes.
			t.Logf("peak memory %d MiB", peak>>20)
			if peak > 300<<20 {
				t.Errorf("peak memory %d MiB, want the plan streamed (under 300 MiB)", peak>>20)
			}
		})
	}
}

// bench removes its scratch files when stopped by Ctrl-C or SIGTERM.
func TestBenchRemovesScratchFilesOnSignals(t *testing.T) {
	t.Parallel()
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			t.Parallel()
			tmp := t.TempDir()
			p := startChatlens(t, []string{"TMPDIR=" + tmp}, "bench", "--messages", "300000", "--no-sync")
			p.waitFor(t, "scratch files written", func() bool {
				files, _ := filepath.Glob(filepath.Join(tmp, "chatlens-bench-*", "*"))
				for _, f := range files {
					if fileSize(f) > 4<<20 {
						return true
					}
				}
				return false
			})
			if err := p.cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			code := p.exitWithin(t, 30*time.Second)
			if code != 1 || !strings.Contains(p.stderr.String(), "interrupted") {
				t.Errorf("after %s: exit %d, stderr %q; want 1 and \"interrupted\"", sig, code, p.stderr.String())
			}
			if left, _ := os.ReadDir(tmp); len(left) != 0 {
				t.Errorf("after %s the scratch files are left: %v", sig, left)
			}
		})
	}
}

// A bench killed outright (SIGKILL cannot be caught) leaves its scratch
// files; the next bench removes them.
func TestNextBenchRemovesScratchFilesOfAKilledOne(t *testing.T) {
	t.Parallel()
	tmp := t.TempDir()
	env := []string{"TMPDIR=" + tmp}
	p := startChatlens(t, env, "bench", "--messages", "300000", "--no-sync")
	p.waitFor(t, "scratch files written", func() bool {
		files, _ := filepath.Glob(filepath.Join(tmp, "chatlens-bench-*", "*.db"))
		return len(files) > 0
	})
	if err := p.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	p.exitWithin(t, 30*time.Second)
	if left, _ := os.ReadDir(tmp); len(left) == 0 {
		t.Fatal("the killed bench left nothing to clean up; the test proves nothing")
	}
	next := startChatlens(t, env, "bench", "--messages", "200", "--json")
	if code := next.exitWithin(t, time.Minute); code != 0 {
		t.Fatalf("next bench: exit %d, stderr %q", code, next.stderr.String())
	}
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Errorf("the killed bench's scratch files are still there: %v", left)
	}
}
