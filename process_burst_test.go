//go:build linux

package main

import (
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"
)

// Keys typed faster than the store answers reach the UI in one read of the
// terminal: "cbob\r]" pasted, or ] held down. Such a burst must end where
// the same keys pressed one at a time end, and say what they say: here
// with real keys in a real terminal (tmux), the UI as its own process.
func TestBurstsEndWhereSinglePressesEnd(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed (.ci/run installs it)")
	}
	bin := chatlensBinary(t)
	cases := []struct {
		name, as, open string
		keys           []string
	}{
		// Compare alice's chat with bob's side and walk its differences.
		{"compare next", "alice", "jj\r", []string{"c", "]", "]", "]"}},
		{"compare previous", "alice", "jj\r", []string{"c", "[", "["}},
		{"differences only", "alice", "jj\r", []string{"c", "D", "k"}},
		{"from the oldest", "bob", "jj\r", []string{"c", "g", "]", "]", "]", "]", "]"}},
		// A search's landing and its steps.
		{"search steps", "alice", "jj\r", []string{"/", "l", "u", "n", "c", "h", "\r", "n", "n", "N"}},
		// A jump, then a difference from there.
		{"jump then compare", "alice", "jj\r", []string{":", "4", "0", "\r", "c", "]"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			s := seeded(t)
			one := startTmux(t, t.TempDir(), shellWords([]string{bin, "--data", s.data, "--audit-log", s.audit, "--as", c.as}), nil)
			one.openFirst(t, c.open)
			for _, k := range c.keys {
				one.send(t, k)
				one.settle(t)
			}

			b := seeded(t)
			all := startTmux(t, t.TempDir(), shellWords([]string{bin, "--data", b.data, "--audit-log", b.audit, "--as", c.as}), nil)
			all.openFirst(t, c.open)
			all.send(t, strings.Join(c.keys, ""))
			all.settle(t)

			wantAt, wantSaid := whereAndSaid(one.screen())
			gotAt, gotSaid := whereAndSaid(all.screen())
			if gotAt != wantAt || gotSaid != wantSaid {
				t.Errorf("%q as %s in one burst ends at %q saying %q;\none key at a time ends at %q saying %q\nburst screen:\n%s",
					strings.Join(c.keys, ""), c.as, gotAt, gotSaid, wantAt, wantSaid, all.screen())
			}
			for _, stuck := range []string{"looking", "scanning", "alike"} {
				if strings.Contains(gotSaid, stuck) && !strings.Contains(wantSaid, stuck) {
					t.Errorf("the burst left %q standing: %q", stuck, gotSaid)
				}
			}
		})
	}
}

// openFirst waits for the whole conversation list, then types keys (with \r for
// enter) that open a conversation, and waits for its rows.
func (tm *tmuxShell) openFirst(t *testing.T, keys string) {
	t.Helper()
	tm.waitFor(t, "Town Square") // the list's last row: every row is in
	tm.settle(t)
	tm.send(t, keys)
	tm.waitFor(t, " · bucket ")
	tm.settle(t)
}

// settle waits until the screen has not changed for a while and no read
// is said to be under way: every key typed has had its answer drawn.
func (tm *tmuxShell) settle(t *testing.T) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	last, stable := "", 0
	for stable < 4 {
		if time.Now().After(deadline) {
			t.Fatalf("the screen never settled; it shows:\n%s", last)
		}
		time.Sleep(100 * time.Millisecond)
		s := tm.screen()
		_, said := whereAndSaid(s)
		switch {
		case s != last || strings.Contains(said, "looking") || strings.Contains(said, "scanning") || strings.Contains(said, "…"):
			last, stable = s, 0
		default:
			stable++
		}
	}
}

var seqAt = regexp.MustCompile(`seq \d+/\d+`)

// whereAndSaid is the cursor's seq of the status bar and the footer line
// below it: the round-trip count beside them differs with how the keys
// came, and is left out.
func whereAndSaid(screen string) (at, said string) {
	lines := strings.Split(strings.TrimRight(screen, "\n"), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if m := seqAt.FindString(lines[i]); m != "" {
			if i+1 < len(lines) {
				said = strings.TrimSpace(lines[i+1])
			}
			return m, said
		}
	}
	return "", ""
}
