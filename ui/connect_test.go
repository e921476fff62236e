package ui

import (
	"context"
	"errors"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/chatlens/chatlens/store"
)

// slowServer is a Connect that answers only when released.
func slowServer(st *store.Store, err error) (Connect, chan struct{}) {
	release := make(chan struct{})
	return func(ctx context.Context) (*store.Store, string, error) {
		select {
		case <-release:
		case <-ctx.Done():
			return nil, "", ctx.Err()
		}
		return st, "", err
	}, release
}

// TestConnectingFromTheFirstFrame: while the server has not answered, the
// first frame already says what the UI connects to, keys that need the
// store do nothing, and the list follows as soon as it answers.
func TestConnectingFromTheFirstFrame(t *testing.T) {
	st, _ := newTestStore(t, false)
	seedSmall(t, st)
	opts, _ := testOptions(t, "alice")
	connect, release := slowServer(st, nil)
	opts.Connect, opts.ConnectingTo = connect, "mongodb://db.example:27017/openim_v3"
	m := testModel(nil, opts).(*Model)
	d := &driver{t: t, m: m}
	initCmd := m.Init()
	d.send(tea.WindowSizeMsg{Width: 100, Height: 30})
	view := m.View()
	if !strings.Contains(view, "connecting to mongodb://db.example:27017/openim_v3…") {
		t.Fatalf("the first frame does not say what it connects to:\n%s", view)
	}
	for _, k := range []string{"u", "j", "enter", "/", "R"} {
		d.send(keyMsg(k)) // would read the store: must wait
	}
	if m.input.Open() {
		t.Error("a key opened a prompt before the store answered")
	}
	close(release)
	d.run(initCmd)
	if view := m.View(); !strings.Contains(view, "hello 120 from bob") || strings.Contains(view, "connecting") {
		t.Errorf("the list did not replace the connecting screen:\n%s", view)
	}
}

// TestConnectFailureEndsTheProgram: a server that never answers ends the
// program with its error, which Run returns for main to print.
func TestConnectFailureEndsTheProgram(t *testing.T) {
	opts, _ := testOptions(t, "alice")
	boom := errors.New("open mongodb://db.example:27017/openim_v3: no server reachable within 5s")
	connect, release := slowServer(nil, boom)
	close(release)
	opts.Connect, opts.ConnectingTo = connect, "mongodb://db.example:27017/openim_v3"
	m := testModel(nil, opts).(*Model)
	msg := connectCmd(context.Background(), connect)()
	_, cmd := m.Update(msg)
	if cmd == nil {
		t.Fatal("a failed connection does not end the program")
	}
	if _, ok := cmd().(tea.QuitMsg); !ok || !errors.Is(m.conn.err, boom) {
		t.Errorf("want quit with the error, got err %v", m.conn.err)
	}
}

// TestGoldenConnecting: the screen while the server is slow.
func TestGoldenConnecting(t *testing.T) {
	opts, _ := testOptions(t, "alice")
	connect, release := slowServer(nil, errors.New("never"))
	t.Cleanup(func() { close(release) })
	opts.Connect, opts.ConnectingTo = connect, "mongodb://db.example:27017/openim_v3"
	tm := teatest.NewTestModel(t, testModel(nil, opts), teatest.WithInitialTermSize(100, 30))
	s := &screen{t: t, tm: tm}
	s.waitFor("connecting to mongodb://db.example:27017/openim_v3")
	s.check()
}
