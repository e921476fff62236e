//go:build linux

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"syscall"
	"testing"
	"time"
)

// TestSignalWhileTheConfigIsReadEndsTheRunNonZero: SIGTERM while the
// config file is read must not let conversations print its list and exit
// 0 as if nothing happened: the run exits non-zero and says a signal
// stopped it. The config is a named pipe the test writes, so the signal
// lands while it is being read, however fast the parse is.
func TestSignalWhileTheConfigIsReadEndsTheRunNonZero(t *testing.T) {
	t.Parallel()
	s := seeded(t)
	home := t.TempDir()
	if err := os.MkdirAll(filepath.Join(home, "chatlens"), 0o700); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(home, "chatlens", "config.yaml")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	p := startChatlens(t, []string{"XDG_CONFIG_HOME=" + home}, "conversations", "--as", "alice")
	opened := make(chan *os.File, 1)
	go func() {
		w, err := os.OpenFile(fifo, os.O_WRONLY, 0) // returns once chatlens opens it to read
		if err != nil {
			t.Error(err)
		}
		opened <- w
	}()
	var w *os.File
	select {
	case w = <-opened:
	case <-p.done:
		t.Fatalf("chatlens ended before reading its config: %s", p.stderr.String())
	case <-time.After(time.Minute):
		t.Fatal("chatlens never opened its config")
	}
	if w == nil {
		return
	}
	if _, err := fmt.Fprintf(w, "current-context: c0\ncontexts:\n  c0:\n"); err != nil {
		t.Fatal(err)
	}
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	// The signal is handled on chatlens's side in its own time: the rest
	// of the file follows a moment later, so the read ends after it.
	time.Sleep(300 * time.Millisecond)
	_, _ = fmt.Fprintf(w, "    data: %s\n", s.data)
	_ = w.Close()
	code := p.exitWithin(t, 2*time.Minute)
	if code <= 0 || !regexp.MustCompile(`(?i)sigterm|signal|interrupt`).MatchString(p.stderr.String()) {
		t.Errorf("after SIGTERM: exit %d, stderr %q; want a non-zero exit that says a signal stopped it", code, p.stderr.String())
	}
}
