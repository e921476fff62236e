package ui

import (
	"context"
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/ui/uitest"
)

// transcriptDriver is a driver whose T writes into a directory of its own.
func transcriptDriver(t *testing.T) (*driver, string, *strings.Builder) {
	t.Helper()
	st, _ := newTestStore(t, false)
	seedSmall(t, st)
	opts, clip := testOptions(t, "alice")
	opts.TranscriptDir, opts.Version = t.TempDir(), "chatlens v9.9.9"
	return newDriver(t, st, opts, 120, 40), opts.TranscriptDir, clip
}

// T, a range, enter: a markdown transcript of what alice sees of those
// seqs, with the header a ticket needs, in a new file the status names.
func TestTranscriptOfASeqRange(t *testing.T) {
	d, dir, _ := transcriptDriver(t)
	d.open(chatAB)
	d.keys("T")
	if !d.m.input.Open() || !strings.Contains(d.m.input.Value(), "-120") {
		t.Fatalf("T offers %q, want the rows on screen up to 120", d.m.input.Value())
	}
	d.typeText("4-8")
	d.keys("enter")
	path, md := readOnlyFile(t, dir)
	if !strings.Contains(d.m.status, "seqs 4-8") || !strings.Contains(d.m.status, path) {
		t.Errorf("status %q does not name the range and %s", d.m.status, path)
	}
	for _, want := range []string{"# si\\_alice\\_bob as alice sees it", "| Store | embedded test.db |",
		"| Viewer | alice (Alice) |", "| Window | alice sees seq 1-120 |", "| Version | chatlens v9.9.9 |",
		"| Captured | 2024-06-01 12:00:00 UTC |",
		"| 4 | 2024-05-01 09:04:00 UTC | Bob | hello 4 from bob | shown as stored; read by Alice (read seq 100) |", "in del\\_list of alice",
		"revoked by Bob", "| 8 | "} {
		if !strings.Contains(md, want) {
			t.Errorf("transcript lacks %q:\n%s", want, md)
		}
	}
	if strings.Contains(md, "| 3 | ") || strings.Contains(md, "| 9 | ") {
		t.Errorf("transcript goes beyond 4-8:\n%s", md)
	}
}

// In compare, the transcript holds both viewers and the differences; a
// second one never overwrites the first.
func TestTranscriptInCompare(t *testing.T) {
	d, dir, _ := transcriptDriver(t)
	d.open(chatAB)
	d.keys("c", "T")
	d.typeText("5-6")
	d.keys("enter")
	_, md := readOnlyFile(t, dir)
	for _, want := range []string{"alice and bob compared", "| Compared with | bob (Bob) |",
		"| seq | time | sender | alice sees | bob sees | difference |", "deleted for alice only"} {
		if !strings.Contains(md, want) {
			t.Errorf("compare transcript lacks %q:\n%s", want, md)
		}
	}
	d.keys("esc") // the dialog with the path
	d.keys("T")
	d.typeText("5-6")
	d.keys("enter")
	if files, _ := filepath.Glob(filepath.Join(dir, "*.md")); len(files) != 2 {
		t.Errorf("a second transcript of the same range: files %v, want two", files)
	}
}

// T writes html when asked ("4-8 html"), names the file by its whole path
// (wherever chatlens was started), and shows the path in a dialog where y
// copies it.
func TestTranscriptNamesItsWholePathAndCopiesIt(t *testing.T) {
	d, _, clip := transcriptDriver(t)
	d.m.e.TranscriptDir = "." // the default: the directory chatlens was started in
	t.Chdir(t.TempDir())
	d.open(chatAB)
	d.keys("T")
	d.typeText("4-8 html")
	d.keys("enter")
	files, _ := filepath.Glob("*.html")
	if len(files) != 1 {
		t.Fatalf("html transcript files: %v, want one", files)
	}
	path, err := filepath.Abs(files[0])
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); !strings.Contains(string(b), "<table") {
		t.Errorf("%s is not html:\n%s", path, b)
	}
	if !strings.Contains(d.m.status, "written to "+path) {
		t.Errorf("status %q does not name the whole path %s", d.m.status, path)
	}
	if d.m.overlay != ovCopyChoice || !strings.Contains(d.m.View(), "Transcript of seqs 4-8 (5 rows) written") {
		t.Fatalf("no dialog with the path after writing:\n%s", d.m.View())
	}
	d.keys("y")
	enc := strings.TrimSuffix(strings.TrimPrefix(clip.String(), "\x1b]52;c;"), "\x07")
	if text, err := base64.StdEncoding.DecodeString(enc); err != nil || string(text) != path {
		t.Errorf("y copied %q (%v), want %s", text, err, path)
	}
	if d.m.overlay != ovNone {
		t.Errorf("the dialog stays open after y")
	}
}

// A date range is the messages sent from the first moment typed through
// the last one: its last minute is in it (it stopped at 09:20, seq 19),
// and the header says what was asked and the seqs it covers.
func TestTranscriptOfADateRange(t *testing.T) {
	d, dir, _ := transcriptDriver(t)
	d.open(chatAB)
	d.keys("T")
	d.typeText("2024-05-01 09:10..2024-05-01 09:20")
	d.keys("enter")
	_, md := readOnlyFile(t, dir)
	for _, want := range []string{"| Seqs | 10-20 |",
		"| Asked | 2024-05-01 09:10..2024-05-01 09:20: sent from 2024-05-01 09:10:00 through 2024-05-01 09:20:59 UTC |"} {
		if !strings.Contains(md, want) {
			t.Errorf("messages of 09:10 through 09:20: no %q in\n%s", want, md)
		}
	}
}

// D1..D2 holds all of D2: every message of 1 May (it held none: it
// stopped where 1 May starts).
func TestTranscriptOfDaysHoldsTheLastDay(t *testing.T) {
	d, dir, _ := transcriptDriver(t)
	d.open(chatAB)
	d.keys("T")
	d.typeText("2024-04-30..2024-05-01")
	d.keys("enter")
	_, md := readOnlyFile(t, dir)
	if !strings.Contains(md, "| Seqs | 1-120 |") || !strings.Contains(md, "| 120 | ") {
		t.Errorf("the messages of 30 April through 1 May are seqs 1-120:\n%s", md)
	}
}

// A range whose first date is after its last says it is reversed (it
// said it was not a date range), and writes nothing.
func TestTranscriptOfAReversedRangeSaysSo(t *testing.T) {
	d, dir, _ := transcriptDriver(t)
	d.open(chatAB)
	d.keys("T")
	d.typeText("2024-05-29..2024-05-28")
	d.keys("enter")
	if !strings.Contains(d.m.status, "dates 2024-05-29..2024-05-28 are reversed: the first is after the last") {
		t.Errorf("status %q does not say the range is reversed", d.m.status)
	}
	if files, _ := filepath.Glob(filepath.Join(dir, "*")); len(files) != 0 {
		t.Errorf("files written: %v", files)
	}
}

// T in a conversation whose ID is 300 characters long writes its
// transcript (it failed: "file name too long"), under a name a file
// system takes.
func TestTranscriptOfALongConversationID(t *testing.T) {
	st, _ := newTestStore(t, false)
	seedSmall(t, st)
	peer := strings.Repeat("z", 300)
	cid := "si_alice_" + peer
	var msgs []*bucket.MsgData
	for i := 1; i <= 3; i++ {
		msgs = append(msgs, uitest.TextMsg("alice", peer, "", bucket.SessionSingle, i, "long way"))
	}
	if _, err := st.InsertMessages(context.Background(), cid, 1, msgs); err != nil {
		t.Fatal(err)
	}
	uitest.Insert(t, st, bucket.CollConversation, bucket.Conversation{OwnerUserID: "alice", ConversationID: cid, ConversationType: 1, UserID: peer})
	opts, _ := testOptions(t, "alice")
	dir := t.TempDir()
	opts.TranscriptDir = dir
	d := newDriver(t, st, opts, 120, 40)
	d.open(cid)
	d.keys("T")
	d.typeText("1-3")
	d.keys("enter")
	path, md := readOnlyFile(t, dir)
	if !strings.Contains(md, "long way") || len(filepath.Base(path)) > 255 {
		t.Errorf("status %q; %s:\n%s", d.m.status, path, md)
	}
}

// y offers the text alone or the row with seq, time, sender and IDs.
func TestCopyChoiceRow(t *testing.T) {
	d, _, clip := transcriptDriver(t)
	d.open(chatAB)
	d.jump(10)
	d.keys("y")
	if d.m.overlay != ovCopyChoice {
		t.Fatal("y copied without asking what")
	}
	d.keys("down", "enter")
	got := clip.String()
	enc := strings.TrimSuffix(strings.TrimPrefix(got, "\x1b]52;c;"), "\x07")
	text, err := base64.StdEncoding.DecodeString(enc)
	if err != nil {
		t.Fatalf("clipboard got %q: %v", got, err)
	}
	want := "seq 10 · 2024-05-01 09:10:00 UTC · Bob (bob) · client_msg_id c10 · server_msg_id s10: hello 10 from bob"
	if string(text) != want {
		t.Errorf("copied %q, want %q", text, want)
	}
	clip.Reset()
	d.keys("y", "esc")
	if clip.Len() != 0 || d.m.overlay != ovNone {
		t.Errorf("esc copied %q", clip.String())
	}
}

func TestGoldenCopyChoice(t *testing.T) {
	s := startScreen(t)
	s.open()
	s.jump("10")
	s.keys("y")
	s.waitFor("Copy seq 10", "client_msg_id c10")
	s.check()
}

func TestGoldenTranscriptPrompt(t *testing.T) {
	s := startScreenWith(t, func(*store.Store) {})
	s.open()
	s.keys("T")
	s.waitFor("transcript of (10-40")
	s.check()
}

// The copied row names the sender as the row on screen does (the message's
// sender_nickname), not by user.nickname: one ticket, one name per sender.
func TestCopiedRowNamesTheSenderAsTheRow(t *testing.T) {
	st, _ := newTestStore(t, false)
	seedSmall(t, st)
	msg := textMsg("bob", "alice", "", bucket.SessionSingle, 10, "hello 10 from bob")
	msg.Seq, msg.SenderNickname = 10, "Bobby"
	if _, err := st.Backend().SetSlotField(t.Context(), bucket.DocIDForSeq(chatAB, 10), bucket.SlotIndex(10), "msg", msg); err != nil {
		t.Fatal(err)
	}
	insertRaw(t, st, bucket.CollUser, bucket.User{UserID: "bob", Nickname: "Robert"})
	opts, clip := testOptions(t, "alice")
	d := newDriver(t, st, opts, 120, 40)
	d.open(chatAB)
	d.jump(10)
	d.keys("y", "down", "enter")
	text, err := base64.StdEncoding.DecodeString(strings.TrimSuffix(strings.TrimPrefix(clip.String(), "\x1b]52;c;"), "\x07"))
	if err != nil || !strings.Contains(string(text), " · Bobby (bob) · ") || !strings.Contains(d.m.View(), "Bobby: hello 10") {
		t.Errorf("copied %q (%v); want the sender as the row shows them, Bobby (bob)", text, err)
	}
}

// T in compare writes a file whose first line after the title is the
// number of differences, the count the compare view's footer shows: here
// bob against alice, who cleared her history before seq 108, so seqs
// 1-107 are outside her window, the run of holes 106-109 among them in
// part (106-107) and counted seq by seq, as the view counts them.
func TestCompareTranscriptOpensWithTheViewsCount(t *testing.T) {
	st, _ := newTestStore(t, false)
	seedSmall(t, st)
	insertRaw(t, st, bucket.CollSeqUser, bucket.SeqUser{UserID: "alice", ConversationID: chatAB, MinSeq: 108, ReadSeq: 100})
	opts, _ := testOptions(t, "bob")
	opts.TranscriptDir = t.TempDir()
	d := newDriver(t, st, opts, 120, 40)
	d.open(chatAB)
	d.keys("c")
	footer := d.m.tl.Compare().Progress()
	if !strings.HasPrefix(footer, "107 seqs differ") {
		t.Fatalf("the compare view says %q, want 107 seqs differ (the scan over)", footer)
	}
	d.keys("T")
	d.typeText("1-120")
	d.keys("enter")
	_, md := readOnlyFile(t, opts.TranscriptDir)
	lines := strings.Split(md, "\n")
	if len(lines) < 3 || lines[0] != "# si\\_alice\\_bob: bob and alice compared" || lines[2] != "107 differences between bob and alice in seqs 1–120" {
		t.Errorf("the compare transcript does not open with the view's count (%q):\n%s", footer, md)
	}
	for _, want := range []string{"| 106-107 |  |  | no message (2) | no message (2) | outside alice's window |",
		"| 108-109 |  |  | no message (2) | no message (2) |  |"} {
		if !strings.Contains(md, want) {
			t.Errorf("the holes are not cut where alice's window starts: no %q in\n%s", want, md)
		}
	}
}

// T says what every row shares once, as dump does: alice and bob see
// seqs 20-30 alike, so the header says so and the rows carry no
// difference column; the count says 0.
func TestCompareTranscriptOfRowsAlike(t *testing.T) {
	d, dir, _ := transcriptDriver(t)
	d.open(chatAB)
	d.keys("c", "T")
	d.typeText("20-30")
	d.keys("enter")
	_, md := readOnlyFile(t, dir)
	for _, want := range []string{"compared\n\n0 differences between alice and bob in seqs 20–30\n\n", "| Every row | both see it alike |\n",
		"| seq | time | sender | alice sees | bob sees |\n", "| 20 | 2024-05-01 09:20:00 UTC | Bob | hello 20 from bob | hello 20 from bob |\n"} {
		if !strings.Contains(md, want) {
			t.Errorf("the transcript of rows alike lacks %q:\n%s", want, md)
		}
	}
}

// T's header names the context, as dump's does (README: every transcript
// header names the deployment).
func TestTranscriptNamesTheContext(t *testing.T) {
	st, tb := newTestStore(t, false)
	seedSmall(t, st)
	named := store.New(tb, store.Options{Context: "prod-eu"})
	opts, _ := testOptions(t, "alice")
	opts.TranscriptDir = t.TempDir()
	d := newDriver(t, named, opts, 120, 40)
	d.open(chatAB)
	d.keys("T")
	d.typeText("4-8")
	d.keys("enter")
	if _, md := readOnlyFile(t, opts.TranscriptDir); !strings.Contains(md, "| Context | prod-eu |\n") {
		t.Errorf("the transcript does not name the context:\n%s", md)
	}
}
