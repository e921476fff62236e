//go:build linux

package main

import (
	"os"
	"strings"
	"testing"
	"time"
)

// A store file cut short under a running UI (cp backup.db chatlens.db
// while it is open) killed it with SIGBUS and a 300-line goroutine dump on
// the next read. It says what the command line says of such a file, and
// stays usable: q quits it.
func TestUISaysTheStoreIsCutShortAndStaysUsable(t *testing.T) {
	t.Parallel()
	s := seeded(t)
	term, ui := startUI(t, s, "alice", "Bob")
	from := term.drawn()
	_, _ = term.master.WriteString("\r") // open the first conversation
	term.waitFor(t, from, "seq ")
	fi, err := os.Stat(s.data)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(s.data, fi.Size()/2); err != nil {
		t.Fatal(err)
	}
	from = term.drawn()
	_, _ = term.master.WriteString("R") // read everything on screen again
	term.waitFor(t, from, "the store is damaged: cut short")
	_, _ = term.master.WriteString("q")
	done := make(chan error, 1)
	go func() { done <- ui.Wait() }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatalf("q did not end the UI; it drew:\n%q", term.since(from))
	}
	if code := ui.ProcessState.ExitCode(); code != 0 || strings.Contains(term.since(0), "goroutine") {
		t.Errorf("after q: exit %d; want 0 and no crash:\n%q", code, term.since(from))
	}
}
