package ui

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/keymap"
	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/testkit"
	"github.com/chatlens/chatlens/themes"
)

func TestMain(m *testing.M) {
	// Goldens are plain text: no colour, no attributes.
	lipgloss.SetColorProfile(termenv.Ascii)
	os.Exit(m.Run())
}

// testBackend wraps the embedded backend: a fixed name for goldens, a count
// of how often each bucket is read, and a switch to make reads fail.
type testBackend struct {
	store.Backend
	mu       sync.Mutex
	reads    map[string]int // any read of a bucket, whole or some slots
	whole    map[string]int // FindBuckets: the whole bucket
	slots    map[string]int // FindSlots: the slots each read asked for, summed
	failRead error
}

func newTestBackend(b store.Backend) *testBackend {
	return &testBackend{Backend: b, reads: map[string]int{}, whole: map[string]int{}, slots: map[string]int{}}
}

func (b *testBackend) Describe() string { return "embedded test.db" }

func (b *testBackend) FindBuckets(ctx context.Context, ids []string) ([]bson.Raw, error) {
	b.mu.Lock()
	fail := b.failRead
	for _, id := range ids {
		b.reads[id]++
		b.whole[id]++
	}
	b.mu.Unlock()
	if fail != nil {
		return nil, fail
	}
	return b.Backend.FindBuckets(ctx, ids)
}

// FindSlots counts a read of some slots of a bucket as a read of it.
func (b *testBackend) FindSlots(ctx context.Context, id string, first, n int) (bson.Raw, bool, error) {
	b.mu.Lock()
	fail := b.failRead
	b.reads[id]++
	b.slots[id] += n
	b.mu.Unlock()
	if fail != nil {
		return nil, false, fail
	}
	return b.Backend.FindSlots(ctx, id, first, n)
}

// FindSlotRanges counts each range as FindSlots counts its read.
func (b *testBackend) FindSlotRanges(ctx context.Context, ranges []store.SlotRange) ([]store.SlotRead, error) {
	b.mu.Lock()
	fail := b.failRead
	for _, r := range ranges {
		b.reads[r.DocID]++
		b.slots[r.DocID] += r.N
	}
	b.mu.Unlock()
	if fail != nil {
		return nil, fail
	}
	return b.Backend.FindSlotRanges(ctx, ranges)
}

func (b *testBackend) resetReads() map[string]int {
	b.mu.Lock()
	defer b.mu.Unlock()
	old := b.reads
	b.reads, b.whole, b.slots = map[string]int{}, map[string]int{}, map[string]int{}
	return old
}

// readKinds is what was read since the last reset: whole buckets and slots
// (how many each bucket was asked for), by doc id.
func (b *testBackend) readKinds() (whole, slots map[string]int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return maps.Clone(b.whole), maps.Clone(b.slots)
}

func (b *testBackend) setFail(err error) {
	b.mu.Lock()
	b.failRead = err
	b.mu.Unlock()
}

func newTestStore(t testing.TB, readOnly bool) (*store.Store, *testBackend) {
	t.Helper()
	tb := newTestBackend(testkit.TempBackend(t))
	st := store.New(tb, store.Options{})
	t.Cleanup(func() { _ = st.Close(context.Background()) })
	if err := tb.EnsureIndexes(context.Background()); err != nil {
		t.Fatal(err)
	}
	if readOnly {
		return store.New(tb, store.Options{ReadOnly: true}), tb
	}
	return st, tb
}

var base = time.Date(2024, 5, 1, 9, 0, 0, 0, time.UTC)

// testNow is the clock of every UI test: the year of base, so rows show no
// year unless a test moves the clock.
var testNow = time.Date(2024, 6, 1, 12, 0, 0, 0, time.UTC)

func textMsg(from, to, group string, session int32, i int, text string) *bucket.MsgData {
	return &bucket.MsgData{SendID: from, RecvID: to, GroupID: group, SenderNickname: strings.ToUpper(from[:1]) + from[1:],
		ClientMsgID: fmt.Sprintf("c%d", i), ServerMsgID: fmt.Sprintf("s%d", i), SessionType: session,
		MsgFrom: bucket.MsgFromUser, ContentType: 101, Content: textContent(text),
		SendTime: base.Add(time.Duration(i) * time.Minute).UnixMilli(), Status: bucket.StatusSent,
		Options: map[string]bool{}, AtUserIDList: []string{}}
}

// textContent is the JSON content of a text message (json.Marshal, not %q:
// Go's quoting writes \x1b, which is not JSON).
func textContent(text string) string {
	b, err := json.Marshal(map[string]string{"content": text})
	if err != nil {
		panic(err)
	}
	return string(b)
}

func insertRaw(t testing.TB, st *store.Store, coll string, docs ...any) {
	t.Helper()
	testkit.Insert(t, st.Backend(), coll, docs...)
}

const (
	chatAB = "si_alice_bob"
	chatT  = "sg_team"
)

// seedSmall writes a single chat of alice and bob (120 seqs over two
// buckets: seq 5 deleted for alice, seq 7 revoked by bob, 106-109 holes,
// seq 115 malformed) and a group "Team" of three.
func seedSmall(t testing.TB, st *store.Store) {
	t.Helper()
	ctx := context.Background()
	var ab []*bucket.MsgData
	for i := 1; i <= 120; i++ {
		from, to := "alice", "bob"
		if i%2 == 0 {
			from, to = "bob", "alice"
		}
		ab = append(ab, textMsg(from, to, "", bucket.SessionSingle, i, fmt.Sprintf("hello %d from %s", i, from)))
	}
	must := func(_ store.WriteResult, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(st.InsertMessages(ctx, chatAB, 1, ab[:105]))
	must(st.InsertMessages(ctx, chatAB, 110, ab[109:]))
	must(st.DeleteForMe(ctx, chatAB, []int64{5}, "alice"))
	must(st.Revoke(ctx, chatAB, []int64{7}, bucket.Revoke{UserID: "bob", Nickname: "Bob", Time: base.UnixMilli()}))
	bad := textMsg("bob", "alice", "", bucket.SessionSingle, 115, "bad")
	bad.Seq = 999
	if _, err := st.Backend().SetSlotField(ctx, bucket.DocIDForSeq(chatAB, 115), bucket.SlotIndex(115), "msg", bad); err != nil {
		t.Fatal(err)
	}
	var team []*bucket.MsgData
	for i := 1; i <= 30; i++ {
		from := []string{"alice", "bob", "carol"}[i%3]
		team = append(team, textMsg(from, "", "team", bucket.SessionGroup, i, fmt.Sprintf("team note %d", i)))
	}
	must(st.InsertMessages(ctx, chatT, 1, team))
	insertRaw(t, st, bucket.CollUser,
		bucket.User{UserID: "alice", Nickname: "Alice"}, bucket.User{UserID: "bob", Nickname: "Bob"},
		bucket.User{UserID: "carol", Nickname: "Carol"})
	insertRaw(t, st, bucket.CollGroup, bucket.Group{GroupID: "team", GroupName: "Team"})
	insertRaw(t, st, bucket.CollGroupMember,
		bucket.GroupMember{GroupID: "team", UserID: "alice", Nickname: "Alice", RoleLevel: bucket.RoleOwner},
		bucket.GroupMember{GroupID: "team", UserID: "bob", Nickname: "Bob", RoleLevel: bucket.RoleMember},
		bucket.GroupMember{GroupID: "team", UserID: "carol", Nickname: "Carol", RoleLevel: bucket.RoleAdmin})
	insertRaw(t, st, bucket.CollConversation,
		bucket.Conversation{OwnerUserID: "alice", ConversationID: chatAB, ConversationType: 1, UserID: "bob"},
		bucket.Conversation{OwnerUserID: "bob", ConversationID: chatAB, ConversationType: 1, UserID: "alice"},
		// Pinned: first in alice's list, above the newer single chat.
		bucket.Conversation{OwnerUserID: "alice", ConversationID: chatT, ConversationType: 3, GroupID: "team", IsPinned: true},
		bucket.Conversation{OwnerUserID: "bob", ConversationID: chatT, ConversationType: 3, GroupID: "team"},
		bucket.Conversation{OwnerUserID: "carol", ConversationID: chatT, ConversationType: 3, GroupID: "team"})
	insertRaw(t, st, bucket.CollSeqUser,
		bucket.SeqUser{UserID: "alice", ConversationID: chatAB, ReadSeq: 100},
		bucket.SeqUser{UserID: "bob", ConversationID: chatAB, ReadSeq: 118},
		bucket.SeqUser{UserID: "alice", ConversationID: chatT, ReadSeq: 30})
}

// testOptions are the options every test uses: UTC times, no user key file,
// the clipboard captured.
func testOptions(t testing.TB, as string) (Options, *strings.Builder) {
	t.Helper()
	keys := filepath.Join(t.TempDir(), "keys.json")
	if err := os.WriteFile(keys, []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	clip := &strings.Builder{}
	t.Setenv("TMUX", "") // y goes to the captured clipboard, not to a tmux around the tests
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

func keyMsg(k string) tea.KeyMsg {
	switch k {
	case "enter":
		return tea.KeyMsg{Type: tea.KeyEnter}
	case "esc":
		return tea.KeyMsg{Type: tea.KeyEsc}
	case "tab":
		return tea.KeyMsg{Type: tea.KeyTab}
	case "up":
		return tea.KeyMsg{Type: tea.KeyUp}
	case "down":
		return tea.KeyMsg{Type: tea.KeyDown}
	case "pgup":
		return tea.KeyMsg{Type: tea.KeyPgUp}
	case "pgdown":
		return tea.KeyMsg{Type: tea.KeyPgDown}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)}
}

// open filters the list down to cid and opens it.
func (d *driver) open(cid string) {
	d.keys("/")
	d.typeText(cid)
	d.keys("enter", "enter")
	if d.m.tl == nil || d.m.tl.cid != cid {
		d.t.Fatalf("%s did not open; screen:\n%s", cid, d.m.View())
	}
}

// jump moves the timeline cursor to seq with the : prompt.
func (d *driver) jump(seq int64) {
	d.keys(":")
	d.typeText(strconv.FormatInt(seq, 10))
	d.keys("enter")
	if d.m.tl.cursor != seq {
		d.t.Fatalf("cursor at %d after jumping to %d", d.m.tl.cursor, seq)
	}
}

var rowRE = regexp.MustCompile(`(\d+) (?:(?:\d{4}-)?\d\d-\d\d \d\d:\d\d| {16}| {11}) `)

// rowOf returns the drawn timeline line of seq, "" when it is not on screen.
func rowOf(view string, seq int64) string {
	for _, line := range strings.Split(view, "\n") {
		if m := rowRE.FindStringSubmatch(line); m != nil && m[1] == strconv.FormatInt(seq, 10) {
			return line
		}
	}
	return ""
}

// seqsOnScreen lists the seqs of the drawn timeline rows, top to bottom.
func seqsOnScreen(view string) []int64 {
	var out []int64
	for _, line := range strings.Split(view, "\n") {
		if m := rowRE.FindStringSubmatch(line); m != nil {
			n, _ := strconv.ParseInt(m[1], 10, 64)
			out = append(out, n)
		}
	}
	return out
}

var errBoom = errors.New("connection refused")

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
