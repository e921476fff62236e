package ui

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/testkit"
	"github.com/chatlens/chatlens/ui/uitest"
)

// deployments are the contexts of the switch tests, each an embedded
// store of its own under t.TempDir(): a (writable, the small seed), b
// (read-only, the small seed), other (no alice in it: dave and erin) and
// down, whose server never answers.
type deployments struct {
	stores   map[string]*store.Store
	mu       sync.Mutex
	opened   []string
	released []*store.Store
}

var errDown = errors.New("open mongodb://down.example:27017/openim_v3: no server reachable within 10s")

func newDeployments(t *testing.T) *deployments {
	t.Helper()
	d := &deployments{stores: map[string]*store.Store{}}
	open := func(name string, readOnly bool) *store.Store {
		tb := uitest.NewBackend(testkit.TempBackend(t))
		if err := tb.EnsureIndexes(context.Background()); err != nil {
			t.Fatal(err)
		}
		st := store.New(tb, store.Options{Context: name})
		if readOnly {
			st = store.New(tb, store.Options{Context: name, ReadOnly: true})
		}
		d.stores[name] = st
		return store.New(tb, store.Options{Context: name}) // a writable one over it, to fill it
	}
	seedSmall(t, open("a", false))
	seedSmall(t, open("b", true))
	other := open("other", false)
	var msgs []*bucket.MsgData
	for i := 1; i <= 3; i++ {
		msgs = append(msgs, textMsg("dave", "erin", "", bucket.SessionSingle, i, "hi erin"))
	}
	if _, err := other.InsertMessages(context.Background(), "si_dave_erin", 1, msgs); err != nil {
		t.Fatal(err)
	}
	insertRaw(t, other, bucket.CollUser, bucket.User{UserID: "dave", Nickname: "Dave"}, bucket.User{UserID: "erin", Nickname: "Erin"})
	insertRaw(t, other, bucket.CollConversation,
		bucket.Conversation{OwnerUserID: "dave", ConversationID: "si_dave_erin", ConversationType: 1, UserID: "erin"})
	return d
}

// options start the UI on context a as alice, X offering all four.
func (d *deployments) options(t *testing.T) Options {
	opts, _ := testOptions(t, "alice")
	opts.Contexts = []ContextChoice{{Name: "a", About: "data=/srv/a.db"}, {Name: "b", About: "data=/srv/b.db read-only=true"},
		{Name: "down", About: "mongo-uri=mongodb://down.example:27017"}, {Name: "other", About: "data=/srv/other.db"}}
	opts.ConfigPath = "/home/op/.config/chatlens/config.yaml"
	opts.Switch = func(_ context.Context, name string) (Switched, error) {
		d.mu.Lock()
		defer d.mu.Unlock()
		d.opened = append(d.opened, name)
		if name == "down" {
			return Switched{}, errDown
		}
		return Switched{Store: d.stores[name]}, nil
	}
	opts.Release = func(st *store.Store) {
		d.mu.Lock()
		defer d.mu.Unlock()
		d.released = append(d.released, st)
	}
	return opts
}

func (d *deployments) driver(t *testing.T) *driver {
	return newDriver(t, d.stores["a"], d.options(t), 120, 30)
}

func (d *deployments) releasedNames() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	var out []string
	for _, st := range d.released {
		out = append(out, st.Context())
	}
	return out
}

// switchTo types :context NAME (the list's prompt comes with "context "
// typed).
func (dr *driver) switchTo(name string) {
	dr.keys(":")
	if dr.m.input.Value() == "" {
		dr.typeText("context ")
	}
	dr.typeText(name)
	dr.keys("enter")
}

// :context b switches deployment in place: the status bar names b and
// its read-only state, the list is b's for the same viewer, and a is let
// go only after b answered.
func TestContextSwitchFromThePrompt(t *testing.T) {
	deps := newDeployments(t)
	d := deps.driver(t)
	d.open(chatAB)
	d.keys("esc")
	d.switchTo("b")
	view := d.m.View()
	if d.m.e.Store != deps.stores["b"] {
		t.Fatalf("the store is still %q:\n%s", d.m.e.Store.Context(), view)
	}
	if !strings.Contains(view, "context b │ as alice │ read-only") {
		t.Errorf("the status bar does not name context b, alice and read-only:\n%s", view)
	}
	if !strings.Contains(d.m.status, "switched to context b: viewing as alice") {
		t.Errorf("status %q", d.m.status)
	}
	if d.m.tl != nil || !strings.Contains(view, "hello 120 from bob") {
		t.Errorf("b's list of alice is not what shows:\n%s", view)
	}
	if got := deps.releasedNames(); !slices.Equal(got, []string{"a"}) {
		t.Errorf("released %v, want a once", got)
	}
}

// tab completes a context's name at the timeline's : prompt.
func TestContextNameCompletes(t *testing.T) {
	deps := newDeployments(t)
	d := deps.driver(t)
	d.open(chatAB)
	d.keys(":")
	d.typeText("context o")
	d.keys("tab")
	if v := d.m.input.Value(); v != "context other" {
		t.Fatalf("tab made %q of \"context o\", want \"context other\"", v)
	}
	d.keys("enter")
	if d.m.e.Store != deps.stores["other"] {
		t.Fatalf("enter did not switch to other: %q", d.m.status)
	}
}

// tab completes after :ctx as after :context, and each tab after it
// offers the next context that starts with what was typed, round to the
// first.
func TestContextNameCompletesAfterCtxAndTabGoesOn(t *testing.T) {
	deps := newDeployments(t)
	d := deps.driver(t)
	d.open(chatAB)
	d.keys(":")
	d.typeText("ctx o")
	d.keys("tab")
	if v := d.m.input.Value(); v != "ctx other" {
		t.Fatalf("tab made %q of \"ctx o\", want \"ctx other\"", v)
	}
	d.keys("ctrl+u")
	d.typeText("context ")
	var offered []string
	for range 5 {
		d.keys("tab")
		offered = append(offered, d.m.input.Value())
	}
	want := []string{"context a", "context b", "context down", "context other", "context a"}
	if !slices.Equal(offered, want) {
		t.Fatalf("tab after tab offered %q; want %q", offered, want)
	}
}

// A switch that fails is one line, and the UI stays on the old
// deployment, usable: a server that does not answer, a name the config
// file does not have.
func TestContextSwitchFailureKeepsTheOldStore(t *testing.T) {
	deps := newDeployments(t)
	d := deps.driver(t)
	d.switchTo("down")
	if d.m.e.Store != deps.stores["a"] {
		t.Fatal("a failed switch left context a")
	}
	if want := "context down: " + errDown.Error() + " (still on context a)"; d.m.status != want || !d.m.statusErr {
		t.Errorf("status %q, want the error %q", d.m.status, want)
	}
	d.switchTo("bb")
	if d.m.status != "no context bb (did you mean b?)" {
		t.Errorf("status %q", d.m.status)
	}
	if got := deps.releasedNames(); len(got) != 0 {
		t.Errorf("a failed switch let go of %v", got)
	}
	d.open(chatAB) // still usable
	d.jump(100)
}

// Read-only follows the context: b refuses writes after the switch, and
// a writable context switched back to allows them again.
func TestContextSwitchReadOnlyFollows(t *testing.T) {
	deps := newDeployments(t)
	d := deps.driver(t)
	d.switchTo("b")
	d.open(chatAB)
	d.jump(100)
	d.keys("r")
	if d.m.overlay == ovConfirm || !strings.Contains(d.m.status, "read-only") {
		t.Fatalf("r on read-only context b: overlay %v, status %q", d.m.overlay, d.m.status)
	}
	d.keys("esc")
	d.switchTo("a")
	d.open(chatAB)
	d.jump(101)
	d.keys("d")
	if d.m.overlay != ovConfirm {
		t.Fatalf("d on writable context a asks nothing; status %q", d.m.status)
	}
	if view := d.m.View(); strings.Contains(view, "read-only") {
		t.Errorf("context a shows read-only:\n%s", view)
	}
}

// The viewer is kept only where that user exists: in other, which has
// no alice, the list finds whom to view as, as at a start without --as.
func TestContextSwitchFindsAViewerWhereTheOldOneIsNone(t *testing.T) {
	deps := newDeployments(t)
	d := deps.driver(t)
	d.switchTo("other")
	if got := d.m.list.Owner(); got != "dave" {
		t.Fatalf("the list is %q's, want dave's; status %q", got, d.m.status)
	}
	if !strings.Contains(d.m.status, "alice is no user of context other: viewing as dave") {
		t.Errorf("status %q", d.m.status)
	}
}

// Without a config file, or with one context, X says there is no other.
func TestContextKeyWithNoOther(t *testing.T) {
	st, _ := newTestStore(t, false)
	seedSmall(t, st)
	opts, _ := testOptions(t, "alice")
	opts.ConfigPath = "/home/op/.config/chatlens/config.yaml"
	d := newDriver(t, st, opts, 120, 30)
	d.keys("X")
	if d.m.overlay != ovNone || d.m.status != "no other context (config: /home/op/.config/chatlens/config.yaml)" {
		t.Errorf("X with no contexts: overlay %v, status %q", d.m.overlay, d.m.status)
	}
	d.keys(":")
	if d.m.input.Open() || !strings.HasPrefix(d.m.status, "no other context (config: ") || !strings.Contains(d.m.status, "jumps to a seq or date in an open conversation") {
		t.Errorf(": in the list with no contexts: input open %v, status %q", d.m.input.Open(), d.m.status)
	}
}

// A transcript written after a switch names the new context in its header.
func TestContextTranscriptNamesTheNewContext(t *testing.T) {
	deps := newDeployments(t)
	opts := deps.options(t)
	opts.TranscriptDir = t.TempDir()
	d := newDriver(t, deps.stores["a"], opts, 120, 30)
	d.switchTo("other")
	d.open("si_dave_erin")
	d.keys("T")
	d.keys("enter")
	files, _ := filepath.Glob(filepath.Join(opts.TranscriptDir, "*.md"))
	if len(files) != 1 {
		t.Fatalf("transcripts %v; status %q", files, d.m.status)
	}
	md, _ := os.ReadFile(files[0])
	if !strings.Contains(string(md), "| Context | other |") {
		t.Errorf("the transcript does not name context other:\n%s", md)
	}
}

// TestGoldenContextPicker: X offers the contexts, the one in use marked.
func TestGoldenContextPicker(t *testing.T) {
	deps := newDeployments(t)
	tm := teatest.NewTestModel(t, testModel(deps.stores["a"], deps.options(t)), teatest.WithInitialTermSize(100, 30))
	s := &screen{t: t, tm: tm}
	s.waitFor("hello 120 from bob")
	s.keys("X")
	s.waitFor("Switch context")
	s.check()
}

// TestGoldenContextSwitched: the screen after X, ↓, enter: b's list, the
// status bar naming context b and read-only.
func TestGoldenContextSwitched(t *testing.T) {
	deps := newDeployments(t)
	tm := teatest.NewTestModel(t, testModel(deps.stores["a"], deps.options(t)), teatest.WithInitialTermSize(100, 30))
	s := &screen{t: t, tm: tm}
	s.waitFor("hello 120 from bob")
	s.keys("X")
	s.waitFor("Switch context")
	s.keys("enter") // b, the first other than a
	// b's list read: the round trips of its load (8: the chats, then the notification section) are on the bar.
	s.waitFor("switched to context b", "context b │ as alice │ read-only │ 8 round trips")
	s.check()
}

// Until the new store answers, the old one stays on screen, usable and
// held; the bar says a switch is under way.
func TestContextSwitchWaitsForTheNewStore(t *testing.T) {
	deps := newDeployments(t)
	d := deps.driver(t)
	d.keys(":")
	d.typeText("b")
	held := d.runHolding(d.sendOnly(keyMsg("enter")), func(msg tea.Msg) bool {
		_, ok := msg.(switchedMsg)
		return ok
	})
	if len(held) != 1 {
		t.Fatalf("held %d replies, want the switch's", len(held))
	}
	view := d.m.View()
	if !strings.Contains(view, "switching to b… │ context a │ as alice") || len(deps.releasedNames()) != 0 {
		t.Errorf("while b opens: released %v; screen:\n%s", deps.releasedNames(), view)
	}
	d.open(chatAB) // a still answers
	d.jump(101)
	d.keys("d", "y") // but writes nothing to a store about to be left
	if !strings.Contains(d.m.status, "nothing written") || len(d.m.writes) != 0 {
		t.Errorf("a delete confirmed while switching: status %q", d.m.status)
	}
	d.send(held[0])
	if d.m.e.Store != deps.stores["b"] || !slices.Equal(deps.releasedNames(), []string{"a"}) {
		t.Errorf("after b answered: on %q, released %v", d.m.e.Store.Context(), deps.releasedNames())
	}
}
