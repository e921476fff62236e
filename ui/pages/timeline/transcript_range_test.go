package timeline

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/ui/uitest"
)

// transcriptPage is alice's chat with bob (uitest.SeedSmall) open, T
// writing into a directory of its own.
func transcriptPage(t *testing.T) *page {
	t.Helper()
	st, _ := uitest.NewStore(t, false)
	uitest.SeedSmall(t, st)
	return transcriptPageOn(t, st, "alice", uitest.ChatAB)
}

func transcriptPageOn(t *testing.T, st *store.Store, viewer, cid string) *page {
	t.Helper()
	p := newPage(t, st, viewer, 120, 40)
	p.e.TranscriptDir = t.TempDir()
	p.open(cid)
	return p
}

// transcript is T, the range typed, enter: the root gives the typed range
// to the timeline.
func (p *page) transcript(typed string) {
	p.press(func() tea.Cmd { return p.tl.Transcript().Write(typed) })
}

// compare is c in a single chat: the compare view with the one other
// member, no picker.
func (p *page) compare() {
	p.t.Helper()
	p.status = ""
	cmd, pick := p.tl.Compare().Toggle()
	if pick {
		p.t.Fatal("c in a single chat asks whom to compare with")
	}
	p.do(cmd)
}

// In compare, the transcript holds both viewers and the differences; a
// second one never overwrites the first.
func TestTranscriptInCompare(t *testing.T) {
	p := transcriptPage(t)
	dir := p.e.TranscriptDir
	p.compare()
	p.transcript("5-6")
	_, md := uitest.ReadOnlyFile(t, dir)
	for _, want := range []string{"alice and bob compared", "| Compared with | bob (Bob) |",
		"| seq | time | sender | alice sees | bob sees | difference |", "deleted for alice only"} {
		if !strings.Contains(md, want) {
			t.Errorf("compare transcript lacks %q:\n%s", want, md)
		}
	}
	p.transcript("5-6")
	if files, _ := filepath.Glob(filepath.Join(dir, "*.md")); len(files) != 2 {
		t.Errorf("a second transcript of the same range: files %v, want two", files)
	}
}

// A date range is the messages sent from the first moment typed through
// the last one: its last minute is in it (it stopped at 09:20, seq 19),
// and the header says what was asked and the seqs it covers.
func TestTranscriptOfADateRange(t *testing.T) {
	p := transcriptPage(t)
	p.transcript("2024-05-01 09:10..2024-05-01 09:20")
	_, md := uitest.ReadOnlyFile(t, p.e.TranscriptDir)
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
	p := transcriptPage(t)
	p.transcript("2024-04-30..2024-05-01")
	_, md := uitest.ReadOnlyFile(t, p.e.TranscriptDir)
	if !strings.Contains(md, "| Seqs | 1-120 |") || !strings.Contains(md, "| 120 | ") {
		t.Errorf("the messages of 30 April through 1 May are seqs 1-120:\n%s", md)
	}
}

// A range whose first date is after its last says it is reversed (it
// said it was not a date range), and writes nothing.
func TestTranscriptOfAReversedRangeSaysSo(t *testing.T) {
	p := transcriptPage(t)
	p.transcript("2024-05-29..2024-05-28")
	if !strings.Contains(p.status, "dates 2024-05-29..2024-05-28 are reversed: the first is after the last") {
		t.Errorf("status %q does not say the range is reversed", p.status)
	}
	if files, _ := filepath.Glob(filepath.Join(p.e.TranscriptDir, "*")); len(files) != 0 {
		t.Errorf("files written: %v", files)
	}
}

// T in a conversation whose ID is 300 characters long writes its
// transcript (it failed: "file name too long"), under a name a file
// system takes.
func TestTranscriptOfALongConversationID(t *testing.T) {
	st, _ := uitest.NewStore(t, false)
	uitest.SeedSmall(t, st)
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
	p := transcriptPageOn(t, st, "alice", cid)
	p.transcript("1-3")
	path, md := uitest.ReadOnlyFile(t, p.e.TranscriptDir)
	if !strings.Contains(md, "long way") || len(filepath.Base(path)) > 255 {
		t.Errorf("status %q; %s:\n%s", p.status, path, md)
	}
}

// T in compare writes a file whose first line after the title is the
// number of differences, the count the compare view's footer shows: here
// bob against alice, who cleared her history before seq 108, so seqs
// 1-107 are outside her window, the run of holes 106-109 among them in
// part (106-107) and counted seq by seq, as the view counts them.
func TestCompareTranscriptOpensWithTheViewsCount(t *testing.T) {
	st, _ := uitest.NewStore(t, false)
	uitest.SeedSmall(t, st)
	uitest.Insert(t, st, bucket.CollSeqUser, bucket.SeqUser{UserID: "alice", ConversationID: uitest.ChatAB, MinSeq: 108, ReadSeq: 100})
	p := transcriptPageOn(t, st, "bob", uitest.ChatAB)
	p.compare()
	footer := p.tl.Compare().Progress()
	if !strings.HasPrefix(footer, "107 seqs differ") {
		t.Fatalf("the compare view says %q, want 107 seqs differ (the scan over)", footer)
	}
	p.transcript("1-120")
	_, md := uitest.ReadOnlyFile(t, p.e.TranscriptDir)
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
	p := transcriptPage(t)
	p.compare()
	p.transcript("20-30")
	_, md := uitest.ReadOnlyFile(t, p.e.TranscriptDir)
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
	st, tb := uitest.NewStore(t, false)
	uitest.SeedSmall(t, st)
	named := store.New(tb, store.Options{Context: "prod-eu"})
	p := transcriptPageOn(t, named, "alice", uitest.ChatAB)
	p.transcript("4-8")
	if _, md := uitest.ReadOnlyFile(t, p.e.TranscriptDir); !strings.Contains(md, "| Context | prod-eu |\n") {
		t.Errorf("the transcript does not name the context:\n%s", md)
	}
}
