package ui

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/chatlens/chatlens/keymap"
	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/themes"

	"github.com/chatlens/chatlens/ui/uitest"
)

func TestMain(m *testing.M) {
	// Goldens are plain text: no colour, no attributes.
	lipgloss.SetColorProfile(termenv.Ascii)
	// y goes to the captured clipboard, not to a tmux around the tests
	// (the clipboard tests set their own TMUX, and run alone).
	os.Setenv("TMUX", "")
	os.Exit(m.Run())
}

// The fixtures the UI's tests share (uitest), by the names these tests
// use.
type testBackend = uitest.Backend

var (
	newTestStore          = uitest.NewStore
	newTestBackend        = uitest.NewBackend
	seedSmall             = uitest.SeedSmall
	seedFar               = uitest.SeedFar
	seedNotices           = uitest.SeedNotices
	seedMany              = uitest.SeedMany
	writeLongConversation = uitest.WriteLongConversation
	textMsg               = uitest.TextMsg
	insertRaw             = uitest.Insert
	keyMsg                = uitest.KeyMsg
	rowOf                 = uitest.RowOf
	seqsOnScreen          = uitest.SeqsOnScreen
	base, testNow         = uitest.Base, uitest.Now
	errBoom               = uitest.ErrBoom
	raceDetector          = uitest.RaceDetector
	wantSafeScreen        = uitest.WantSafeScreen
	readOnlyFile          = uitest.ReadOnlyFile
)

const (
	chatFar = uitest.ChatFar
	farSeq  = uitest.FarSeq
	chatAB  = uitest.ChatAB
	chatT   = uitest.ChatT
	chatQ   = uitest.ChatQ
)

// testOptions are the options every test uses: UTC times, no user key file,
// the clipboard captured.
func testOptions(t testing.TB, as string) (Options, *strings.Builder) {
	t.Helper()
	keys := filepath.Join(t.TempDir(), "keys.json")
	if err := os.WriteFile(keys, []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	clip := &strings.Builder{}
	return Options{As: as, Theme: "dark", TimeZone: time.UTC, Now: func() time.Time { return testNow },
		KeymapFile: keys, Clipboard: clip}, clip
}

// driver runs a model synchronously: every command is executed and its
// message fed back until nothing is left, so a test sees the settled screen.
type driver struct {
	t testing.TB
	m *Model
}

func newDriver(t testing.TB, st *store.Store, opts Options, w, h int) *driver {
	d := &driver{t: t, m: testModel(st, opts).(*Model)}
	d.run(d.m.Init())
	d.send(tea.WindowSizeMsg{Width: w, Height: h})
	return d
}

func (d *driver) run(cmd tea.Cmd) { d.runHolding(cmd, func(tea.Msg) bool { return false }) }

// runHolding settles cmd like run, but keeps back every reply hold picks,
// so a test can deliver it late, after the user has moved on.
func (d *driver) runHolding(cmd tea.Cmd, hold func(tea.Msg) bool) []tea.Msg {
	var held []tea.Msg
	queue := []tea.Cmd{cmd}
	for steps := 0; len(queue) > 0; steps++ {
		if steps > 100000 {
			d.t.Fatal("commands never settle")
		}
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		switch msg := c().(type) {
		case nil, tea.QuitMsg:
		case tea.BatchMsg:
			queue = append(queue, msg...)
		default:
			if hold(msg) {
				held = append(held, msg)
				continue
			}
			_, next := d.m.Update(msg)
			queue = append(queue, next)
		}
	}
	return held
}

// send delivers msg and settles; sendOnly delivers it and returns the command
// unrun, to look at the screen before any I/O happens.
func (d *driver) send(msg tea.Msg) { d.run(d.sendOnly(msg)) }

func (d *driver) sendOnly(msg tea.Msg) tea.Cmd {
	_, cmd := d.m.Update(msg)
	return cmd
}

func (d *driver) keys(ks ...string) {
	for _, k := range ks {
		d.send(keyMsg(k))
	}
}

func (d *driver) typeText(s string) {
	for _, r := range s {
		d.send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
	}
}

// open filters the list down to cid and opens it.
func (d *driver) open(cid string) {
	d.keys("/")
	d.typeText(cid)
	d.keys("enter", "enter")
	if d.m.tl == nil || d.m.tl.ID() != cid {
		d.t.Fatalf("%s did not open; screen:\n%s", cid, d.m.View())
	}
}

// jump moves the timeline cursor to seq with the : prompt.
func (d *driver) jump(seq int64) {
	d.keys(":")
	d.typeText(strconv.FormatInt(seq, 10))
	d.keys("enter")
	if d.m.tl.Cursor() != seq {
		d.t.Fatalf("cursor at %d after jumping to %d", d.m.tl.Cursor(), seq)
	}
}

// readMembers has the timeline read the conversation's members (the
// viewer picker, opened and closed), as V needs them.
func (d *driver) readMembers() {
	d.keys("v")
	d.keys("esc")
	if !d.m.tl.MembersKnown() {
		d.t.Fatalf("the members are not read after the picker")
	}
}

// testModel builds the root model without starting a program (teatest),
// as Run does. The
// theme is opts.Theme or dark; the terminal is not queried. A key map file
// that cannot be read is reported in the status bar and the defaults used.
func testModel(st *store.Store, opts Options) tea.Model {
	theme, terr := themes.Resolve(opts.Theme, func() bool { return true })
	if terr != nil {
		theme, _ = themes.Get("dark")
	}
	keys, kerr := keymap.Load(opts.KeymapFile)
	m := newModel(context.Background(), st, opts, theme, keys)
	if err := errors.Join(terr, kerr); err != nil {
		m.setStatus(err.Error(), true)
	}
	return m
}
