package ui

import (
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
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
