package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// cpuTicks is the CPU time pid has used, in clock ticks (/proc/pid/stat
// utime + stime); 0 when /proc does not say.
func cpuTicks(pid int) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	// The fields after the command name, which ends the last ')'.
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
	if len(f) < 13 {
		return 0
	}
	u, _ := strconv.ParseInt(f[11], 10, 64)
	s, _ := strconv.ParseInt(f[12], 10, 64)
	return u + s
}

// TestSignalWhileTheConfigIsReadEndsTheRunNonZero: SIGTERM while a large
// config file is read (tens of thousands of contexts, under the 1 MiB a
// config may hold) must not let conversations print its list and exit 0
// as if nothing happened: the run exits non-zero and says a signal
// stopped it.
func TestSignalWhileTheConfigIsReadEndsTheRunNonZero(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("needs /proc to tell when the config is being read")
	}
	s := seeded(t)
	home := t.TempDir()
	var cfg strings.Builder
	cfg.WriteString("current-context: c0\ncontexts:\n")
	for i := 0; cfg.Len() < 900<<10; i++ {
		fmt.Fprintf(&cfg, "  c%d:\n    data: %s\n", i, s.data)
	}
	if err := os.MkdirAll(filepath.Join(home, "chatlens"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, "chatlens", "config.yaml"), []byte(cfg.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	p := startChatlens(t, []string{"XDG_CONFIG_HOME=" + home}, "conversations", "--as", "alice")
	// Past the start-up (signals are caught from the first line of main)
	// and into the config: a third of a second of CPU.
	p.waitFor(t, "the config being read", func() bool { return cpuTicks(p.cmd.Process.Pid) >= 33 })
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	code := p.exitWithin(t, 2*time.Minute)
	if code <= 0 || !regexp.MustCompile(`(?i)sigterm|signal|interrupt`).MatchString(p.stderr.String()) {
		t.Errorf("after SIGTERM: exit %d, stderr %q; want a non-zero exit that says a signal stopped it", code, p.stderr.String())
	}
}
