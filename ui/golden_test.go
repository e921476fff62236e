package ui

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest"
	"github.com/muesli/termenv"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/ui/uitest"
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
	return startScreenWith(t, func(*store.Store) {})
}

// startScreenWith is startScreen with more stored after the small seed.
func startScreenWith(t *testing.T, setup func(st *store.Store)) *screen {
	t.Helper()
	return startScreenWithOptions(t, setup, func(*Options) {})
}

// startScreenWithOptions is startScreenWith with the options adjusted.
func startScreenWithOptions(t *testing.T, setup func(st *store.Store), adjust func(*Options)) *screen {
	t.Helper()
	return startScreenWithStore(t, func(st *store.Store) *store.Store { setup(st); return st }, adjust)
}

// startScreenWithStore is startScreenWithOptions on the store setup returns
// (one over the same backend with other options).
func startScreenWithStore(t *testing.T, setup func(st *store.Store) *store.Store, adjust func(*Options)) *screen {
	t.Helper()
	st, tb := newTestStore(t, false)
	seedSmall(t, st)
	st = setup(st)
	opts, _ := testOptions(t, "alice")
	adjust(&opts)
	tm := teatest.NewTestModel(t, testModel(st, opts), teatest.WithInitialTermSize(100, 30))
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
	final := s.tm.FinalModel(s.t, teatest.WithFinalTimeout(5*time.Second))
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
	s.keys("c") // a single chat: compared with bob at once
	s.waitFor("vs Bob", "difference 1 of 1")
	s.check()
}

// carolFrom20 stores that carol's window of the group starts at seq 20.
func carolFrom20(t *testing.T) func(*store.Store) {
	return func(st *store.Store) {
		insertRaw(t, st, bucket.CollSeqUser, bucket.SeqUser{UserID: "carol", ConversationID: chatT, MinSeq: 20})
	}
}

func (s *screen) compareTeamWithCarol() {
	s.keys("/")
	s.typeText(chatT)
	s.keys("enter", "enter")
	s.waitFor("team note 30")
	s.keys("c")
	s.waitFor("Compare alice with")
	s.typeText("carol")
	s.keys("enter")
	s.waitFor("vs Carol", "19 seqs differ") // the scan has ended
}

// TestGoldenCompareDiffOnly: only the rows alice and carol see
// differently, the seqs before carol's window as one row.
func TestGoldenCompareDiffOnly(t *testing.T) {
	s := startScreenWith(t, carolFrom20(t))
	s.compareTeamWithCarol()
	s.keys("D")
	s.waitFor("seqs 1–19 (19)")
	s.check()
}

// TestGoldenCompareInspector: the raw slot beside both projections and
// the rules behind them.
func TestGoldenCompareInspector(t *testing.T) {
	s := startScreen(t)
	s.open()
	s.jump("5")
	s.keys("c")
	s.waitFor("vs Bob", "difference 1 of 1")
	s.keys("i")
	s.waitFor("B as bob sees it", "read by Bob (read seq 118)", "found in n_alice_alice") // the readers and told read too
	s.check()
}

// TestGoldenCompareColour is taken with ANSI colours on: the ≠ marker and
// the reason column keep the diff highlight, on the selected row too.
func TestGoldenCompareColour(t *testing.T) {
	withProfile(t, termenv.ANSI256)
	s := startScreenWith(t, carolFrom20(t))
	s.compareTeamWithCarol()
	s.keys("[")
	s.waitFor("difference 1 of 1")
	s.check()
}

func TestGoldenInspector(t *testing.T) {
	s := startScreen(t)
	s.open()
	s.jump("7")
	s.keys("i")
	s.waitFor("Inspector", "no notification found", // bob's revoke was a storage-level write
		"read by Bob (read seq 118)", "(the slot's revoke record)") // the readers and the life read too
	s.check()
}

func TestGoldenHelp(t *testing.T) {
	s := startScreen(t)
	s.keys("?")
	s.waitFor("Keys")
	s.check()
}

// TestGoldenConfirm: alice asks to revoke bob's message in their single
// chat; OpenIM lets only the sender (revoke.go RevokeMsg), so the dialog
// says who may and why alice may not, with nothing to confirm.
func TestGoldenConfirm(t *testing.T) {
	s := startScreen(t)
	s.open()
	s.jump("10")
	s.keys("r")
	s.waitFor("Revoke refused")
	s.check()
}

// TestGoldenConfirmOwnMessage: alice's own message: who may revoke, that
// alice may, and with which role, before asking.
func TestGoldenConfirmOwnMessage(t *testing.T) {
	s := startScreen(t)
	s.open()
	s.jump("11")
	s.keys("r")
	s.waitFor("Revoke for everyone?")
	s.check()
}

// clearedBefore41 stores that alice cleared her history of the single
// chat up to seq 40 (seq_user.min_seq 41).
func clearedBefore41(t *testing.T) func(*store.Store) {
	return func(st *store.Store) {
		uitest.ClearedBefore41(t, st)
	}
}

// TestGoldenHistoryCleared: the timeline's first row says where alice's
// history starts; nothing before seq 41 is drawn (GetMsgBySeqsRange pulls
// from max(seq.min_seq, seq_user.min_seq)).
func TestGoldenHistoryCleared(t *testing.T) {
	s := startScreenWith(t, clearedBefore41(t))
	s.open()
	s.jump("41") // drawn in the same frame as the cursor
	s.check()
}

// TestGoldenInspectorCleared: the inspector says why the history starts there.
func TestGoldenInspectorCleared(t *testing.T) {
	s := startScreenWith(t, clearedBefore41(t))
	s.open()
	s.jump("41")
	s.keys("i")
	s.waitFor("Inspector", "seq_user.min_seq = 41", "read by Bob (read seq 118)") // the readers read too
	s.check()
}

func TestGoldenError(t *testing.T) {
	s := startScreen(t)
	s.tb.SetFail(errBoom)
	s.keys("/")
	s.typeText(chatAB)
	s.keys("enter", "enter")
	s.waitFor("could not load", "as Alice")
	s.check()
}

// TestGoldenHelpNarrow: at 60 columns the help stacks its columns two by
// two, every key still on it.
func TestGoldenHelpNarrow(t *testing.T) {
	st, _ := newTestStore(t, false)
	seedSmall(t, st)
	opts, _ := testOptions(t, "alice")
	tm := teatest.NewTestModel(t, testModel(st, opts), teatest.WithInitialTermSize(60, 30))
	s := &screen{t: t, tm: tm}
	s.waitFor("hello 120 from bob")
	s.keys("?")
	s.waitFor("Keys")
	s.check()
}

// TestGoldenMessageLog: a long load error, cut in the pane, whole in the log.
func TestGoldenMessageLog(t *testing.T) {
	s := startScreen(t)
	s.tb.SetFail(errLong)
	s.keys("/")
	s.typeText(chatAB)
	s.keys("enter", "enter")
	s.waitFor("could not load", "as Alice")
	s.keys("L")
	s.waitFor("Messages (1)")
	s.check()
}

// startScreenOpts is startScreen with the options changed by set.
func startScreenOpts(t *testing.T, set func(*Options)) *screen {
	t.Helper()
	st, tb := newTestStore(t, false)
	seedSmall(t, st)
	opts, _ := testOptions(t, "alice")
	set(&opts)
	tm := teatest.NewTestModel(t, testModel(st, opts), teatest.WithInitialTermSize(100, 30))
	s := &screen{t: t, tm: tm, tb: tb}
	s.waitFor("hello 120 from bob")
	return s
}

// TestGoldenNoColourFocus: without colour the focused timeline has a heavy
// border, the list a light one.
func TestGoldenNoColourFocus(t *testing.T) {
	s := startScreenOpts(t, func(o *Options) { o.Theme = "none" })
	s.open()
	s.check()
}

// TestGoldenColour: the timeline drawn with the dark theme's colours, so
// a lost highlight (selection, read line, deleted, revoked, focus) fails.
func TestGoldenColour(t *testing.T) {
	withProfile(t, termenv.ANSI256)
	s := startScreen(t)
	s.open()
	s.jump("5")
	s.check()
}

// TestGoldenInspectorSmall: the inspector at 40x12, border whole.
func TestGoldenInspectorSmall(t *testing.T) {
	st, _ := newTestStore(t, false)
	seedSmall(t, st)
	opts, _ := testOptions(t, "alice")
	tm := teatest.NewTestModel(t, testModel(st, opts), teatest.WithInitialTermSize(40, 12))
	s := &screen{t: t, tm: tm}
	s.waitFor("hello 120 from bob") // the list, before typing into its filter
	s.keys("/")
	s.typeText(chatAB)
	s.keys("enter", "enter")
	s.waitFor("as Alice")
	s.keys("i")
	s.waitFor("Inspector", "52 lines", "not read by Alice") // every line read in: the readers, told, the life
	s.check()
}

// TestGoldenFollow: follow mode on, said in the status bar and the footer.
func TestGoldenFollow(t *testing.T) {
	st, _ := newTestStore(t, false)
	seedSmall(t, st)
	opts, _ := testOptions(t, "alice")
	m := testModel(st, opts).(*Model)
	m.e.Tick = func(time.Duration, func(time.Time) tea.Msg) tea.Cmd { return nil } // one poll, no timer
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(100, 30))
	s := &screen{t: t, tm: tm}
	s.waitFor("hello 120 from bob")
	s.open()
	s.keys("F")
	s.waitFor("following (seq.max_seq)") // the first poll has answered
	s.check()
}

// TestGoldenHelpShort: at 60x20 the help was cut at both ends (its top
// border, title and close hint off the screen) and did not scroll; now its
// title and closing line stay and the keys between them scroll.
func TestGoldenHelpShort(t *testing.T) {
	st, _ := newTestStore(t, false)
	seedSmall(t, st)
	opts, _ := testOptions(t, "alice")
	tm := teatest.NewTestModel(t, testModel(st, opts), teatest.WithInitialTermSize(60, 20))
	s := &screen{t: t, tm: tm}
	s.waitFor("hello 120 from bob")
	s.keys("?")
	s.waitFor("Keys · lines 1–")
	s.keys("G")
	s.waitFor("find by msg ID")
	s.check()
}

// TestGoldenMessageLogAudit: L shows the operator's audit lines (another
// operator's are left out) beside the session's errors, newest first.
func TestGoldenMessageLogAudit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.log")
	lines := []store.AuditEntry{
		{Time: base, Operator: "ops", Action: store.ActionDelete, Conversation: chatAB, Seqs: []int64{5}, As: "alice", Result: store.ResultIntent},
		{Time: base, Operator: "ops", Action: store.ActionDelete, Conversation: chatAB, Seqs: []int64{5}, As: "alice", Result: store.ResultOK},
		{Time: base.Add(time.Minute), Operator: "someone", Action: store.ActionRead, Conversation: chatT, Seqs: []int64{1, 2}, As: "bob", Result: store.ResultOK},
		{Time: base.Add(2 * time.Minute), Operator: "ops", Action: store.ActionRevoke, Conversation: chatAB, Seqs: []int64{8}, As: "alice", Result: store.ResultRefused,
			Error: "revoke in si_alice_bob by alice refused, nothing written: seq 8: alice may not revoke: in a single chat only the sender (bob) may revoke"},
	}
	var file bytes.Buffer
	for _, e := range lines {
		b, _ := json.Marshal(e)
		file.Write(append(b, '\n'))
	}
	if err := os.WriteFile(path, file.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	s := startScreenWithStore(t, func(st *store.Store) *store.Store {
		log, f, err := store.OpenAuditLog(path)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		return store.New(st.Backend(), store.Options{Audit: log, Operator: "ops"})
	}, func(o *Options) { o.Operator = "ops" })
	s.keys("L")
	s.waitFor("audit log of ops: 3 lines")
	s.check()
}

// TestGoldenCompareOnlyBeyond: alice's window starts at 41 and bob sees
// 1-40: differences only counts those 40 and says they are the only ones.
func TestGoldenCompareOnlyBeyond(t *testing.T) {
	s := startScreenWith(t, clearedBefore41(t))
	s.open41()
	s.keys("c")
	s.waitFor("vs Bob", "40 seqs differ")
	s.keys("D")
	s.waitFor("the differences are the seqs noted above")
	s.check()
}

// open41 opens the single chat of a store where alice's history starts at 41.
func (s *screen) open41() {
	s.keys("/")
	s.typeText(chatAB)
	s.keys("enter", "enter")
	s.waitFor("as Alice", "Bob: hello 120 from bob")
}

// TestGoldenHoleRuns: the first screen of a conversation whose only
// messages are seqs 1 and 1001.
func TestGoldenHoleRuns(t *testing.T) {
	s := startScreenWith(t, func(st *store.Store) { uitest.SeedFarApart(t, st) })
	s.keys("/")
	s.typeText("si_alice_carol")
	s.keys("enter", "enter")
	s.waitFor("far message", "no message (99)", "seqs 101–1000: no message (900)")
	s.check()
}

// TestGoldenInspectorGap: the inspector of the row of buckets never written.
func TestGoldenInspectorGap(t *testing.T) {
	s := startScreenWith(t, func(st *store.Store) { uitest.SeedFarApart(t, st) })
	s.keys("/")
	s.typeText("si_alice_carol")
	s.keys("enter", "enter")
	s.waitFor("far message", "seqs 101–1000: no message (900)")
	s.keys("k", "i")
	s.waitFor("no such document in msg")
	s.check()
}
