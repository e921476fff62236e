package ui

import (
	"bytes"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest"
)

// Golden screens at 100x30 with no colour (TestMain sets the ASCII
// profile). Each test drives a real program through teatest, waits for what
// proves every load it started has answered, then compares the final screen
// with testdata/<TestName>.golden (regenerate with -update).

type screen struct {
	t  *testing.T
	tm *teatest.TestModel
	tb *testBackend
}

func startScreen(t *testing.T) *screen {
	t.Helper()
	st, tb := newTestStore(t, false)
	seedSmall(t, st)
	opts, _ := testOptions(t, "alice")
	tm := teatest.NewTestModel(t, NewModel(st, opts), teatest.WithInitialTermSize(100, 30))
	s := &screen{t: t, tm: tm, tb: tb}
	s.waitFor("hello 120 from bob") // the list with its previews
	return s
}

// waitFor waits until every one of wants has been drawn since the last wait.
func (s *screen) waitFor(wants ...string) {
	s.t.Helper()
	teatest.WaitFor(s.t, s.tm.Output(), func(out []byte) bool {
		for _, w := range wants {
			if !bytes.Contains(out, []byte(w)) {
				return false
			}
		}
		return true
	}, teatest.WithDuration(5*time.Second), teatest.WithCheckInterval(10*time.Millisecond))
}

func (s *screen) keys(ks ...string) {
	for _, k := range ks {
		s.tm.Send(keyMsg(k))
	}
}

func (s *screen) typeText(text string) { s.tm.Type(text) }

// open opens the single chat as alice and waits for both buckets: the
// newest, which the list read, is drawn at once; bucket 0 (seq 100 and
// alice's read line after it) arrives after one find.
func (s *screen) open() {
	s.keys("/")
	s.typeText(chatAB)
	s.keys("enter", "enter")
	s.waitFor("as Alice", "Bob: hello 120 from bob", "Alice read up to here (seq 100)")
}

func (s *screen) jump(seq string) {
	s.keys(":")
	s.typeText(seq)
	s.keys("enter")
	s.waitFor("▸ " + strings.Repeat(" ", 3-len(seq)) + seq + " ")
}

func (s *screen) check() {
	s.t.Helper()
	if err := s.tm.Quit(); err != nil {
		s.t.Fatal(err)
	}
	final := s.tm.FinalModel(s.t, teatest.WithFinalTimeout(5*time.Second)).(tea.Model)
	golden.RequireEqual(s.t, []byte(final.View()))
}

func TestGoldenList(t *testing.T) {
	s := startScreen(t)
	s.check()
}

func TestGoldenTimeline(t *testing.T) {
	s := startScreen(t)
	s.open()
	s.check()
}

func TestGoldenTimelineOldest(t *testing.T) {
	s := startScreen(t)
	s.open()
	s.jump("5")
	s.check()
}

func TestGoldenCompare(t *testing.T) {
	s := startScreen(t)
	s.open()
	s.jump("5")
	s.keys("c")
	s.waitFor("Compare alice with")
	s.typeText("bob")
	s.keys("enter")
	s.waitFor("vs Bob")
	s.check()
}

func TestGoldenInspector(t *testing.T) {
	s := startScreen(t)
	s.open()
	s.jump("7")
	s.keys("i")
	s.waitFor("Inspector")
	s.check()
}

func TestGoldenHelp(t *testing.T) {
	s := startScreen(t)
	s.keys("?")
	s.waitFor("Keys")
	s.check()
}

func TestGoldenConfirm(t *testing.T) {
	s := startScreen(t)
	s.open()
	s.jump("10")
	s.keys("r")
	s.waitFor("Revoke for everyone?")
	s.check()
}

func TestGoldenError(t *testing.T) {
	s := startScreen(t)
	s.tb.setFail(errBoom)
	s.keys("/")
	s.typeText(chatAB)
	s.keys("enter", "enter")
	s.waitFor("could not load", "as Alice")
	s.check()
}
