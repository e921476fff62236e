package ui

import (
	"strings"
	"testing"
)

func findDriver(t *testing.T) *driver {
	t.Helper()
	st, _ := newTestStore(t, false)
	seedSmall(t, st)
	opts, _ := testOptions(t, "alice")
	return newDriver(t, st, opts, 120, 40)
}

// TestFindOpensTheMessage: from the conversation list, I and a client msg
// ID open the conversation at that message and say where it is stored; a
// server msg ID works the same way.
func TestFindOpensTheMessage(t *testing.T) {
	d := findDriver(t)
	d.keys("I")
	d.typeText("c110")
	d.keys("enter")
	if d.m.tl == nil || d.m.tl.ID() != chatAB || d.m.tl.Cursor() != 110 {
		t.Fatalf("find c110 did not open %s at 110:\n%s", chatAB, d.m.View())
	}
	if want := "found by client_msg_id in si_alice_bob seq 110 (bucket si_alice_bob:1 slot 9)"; d.m.status != want {
		t.Errorf("status %q, want %q", d.m.status, want)
	}
	d.keys("I")
	d.typeText("s113")
	d.keys("enter")
	if d.m.tl.Cursor() != 113 || !strings.Contains(d.m.status, "found by server_msg_id") {
		t.Errorf("find s113: cursor %d, status %q", d.m.tl.Cursor(), d.m.status)
	}
	d.keys("I")
	d.typeText("nobody-sent-this")
	d.keys("enter")
	if !strings.Contains(d.m.status, "not in alice's conversations (a: search all): no message has client or server msg ID nobody-sent-this") {
		t.Errorf("find of an unknown ID in scope: status %q", d.m.status)
	}
	d.keys("a")
	if !strings.Contains(d.m.status, "no stored message has client or server msg ID nobody-sent-this") {
		t.Errorf("find of an unknown ID everywhere: status %q", d.m.status)
	}
}

// TestFindCanBeCancelled: esc while the scan runs stops it; what it would
// have found opens nothing.
func TestFindCanBeCancelled(t *testing.T) {
	d := findDriver(t)
	d.keys("I")
	d.typeText("c110")
	pending := d.sendOnly(keyMsg("enter"))
	if d.m.find.cur == nil {
		t.Fatal("no find running after enter")
	}
	d.keys("esc")
	d.run(pending)
	if d.m.tl != nil || d.m.status != "find cancelled" {
		t.Errorf("after esc: timeline open %v, status %q", d.m.tl != nil, d.m.status)
	}
}

// TestGoldenFind: the screen a find by ID leaves: the conversation open at
// the message, and where it is stored.
func TestGoldenFind(t *testing.T) {
	s := startScreen(t)
	s.keys("I")
	s.typeText("c110")
	s.keys("enter")
	s.waitFor("found by client_msg_id", "▸ 110 ")
	s.check()
}
