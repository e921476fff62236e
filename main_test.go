package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/demo"
	"github.com/chatlens/chatlens/store/embedded"
	"github.com/chatlens/chatlens/store/mongotest"
	"github.com/chatlens/chatlens/store/testkit"
)

// The tests run the real commands in-process against embedded stores in
// temporary directories. One small demo store is seeded once (through the
// seed command) and copied for every test that needs data.

var template string // path of the seeded store

// small is the demo the tests use: every feature, a few buckets per chat.
var small = []string{"--conversations", "4", "--messages", "120", "--long", "250", "--seed", "3"}

// TestMain runs the tests, or chatlens itself when a test script starts
// the test binary under that name (testscript's way of putting the command
// on the scripts' PATH).
func TestMain(m *testing.M) {
	testscript.Main(withTemplate{m}, map[string]func(){
		"chatlens": func() { os.Exit(run(os.Args[1:], osProcess())) },
	})
}

// withTemplate runs the tests around the seeded template store.
type withTemplate struct{ m *testing.M }

func (w withTemplate) Run() int {
	dir, err := os.MkdirTemp("", "chatlens-main-test")
	if err != nil {
		panic(err)
	}
	for _, k := range []string{"CHATLENS_MONGO_URI", "CHATLENS_REDIS", "CHATLENS_DATA", "CHATLENS_CONTEXT",
		"CHATLENS_OPENIM_API", "CHATLENS_OPENIM_SECRET"} {
		os.Unsetenv(k)
	}
	// Nothing a test does may touch the real user directories, nor read
	// the user's config (a current-context would point the tests at it).
	os.Setenv("XDG_DATA_HOME", filepath.Join(dir, "xdg-data"))
	os.Setenv("XDG_STATE_HOME", filepath.Join(dir, "xdg-state"))
	os.Setenv("XDG_CONFIG_HOME", filepath.Join(dir, "xdg-config"))
	moreParallel()
	template = filepath.Join(dir, "template.db")
	var out, errs bytes.Buffer
	args := append([]string{"seed", "--data", template, "--audit-log", filepath.Join(dir, "audit.log")}, small...)
	if code := runArgs(args, &out, &errs); code != 0 {
		fmt.Fprintf(os.Stderr, "seeding the test store failed (%d): %s", code, errs.String())
		return 1
	}
	code := w.m.Run()
	removeBuiltBinary()
	os.RemoveAll(dir)
	return code
}

// moreParallel runs twice as many tests at once as go test's default, one
// per CPU, unless -test.parallel is given: many of these wait on a
// process, a terminal or a server, not on the CPU, and one per CPU left
// the CPUs idle. Not under the race detector, whose tests do use the CPU.
func moreParallel() {
	flag.Parse()
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.parallel" })
	if !given && !raceBuild {
		_ = flag.Set("test.parallel", strconv.Itoa(2*runtime.GOMAXPROCS(0)))
	}
}

// sandbox is one test's store file and audit log.
type sandbox struct{ data, audit string }

// seeded copies the template store into a fresh sandbox.
func seeded(t *testing.T) sandbox {
	t.Helper()
	s := empty(t)
	b, err := os.ReadFile(template)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(s.data, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return s
}

func empty(t *testing.T) sandbox {
	dir := t.TempDir()
	return sandbox{data: filepath.Join(dir, "chatlens.db"), audit: filepath.Join(dir, "audit.log")}
}

// fresh is a sandbox at the default store path of a new user directory:
// the only place a first run seeds the demo.
func fresh(t *testing.T) sandbox {
	dir := t.TempDir()
	t.Setenv("XDG_DATA_HOME", filepath.Join(dir, "data"))
	return sandbox{data: defaultDataPath(), audit: filepath.Join(dir, "audit.log")}
}

// testProcess runs with the given streams, and a first run seeds a small
// demo instead of the full one.
func testProcess(stdin io.Reader, stdout, stderr io.Writer) process {
	p := osProcess()
	p.stdin, p.stdout, p.stderr = stdin, stdout, stderr
	p.firstRunDemo = demo.Options{Seed: 5, Conversations: 2, Messages: 60, LongMessages: -1}
	return p
}

// runArgs runs chatlens with args and an empty stdin.
func runArgs(args []string, stdout, stderr io.Writer) int {
	return run(args, testProcess(strings.NewReader(""), stdout, stderr))
}

type result struct {
	code           int
	stdout, stderr string
}

// chatlens runs a command with the sandbox's connection flags after the
// subcommand name.
func (s sandbox) chatlens(t *testing.T, args ...string) result {
	t.Helper()
	return s.chatlensIn(t, "", args...)
}

// chatlensIn is chatlens with stdin reading the text given.
func (s sandbox) chatlensIn(t *testing.T, stdin string, args ...string) result {
	t.Helper()
	full := append([]string{}, args[:1]...)
	full = append(full, "--data", s.data, "--audit-log", s.audit)
	full = append(full, args[1:]...)
	var out, errs bytes.Buffer
	code := run(full, testProcess(strings.NewReader(stdin), &out, &errs))
	return result{code, out.String(), errs.String()}
}

// mustRunIn is mustRun with stdin reading the text given.
func (s sandbox) mustRunIn(t *testing.T, stdin string, args ...string) string {
	t.Helper()
	r := s.chatlensIn(t, stdin, args...)
	if r.code != 0 {
		t.Fatalf("chatlens %s: exit %d: %s", strings.Join(args, " "), r.code, r.stderr)
	}
	return r.stdout
}

// mustRun fails the test unless the command exits 0.
func (s sandbox) mustRun(t *testing.T, args ...string) string {
	t.Helper()
	r := s.chatlens(t, args...)
	if r.code != 0 {
		t.Fatalf("chatlens %s: exit %d: %s", strings.Join(args, " "), r.code, r.stderr)
	}
	return r.stdout
}

func oneErrorLine(t *testing.T, stderr string) {
	t.Helper()
	if strings.Count(stderr, "\n") != 1 || !strings.HasPrefix(stderr, "chatlens: ") {
		t.Errorf("stderr should be one line starting with \"chatlens: \", got %q", stderr)
	}
}

// dumpJSON runs dump --format json and decodes one object per line.
func (s sandbox) dumpJSON(t *testing.T, cid, as string, extra ...string) []map[string]any {
	t.Helper()
	out := s.mustRun(t, append([]string{"dump", "--conversation", cid, "--as", as, "--format", "json"}, extra...)...)
	var objs []map[string]any
	dec := json.NewDecoder(strings.NewReader(out))
	for dec.More() {
		var o map[string]any
		if err := dec.Decode(&o); err != nil {
			t.Fatalf("dump output is not JSON lines: %v", err)
		}
		objs = append(objs, o)
	}
	return objs
}

// stored opens the sandbox's store read-only, to compare output with documents.
func (s sandbox) stored(t *testing.T) *store.Store {
	t.Helper()
	return store.New(testkit.Open(t, s.data, embedded.Options{ReadOnly: true}), store.Options{})
}

// slotsOf reads every stored slot of cid by seq.
func slotsOf(t *testing.T, st *store.Store, cid string, maxSeq int64) map[int64]bucket.StoredSlot {
	t.Helper()
	bs, err := st.Buckets(context.Background(), cid, bucket.BucketsCovering(1, maxSeq), maxSeq)
	if err != nil {
		t.Fatal(err)
	}
	out := map[int64]bucket.StoredSlot{}
	for _, b := range bs {
		for _, s := range b.Slots {
			out[s.Seq] = s
		}
	}
	return out
}

// standIn reports o to be OpenIM's stand-in for a hole as its pull encodes
// one (shared/openim-recorded/pull_u3.json, sg_g1 seq 150): every MsgData
// field zero, empty or null, content null, but seq, status and sendTime.
func standIn(o map[string]any) bool {
	for k, v := range o {
		switch k {
		case "seq", "status", "sendTime", "docID", "index":
		default:
			if v != nil && v != "" && v != false && v != float64(0) {
				return false
			}
		}
	}
	c, ok := o["content"]
	return ok && c == nil
}

func num(v any) int64 { f, _ := v.(float64); return int64(f) }

// openIMHoleTimes is, for one pull of from..to, the send time OpenIM puts
// on the stand-in of each hole (mgo/msg.go FindSeqs): holes newest first;
// an answer is reused for a lower hole at or above the message it names;
// otherwise findBeforeSendTime looks in the hole's bucket, its first
// seq%100 slots (none for a seq ending a bucket), then each bucket below,
// whole, for the last message with a send time; none found ends the search.
func openIMHoleTimes(slots map[int64]bucket.StoredSlot, from, to int64) map[int64]int64 {
	findBefore := func(seq int64) (int64, int64) {
		for i := bucket.BucketIndex(seq); i >= 0; i-- {
			n := int64(bucket.BucketSize)
			if i == bucket.BucketIndex(seq) {
				n = seq % bucket.BucketSize
			}
			for q := bucket.FirstSeq(i) + n - 1; q >= bucket.FirstSeq(i); q-- {
				if s := slots[q]; !s.IsHole() && s.Slot.Msg.SendTime > 0 {
					return s.Slot.Msg.Seq, s.Slot.Msg.SendTime
				}
			}
		}
		return 0, 0
	}
	out := map[int64]int64{}
	var lastSeq, lastTime int64
	for seq := to; seq >= from; seq-- {
		if !slots[seq].IsHole() {
			continue
		}
		if lastTime > 0 && lastSeq <= seq {
			out[seq] = lastTime
			continue
		}
		msgSeq, t := findBefore(seq)
		if t <= 0 {
			break
		}
		out[seq], lastSeq, lastTime = t, msgSeq, t
	}
	return out
}

// TestDumpFollowsOpenIMRules dumps the showcase single and group chat as every
// participant and checks each object against the stored slot.
func TestDumpFollowsOpenIMRules(t *testing.T) {
	t.Parallel()
	s := seeded(t)
	for _, cid := range []string{demo.ShowcaseSingleID, demo.ShowcaseGroupID} {
		owners := map[string]bool{}
		st := s.stored(t)
		convs, err := st.Backend().ConversationsByID(context.Background(), cid)
		if err != nil || len(convs) < 2 {
			t.Fatalf("%s: conversation documents %v, %v", cid, convs, err)
		}
		for _, c := range convs {
			owners[c.OwnerUserID] = true
		}
		seen := map[string]int{}
		for viewer := range owners {
			ws, err := st.Windows(context.Background(), viewer, []string{cid}, nil)
			if err != nil {
				t.Fatal(err)
			}
			w := ws[cid]
			slots := slotsOf(t, st, cid, w.MaxSeq)
			holeTimes := openIMHoleTimes(slots, w.MinSeq, w.MaxSeq)
			objs := s.dumpJSON(t, cid, viewer)
			if int64(len(objs)) != w.MaxSeq-w.MinSeq+1 || num(objs[0]["seq"]) != w.MinSeq {
				t.Fatalf("%s as %s: %d objects from seq %v, want seqs %d..%d", cid, viewer, len(objs), objs[0]["seq"], w.MinSeq, w.MaxSeq)
			}
			for i, o := range objs {
				seq := w.MinSeq + int64(i)
				where := fmt.Sprintf("%s seq %d as %s", cid, seq, viewer)
				if num(o["seq"]) != seq {
					t.Fatalf("%s: object says seq %v", where, o["seq"])
				}
				slot := slots[seq]
				if slot.IsHole() {
					seen["hole"]++
					// OpenIM's stand-in (mgo/msg.go FindSeqs): seq, status 4
					// and the send time its pull of the window gives it.
					if want := holeTimes[seq]; !standIn(o) || num(o["status"]) != 4 || num(o["sendTime"]) != want {
						t.Errorf("%s: a hole must be {seq, status: 4, sendTime: %d}, got %v", where, want, o)
					}
					continue
				}
				checkSlot(t, where, o, slot, slots, viewer, seen)
			}
		}
		for _, want := range []string{"revoked", "deleted for viewer", "deleted for someone else", "quote of a revoked message"} {
			if seen[want] == 0 {
				t.Errorf("%s: the demo shows no message %s", cid, want)
			}
		}
		if cid == demo.ShowcaseSingleID && (seen["hole"] == 0 || seen["read"] == 0) {
			t.Errorf("%s: holes %d, read flags %d; want both", cid, seen["hole"], seen["read"])
		}
	}
}

func checkSlot(t *testing.T, where string, o map[string]any, slot bucket.StoredSlot, slots map[int64]bucket.StoredSlot, viewer string, seen map[string]int) {
	t.Helper()
	m := slot.Slot.Msg
	deleted := slices.Contains(slot.Slot.DelList, viewer)
	revoke := slot.Slot.Revoke
	content, _ := o["content"].(string)
	switch {
	case revoke != nil:
		seen["revoked"]++
		var c struct{ Detail string }
		var d struct{ RevokerID string }
		if num(o["contentType"]) != 2101 || json.Unmarshal([]byte(content), &c) != nil ||
			json.Unmarshal([]byte(c.Detail), &d) != nil || d.RevokerID != revoke.UserID {
			t.Errorf("%s: revoked by %s, shown as type %v content %q", where, revoke.UserID, o["contentType"], content)
		}
	case deleted:
		if content != "" {
			t.Errorf("%s: deleted for the viewer but content is %q", where, content)
		}
	case m.ContentType == 114:
		checkQuote(t, where, content, m.Content, slots, viewer, seen)
	default:
		if content != m.Content || num(o["contentType"]) != int64(m.ContentType) {
			t.Errorf("%s: shows type %v %q, stored type %d %q", where, o["contentType"], content, m.ContentType, m.Content)
		}
		if len(slot.Slot.DelList) > 0 {
			seen["deleted for someone else"]++
		}
	}
	wantStatus := int64(m.Status)
	if deleted {
		seen["deleted for viewer"]++
		wantStatus = 4
	}
	if num(o["status"]) != wantStatus {
		t.Errorf("%s: status %v, want %d", where, o["status"], wantStatus)
	}
	wantRead := m.SessionType == bucket.SessionSingle && slot.Slot.IsRead
	if o["isRead"] != wantRead {
		t.Errorf("%s: isRead %v, want %v (slot flag %v, session type %d)", where, o["isRead"], wantRead, slot.Slot.IsRead, m.SessionType)
	}
	if wantRead {
		seen["read"]++
	}
}

// checkQuote applies rule 5 as OpenIM does (controller/msg.go handlerDBMsg):
// a quote of a revoked seq shows it as type 2101; any other quote, one of a
// message deleted for the viewer included, is shown as stored.
func checkQuote(t *testing.T, where, shown, stored string, slots map[int64]bucket.StoredSlot, viewer string, seen map[string]int) {
	t.Helper()
	type quote struct {
		Text         string
		QuoteMessage struct {
			Seq         int64
			ContentType int32
			Status      int32
		}
	}
	var got, want quote
	if json.Unmarshal([]byte(shown), &got) != nil || json.Unmarshal([]byte(stored), &want) != nil {
		t.Errorf("%s: quote content %q is not the JSON stored (%q)", where, shown, stored)
		return
	}
	quoted := slots[want.QuoteMessage.Seq]
	switch {
	case got.Text != want.Text || got.QuoteMessage.Seq != want.QuoteMessage.Seq:
		t.Errorf("%s: quote shows %+v, stored %+v", where, got, want)
	case !quoted.IsHole() && quoted.Slot.Revoke != nil:
		seen["quote of a revoked message"]++
		if got.QuoteMessage.ContentType != 2101 {
			t.Errorf("%s: quotes revoked seq %d but shows it as type %d", where, want.QuoteMessage.Seq, got.QuoteMessage.ContentType)
		}
	case shown != stored:
		t.Errorf("%s: quote of an untouched message changed: %q, stored %q", where, shown, stored)
	}
}

// plainSeq finds the first seq of cid after after, sent by sender, that
// nobody revoked or deleted (and, if unread, that is not read).
func plainSeq(t *testing.T, st *store.Store, cid, sender string, after int64, unread bool) int64 {
	t.Helper()
	slots := slotsOf(t, st, cid, 150)
	for seq := after + 1; seq <= 150; seq++ {
		s := slots[seq]
		if !s.IsHole() && s.Slot.Msg.SendID == sender && s.Slot.Revoke == nil && len(s.Slot.DelList) == 0 &&
			s.Slot.Msg.MsgFrom == bucket.MsgFromUser && (!unread || !s.Slot.IsRead) {
			return seq
		}
	}
	t.Fatalf("no plain message from %s in %s after seq %d", sender, cid, after)
	return 0
}

func TestConversationsJSON(t *testing.T) {
	t.Parallel()
	s := seeded(t)
	for _, user := range []string{"alice", "lucas"} {
		out := s.mustRun(t, "conversations", "--as", user, "--format", "json")
		lines := strings.Split(strings.TrimSpace(out), "\n")
		if len(lines) < 2 {
			t.Fatalf("%s has %d conversations", user, len(lines))
		}
		for _, line := range lines {
			var c struct {
				ConversationID          string
				ConversationType        int32
				MaxSeq, ReadSeq, Unread int64
			}
			if err := json.Unmarshal([]byte(line), &c); err != nil || c.ConversationID == "" || c.ConversationType == 0 {
				t.Fatalf("bad line %q: %v", line, err)
			}
			if c.Unread != max(0, c.MaxSeq-c.ReadSeq) {
				t.Errorf("%s %s: unread %d, max seq %d, read seq %d", user, c.ConversationID, c.Unread, c.MaxSeq, c.ReadSeq)
			}
			objs := s.dumpJSON(t, c.ConversationID, user)
			if last := num(objs[len(objs)-1]["seq"]); last != c.MaxSeq {
				t.Errorf("%s %s: max seq %d but the dump ends at %d", user, c.ConversationID, c.MaxSeq, last)
			}
		}
	}
	text := s.mustRun(t, "conversations", "--as", "alice")
	if !strings.Contains(text, "Bob Müller") || !strings.Contains(text, "Project Phoenix") {
		t.Errorf("text listing does not name the conversations:\n%s", text)
	}
}

func TestDumpTextIsReadableAndSafe(t *testing.T) {
	t.Parallel()
	s := seeded(t)
	r := s.chatlens(t, "dump", "--conversation", demo.ShowcaseSingleID, "--as", "alice", "--to", "30", "--stats")
	if r.code != 0 {
		t.Fatal(r.stderr)
	}
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	if len(lines) != 30 {
		t.Errorf("%d lines for seqs 1..30", len(lines))
	}
	if strings.ContainsAny(r.stdout, "\x1b\x07") {
		t.Error("escape sequences from message text reached the output")
	}
	for _, want := range []string{"Alice Chen", "[deleted for you]", "revoked", "没问题"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("text dump lacks %q", want)
		}
	}
	if !strings.Contains(r.stderr, "round trips") {
		t.Errorf("--stats printed %q", r.stderr)
	}
}

func TestFirstRunSeedsTheDemo(t *testing.T) {
	s := fresh(t)
	r := s.chatlens(t, "conversations", "--as", "alice")
	if r.code != 0 || !strings.Contains(r.stderr, "seeded") || !strings.Contains(r.stdout, demo.ShowcaseSingleID) {
		t.Fatalf("first run: exit %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
	}
	if r := s.chatlens(t, "conversations", "--as", "alice"); strings.Contains(r.stderr, "seed") {
		t.Errorf("second run seeded again: %s", r.stderr)
	}
}

// TestAgainstMongoDB runs the commands on the MongoDB backend: an in-process
// MongoDB-wire server, or the real MongoDB of CHATLENS_TEST_MONGO_URI.
// The dataset stays a few buckets: the wire server scans on every read.
func TestAgainstMongoDB(t *testing.T) {
	t.Parallel()
	uri, _ := mongotest.URI(t)
	db := mongotest.Database(t, uri)
	audit := filepath.Join(t.TempDir(), "audit.log")
	mongo := func(args ...string) result {
		full := append([]string{args[0], "--mongo-uri", uri, "--db", db, "--audit-log", audit}, args[1:]...)
		var out, errs bytes.Buffer
		return result{runArgs(full, &out, &errs), out.String(), errs.String()}
	}
	if r := mongo("seed", "--conversations", "2", "--messages", "60", "--long", "0", "--seed", "2"); r.code != 0 {
		t.Fatalf("seed: exit %d: %s", r.code, r.stderr)
	}
	if r := mongo("conversations", "--as", "alice", "--format", "json"); r.code != 0 ||
		!strings.Contains(r.stdout, `"conversationID":"`+demo.ShowcaseSingleID+`"`) {
		t.Fatalf("conversations: exit %d %s %s", r.code, r.stdout, r.stderr)
	}
	if r := mongo("revoke", "--conversation", demo.ShowcaseSingleID, "--seq", "2", "--by", "bob"); r.code != 0 {
		t.Fatalf("revoke: exit %d: %s", r.code, r.stderr)
	}
	r := mongo("dump", "--conversation", demo.ShowcaseSingleID, "--as", "alice", "--format", "json", "--to", "3")
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	if r.code != 0 || len(lines) != 3 || !strings.Contains(lines[1], `"contentType":2101`) {
		t.Errorf("dump after revoke: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := mongo("check"); r.code != 0 {
		t.Errorf("check: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestBenchBucketSize: --bucket-size runs the bench-only layout and says
// so in --json; a size of 0, or one whose bucket of the largest generated
// messages could pass MongoDB's 16 MiB, is bad usage naming the bound.
func TestBenchBucketSize(t *testing.T) {
	t.Parallel()
	var out, errs bytes.Buffer
	code := runArgs([]string{"bench", "--messages", "300", "--bucket-size", "1000", "--no-sync", "--json"}, &out, &errs)
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errs.String())
	}
	var res struct {
		BucketSize   int    `json:"bucket_size"`
		BucketLayout string `json:"bucket_layout"`
		Buckets      struct {
			Storage struct {
				Documents int `json:"documents"`
			} `json:"storage"`
		} `json:"buckets"`
	}
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatalf("not one JSON object: %v\n%s", err, out.String())
	}
	if res.BucketSize != 1000 || !strings.Contains(res.BucketLayout, "bench-only") || res.Buckets.Storage.Documents != 1 {
		t.Errorf("bench --bucket-size 1000: size %d, layout %q, %d documents; want 1000, bench-only, 1",
			res.BucketSize, res.BucketLayout, res.Buckets.Storage.Documents)
	}
}

// Hostile content (issue 5) through the commands: message text, nicknames
// and revoker names holding escape sequences, other controls, bidi controls
// and a 100 KB line. `dump --format text` prints none of it raw; `--format
// json` escapes it.

var hostileTexts = []string{
	"\x1b[2J\x1b[H\x1b[10;10Hmoved",
	"\x1b]0;pwned title\x07after",
	"\x1b]2;pwned\x1b\\after",
	"\x1b]52;c;cm0gLXJmIH4K\x07copy",
	"\x1bP+q544e\x1b\\dcs",
	"\u009b2J\u009d0;t\u009c c1",
	"raw \x9b2J \x9d0;t byte",
	"bell\x07 bs\x08 nul\x00 cr\rover del\x7f",
	"abc\u202edcba\u202c \u2066iso\u2069",
	"sep\u2028par\u2029 zw\u200bsp\u2060\ufeff marks\u200e\u200f\u061c soft\u00ad",
	"line one\nline two\r\n\tindented",
	strings.Repeat("A", 100<<10) + "\x1b[2Jend",
}

const hostileCid = "si_alice_eve"

// hostileSandbox is an empty sandbox holding one conversation of hostile
// messages, the last one revoked by a hostile nickname.
func hostileSandbox(t *testing.T) sandbox {
	t.Helper()
	s := empty(t)
	b := testkit.Open(t, s.data, embedded.Options{NoSync: true})
	defer b.Close(context.Background())
	st := store.New(b, store.Options{})
	var msgs []*bucket.MsgData
	for i, text := range hostileTexts {
		content, _ := json.Marshal(map[string]string{"content": text})
		msgs = append(msgs, &bucket.MsgData{SendID: "eve", RecvID: "alice", ClientMsgID: fmt.Sprint("c", i),
			SenderNickname: "\x1b]0;x\x07Eve\u202e", SessionType: bucket.SessionSingle, MsgFrom: bucket.MsgFromUser,
			ContentType: 101, Content: string(content), SendTime: 1700000000000 + int64(i), Status: bucket.StatusSent,
			Options: map[string]bool{}, AtUserIDList: []string{}})
	}
	ctx := context.Background()
	if _, err := st.InsertMessages(ctx, hostileCid, 1, msgs); err != nil {
		t.Fatal(err)
	}
	rev := bucket.Revoke{UserID: "eve", Nickname: "\x1b[31mEve\u202e", Time: 1700000009999}
	if _, err := st.Revoke(ctx, hostileCid, []int64{int64(len(msgs))}, rev); err != nil {
		t.Fatal(err)
	}
	return s
}

// wantInert fails on any byte of out a terminal would act on.
func wantInert(t *testing.T, what, out string) {
	t.Helper()
	if !utf8.ValidString(out) {
		t.Errorf("%s: invalid UTF-8 in the output", what)
	}
	for i, r := range out {
		if r < 0x20 && r != '\n' || r == 0x7f || bucket.UnsafeRune(r) {
			t.Errorf("%s: %U at byte %d: …%q…", what, r, i, out[max(0, i-30):min(len(out), i+10)])
			return
		}
	}
}

func TestDumpNeverPrintsHostileContentRaw(t *testing.T) {
	t.Parallel()
	s := hostileSandbox(t)
	text := s.mustRun(t, "dump", "--conversation", hostileCid, "--as", "alice", "--format", "text")
	wantInert(t, "dump --format text", text)
	if n := strings.Count(strings.TrimSpace(text), "\n") + 1; n != len(hostileTexts) {
		t.Errorf("text dump has %d lines for %d messages", n, len(hostileTexts))
	}
	if !strings.Contains(text, "^[]0;pwned title^Gafter") {
		t.Errorf("the OSC title is not shown as visible text:\n%.2000s", text)
	}

	js := s.mustRun(t, "dump", "--conversation", hostileCid, "--as", "alice", "--format", "json")
	wantInert(t, "dump --format json", js)
	lines := strings.Split(strings.TrimSpace(js), "\n")
	for i, line := range lines[:len(hostileTexts)-1] {
		var m struct{ Content string }
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("json line %d: %v", i+1, err)
		}
		var c struct{ Content string }
		_ = json.Unmarshal([]byte(m.Content), &c)
		if want := strings.ToValidUTF8(hostileTexts[i], "\ufffd"); c.Content != want {
			t.Errorf("json line %d decodes to %q, want the stored text %q", i+1, c.Content, want)
		}
	}

	conv := s.mustRun(t, "conversations", "--as", "alice")
	wantInert(t, "conversations", conv)
	wantInert(t, "export", s.mustRun(t, "export"))
	check := s.chatlens(t, "check")
	wantInert(t, "check", check.stdout+check.stderr)
}

// A quote far from what a dump batch holds still gets rule 5: seq 2001
// quotes seq 3 (revoked) and seq 2002 quotes seq 4 (deleted for bob), both
// in bucket 0, twenty buckets back. `dump --from 2001` reads what is quoted
// and never prints the revoked original; a quote of a message deleted for
// the viewer or visible far back shows its text, as OpenIM returns it.
func TestDumpTreatsFarQuotes(t *testing.T) {
	t.Parallel()
	const cid = "si_alice_bob"
	s := empty(t)
	b := testkit.Open(t, s.data, embedded.Options{NoSync: true})
	st := store.New(b, store.Options{})
	msg := func(from string, seq int64, ct int32, content string) *bucket.MsgData {
		to := map[string]string{"alice": "bob", "bob": "alice"}[from]
		return &bucket.MsgData{SendID: from, RecvID: to, ClientMsgID: fmt.Sprint("c", seq), SenderNickname: strings.ToUpper(from[:1]) + from[1:],
			SessionType: bucket.SessionSingle, MsgFrom: bucket.MsgFromUser, ContentType: ct, Content: content,
			SendTime: 1700000000000 + seq, Status: bucket.StatusSent, Options: map[string]bool{}, AtUserIDList: []string{}}
	}
	text := func(s string) string { c, _ := json.Marshal(map[string]string{"content": s}); return string(c) }
	var early []*bucket.MsgData
	for seq := int64(1); seq <= 5; seq++ {
		early = append(early, msg("alice", seq, 101, text(fmt.Sprint("hello ", seq))))
	}
	quote := func(seq, quoted int64) *bucket.MsgData {
		q := early[quoted-1]
		content, _ := json.Marshal(map[string]any{"text": fmt.Sprint("reply to ", quoted), "quoteMessage": map[string]any{
			"clientMsgID": q.ClientMsgID, "seq": quoted, "sendID": q.SendID, "senderNickname": q.SenderNickname,
			"contentType": 101, "content": q.Content, "status": 2, "textElem": map[string]string{"content": fmt.Sprint("hello ", quoted)}}})
		return msg("bob", seq, 114, string(content))
	}
	ctx := context.Background()
	for _, step := range []func() (store.WriteResult, error){
		func() (store.WriteResult, error) { return st.InsertMessages(ctx, cid, 1, early) },
		func() (store.WriteResult, error) {
			return st.InsertMessages(ctx, cid, 2001, []*bucket.MsgData{quote(2001, 3), quote(2002, 4), quote(2003, 5)})
		},
		func() (store.WriteResult, error) {
			return st.Revoke(ctx, cid, []int64{3}, bucket.Revoke{UserID: "alice", Nickname: "Alice", Role: 100, Time: 1700000009000})
		},
		func() (store.WriteResult, error) { return st.DeleteForMe(ctx, cid, []int64{4}, "bob") },
	} {
		if _, err := step(); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.Close(ctx); err != nil {
		t.Fatal(err)
	}

	// OpenIM (controller/msg.go handlerDBMsg) rewrites the quote of the
	// revoked seq 3 only; the quote of seq 4, deleted for bob, stays as stored.
	out := s.mustRun(t, "dump", "--conversation", cid, "--as", "bob", "--from", "2001")
	for _, hidden := range []string{"hello 3"} {
		if strings.Contains(out, hidden) {
			t.Errorf("text dump shows the quoted original %q:\n%s", hidden, out)
		}
	}
	for _, want := range []string{`reply to 3 ↩ "Alice revoked a message"`, `reply to 4 ↩ "hello 4"`, `reply to 5 ↩ "hello 5"`} {
		if !strings.Contains(out, want) {
			t.Errorf("text dump lacks %q:\n%s", want, out)
		}
	}

	js := s.mustRun(t, "dump", "--conversation", cid, "--as", "bob", "--from", "2001", "--format", "json")
	for _, hidden := range []string{"hello 3"} {
		if strings.Contains(js, hidden) {
			t.Errorf("json dump shows the quoted original %q:\n%s", hidden, js)
		}
	}
	objs := s.dumpJSON(t, cid, "bob", "--from", "2001")
	if len(objs) != 3 {
		t.Fatalf("json dump has %d objects, want 3", len(objs))
	}
	for i, want := range []struct{ contentType, status int32 }{{2101, 2}, {101, 2}, {101, 2}} {
		var c struct {
			QuoteMessage struct {
				Seq         int64
				ContentType int32
				Status      int32
			}
		}
		content, _ := objs[i]["content"].(string)
		if err := json.Unmarshal([]byte(content), &c); err != nil {
			t.Fatalf("seq %v: content is not JSON: %v", objs[i]["seq"], err)
		}
		if c.QuoteMessage.ContentType != want.contentType || c.QuoteMessage.Status != want.status {
			t.Errorf("seq %v quotes seq %d shown as type %d status %d, want %d %d", objs[i]["seq"], c.QuoteMessage.Seq,
				c.QuoteMessage.ContentType, c.QuoteMessage.Status, want.contentType, want.status)
		}
	}
}

// TestScriptedWritesCheckTheirTargets: revoke and read refuse, as the
// server does, targets that are not there (a revoke of a hole, seqs past
// the last message), a second revoke of one message, and a read seq past
// max seq; a delete past the last message is chatlens's own refusal (a
// delete of a hole the server accepts: TestWritesTheServerAccepts): exit
// 1, one line naming the seqs, and the store unchanged.
func TestScriptedWritesCheckTheirTargets(t *testing.T) {
	t.Parallel()
	s := seeded(t)
	cid := demo.ShowcaseSingleID
	st := s.stored(t)
	ws, err := st.Windows(context.Background(), "alice", []string{cid}, nil)
	if err != nil {
		t.Fatal(err)
	}
	maxSeq := ws[cid].MaxSeq
	var hole, revoked int64
	var revoker string
	for seq, slot := range slotsOf(t, st, cid, maxSeq) {
		switch {
		case seq < ws[cid].MinSeq || seq > maxSeq:
		case slot.IsHole() && (hole == 0 || seq < hole):
			hole = seq
		case !slot.IsHole() && slot.Slot.Revoke != nil && (revoked == 0 || seq < revoked):
			revoked, revoker = seq, slot.Slot.Revoke.UserID
		}
	}
	if hole == 0 || revoked == 0 {
		t.Fatalf("the demo chat has no hole (%d) or no revoked message (%d)", hole, revoked)
	}
	_ = st.Close(context.Background()) // release the shared lock for the writes
	before := s.mustRun(t, "export")
	beyond := maxSeq + 50 // past the last message, in a bucket nobody wrote
	for _, c := range []struct {
		args []string
		want string // the offending seqs, as the error names them
	}{
		{[]string{"revoke", "--seq", fmt.Sprint(hole), "--by", "bob"}, fmt.Sprintf("seq %d: no message", hole)},
		{[]string{"revoke", "--seq", fmt.Sprint(beyond), "--by", "bob"}, fmt.Sprintf("seq %d: beyond the last message", beyond)},
		{[]string{"revoke", "--seq", fmt.Sprint(revoked), "--by", "alice"}, fmt.Sprintf("seq %d: already revoked by %s", revoked, revoker)},
		{[]string{"delete", "--seq", "5000", "--by", "alice"}, "seq 5000: beyond the last message"},
		{[]string{"read", "--seq", "5000", "--by", "alice"}, fmt.Sprintf("seq 5000: beyond the last message (max seq %d)", maxSeq)},
	} {
		args := append([]string{c.args[0], "--conversation", cid}, c.args[1:]...)
		r := s.chatlens(t, args...)
		if r.code != 1 || !strings.Contains(r.stderr, c.want) || r.stdout != "" {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want 1 and %q", strings.Join(args, " "), r.code, r.stdout, r.stderr, c.want)
		}
		oneErrorLine(t, r.stderr)
	}
	if after := s.mustRun(t, "export"); after != before {
		t.Error("a refused write changed the store")
	}
	if objs := s.dumpJSON(t, cid, "alice"); num(objs[len(objs)-1]["seq"]) != maxSeq {
		t.Errorf("alice's chat ends at seq %v after the refused writes, want %d", objs[len(objs)-1]["seq"], maxSeq)
	}
}

// interruptedFirstRun runs a first-run command on s and cancels it after the
// first batch of messages, as Ctrl-C would.
func interruptedFirstRun(t *testing.T, s sandbox, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	full := append([]string{args[0], "--data", s.data, "--audit-log", s.audit}, args[1:]...)
	var out, errs bytes.Buffer
	p := testProcess(strings.NewReader(""), &out, &errs)
	p.onSeedStep = func(int, int) { cancel() }
	return result{runContext(ctx, full, p), out.String(), errs.String()}
}

// demoProgress reads the store's demo marker and whether it holds messages.
func demoProgress(t *testing.T, s sandbox) (demo.Progress, bool) {
	t.Helper()
	b := testkit.Open(t, s.data, embedded.Options{ReadOnly: true})
	defer b.Close(context.Background())
	holds, err := store.HoldsAny(context.Background(), b, bucket.CollMsg)
	if err != nil {
		t.Fatal(err)
	}
	progress, err := demo.SeedProgress(context.Background(), b)
	if err != nil {
		t.Fatal(err)
	}
	return progress, !holds
}

func TestInterruptedSeedCommandFails(t *testing.T) {
	t.Parallel()
	s := empty(t)
	r := interruptedFirstRun(t, s, "seed", "--conversations", "2", "--messages", "60", "--long", "3000", "--force")
	if r.code == 0 || !strings.Contains(r.stderr, "interrupted") || strings.Contains(r.stderr, "seeded") {
		t.Fatalf("seed cancelled after one batch: exit %d, stderr %q", r.code, r.stderr)
	}
	lines := strings.Split(strings.TrimSpace(r.stderr), "\n")
	oneErrorLine(t, lines[len(lines)-1]+"\n")
	// One batch was stored before the cancel: partial, not failed.
	if log, err := os.ReadFile(s.audit); err != nil || !strings.Contains(string(log), `"result":"partial"`) {
		t.Errorf("the audit log does not record the partial seed: %s (%v)", log, err)
	}
}

func TestInterruptedFirstRunIsSeededAgain(t *testing.T) {
	s := fresh(t)
	if r := interruptedFirstRun(t, s, "conversations", "--as", "alice"); r.code == 0 || !strings.Contains(r.stderr, "canceled") {
		t.Fatalf("first run cancelled mid-seed: exit %d, stderr %q", r.code, r.stderr)
	}
	if progress, empty := demoProgress(t, s); progress != demo.Started || empty {
		t.Fatalf("after the interrupted seed: progress %d, empty %v; want a started, partial demo", progress, empty)
	}
	r := s.chatlens(t, "conversations", "--as", "alice")
	if r.code != 0 || !strings.Contains(r.stderr, "again") || !strings.Contains(r.stderr, "seeded") {
		t.Fatalf("next run: exit %d, stderr %q", r.code, r.stderr)
	}
	if progress, _ := demoProgress(t, s); progress != demo.Complete {
		t.Errorf("after the second seed: progress %d, want complete", progress)
	}
	// Each first run's seed is audited: its intent before the emptying and
	// the first message, partial when interrupted, ok when done.
	var results []string
	for _, line := range auditLines(t, s.audit) {
		results = append(results, fmt.Sprint(line["action"], " ", line["result"]))
	}
	if got := strings.Join(results, ", "); got != "seed 5 intent, seed 5 partial, seed 5 intent, seed 5 ok" {
		t.Errorf("audit log of the two first runs: %s", got)
	}
	whole := fresh(t)
	if want := whole.mustRun(t, "conversations", "--as", "alice"); r.stdout != want {
		t.Errorf("re-seeded demo differs from an uninterrupted one:\n%s\nwant\n%s", r.stdout, want)
	}
	if again := s.chatlens(t, "check"); again.code != 0 || strings.Contains(again.stderr, "seed") {
		t.Errorf("check of the re-seeded demo: exit %d, stderr %q", again.code, again.stderr)
	}
	if out := s.mustRun(t, "export", "--collection", bucket.CollMsg); strings.Contains(out, demo.MetaCollection) || strings.Contains(out, `"complete"`) {
		t.Errorf("the export of msg shows the demo marker")
	}
}

// A store whose data was imported has no demo marker: however partial it
// looks, it is the user's and is used as it is.
func TestImportedStoreIsNeverReseeded(t *testing.T) {
	t.Parallel()
	src, dst := seeded(t), empty(t)
	dst.mustRunIn(t, src.mustRun(t, "export", "--conversation", demo.ShowcaseSingleID), "import", "-", "--collection", bucket.CollMsg)
	before := dst.mustRun(t, "export", "--collection", bucket.CollMsg)
	for _, args := range [][]string{{"conversations", "--as", "alice"}, {"check"}} {
		if r := dst.chatlens(t, args...); strings.Contains(r.stderr, "seed") {
			t.Errorf("%s on imported data seeded: %q", args[0], r.stderr)
		}
	}
	if after := dst.mustRun(t, "export", "--collection", bucket.CollMsg); after != before {
		t.Errorf("the imported messages changed")
	}
	if progress, _ := demoProgress(t, dst); progress != demo.NotSeeded {
		t.Errorf("imported store has demo progress %d", progress)
	}
}

// errorLine keeps one "chatlens: " prefix however many the error carries
// (the scripts check the lines the commands print).
func TestErrorLineKeepsOnePrefix(t *testing.T) {
	t.Parallel()
	if got := errorLine(errors.New("chatlens: chatlens:  boom")); got != "chatlens: boom" {
		t.Errorf("errorLine = %q", got)
	}
}

// TestDumpHolesCarryThePreviousSendTime: a hole prints as the stand-in
// OpenIM's pull of the dumped range returns for it (mgo/msg.go FindSeqs):
// {seq, status 4, sendTime} with the send time of the newest stored message
// before it, found below the range and past buckets not stored at all.
func TestDumpHolesCarryThePreviousSendTime(t *testing.T) {
	t.Parallel()
	const cid = "si_alice_bob"
	s := empty(t)
	b := testkit.Open(t, s.data, embedded.Options{NoSync: true})
	st := store.New(b, store.Options{})
	msg := func(seq int64) *bucket.MsgData {
		return &bucket.MsgData{SendID: "alice", RecvID: "bob", ClientMsgID: fmt.Sprint("c", seq), SenderNickname: "Alice",
			SessionType: bucket.SessionSingle, MsgFrom: bucket.MsgFromUser, ContentType: 101, Content: `{"content":"hi"}`,
			SendTime: 1700000000000 + seq*1000, Status: bucket.StatusSent, Options: map[string]bool{}, AtUserIDList: []string{}}
	}
	ctx := context.Background()
	// seqs 1..5 in bucket 0, nothing in buckets 1 and 2, seqs 350 and 352 in
	// bucket 3, seq 401 in bucket 4.
	for _, first := range []int64{1, 350, 352, 401} {
		n := int64(5)
		if first > 5 {
			n = 1
		}
		var msgs []*bucket.MsgData
		for seq := first; seq < first+n; seq++ {
			msgs = append(msgs, msg(seq))
		}
		if _, err := st.InsertMessages(ctx, cid, first, msgs); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.Close(ctx); err != nil {
		t.Fatal(err)
	}
	objs := s.dumpJSON(t, cid, "alice", "--from", "301", "--to", "352")
	if len(objs) != 52 {
		t.Fatalf("dump printed %d objects, want 52", len(objs))
	}
	for _, o := range objs {
		seq := num(o["seq"])
		if seq == 350 || seq == 352 {
			continue
		}
		want := int64(1700000000000 + 5*1000) // seq 5's
		if seq == 351 {
			want = 1700000000000 + 350*1000
		}
		if !standIn(o) || num(o["status"]) != 4 || num(o["sendTime"]) != want {
			t.Errorf("hole %d = %v, want {seq, status 4, sendTime %d}", seq, o, want)
		}
	}
	// In one pull OpenIM takes the holes newest first: seq 400 ends bucket 3,
	// so its search skips bucket 3 and finds seq 5, and holes 390..399 reuse
	// that answer although seq 352 is nearer.
	for _, o := range s.dumpJSON(t, cid, "alice", "--from", "390", "--to", "401") {
		if seq := num(o["seq"]); seq <= 400 && num(o["sendTime"]) != 1700000000000+5*1000 {
			t.Errorf("hole %d = %v, want seq 5's send time", seq, o)
		}
	}
}
