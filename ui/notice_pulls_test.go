package ui

import (
	"testing"
)

// TestGoldenNotificationInspector: the inspector of a notification says
// whose pulls hold it, not who has read it.
func TestGoldenNotificationInspector(t *testing.T) {
	s := startNoticeScreen(t)
	s.keys("/")
	s.typeText("n_team")
	s.keys("enter", "enter")
	s.waitFor("as alice", "alice revoked a message (seq 5 of sg_team)")
	s.keys("i")
	s.waitFor("pulled by 3 of 3")
	s.check()
}
