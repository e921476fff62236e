package projection

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/chatlens/chatlens/store/bucket"
)

func sharedHead() TranscriptHead {
	w := bucket.Window{Cid: "si_alice_bob", MinSeq: 5, MaxSeq: 9, UserMinSeq: 5}
	return TranscriptHead{Store: "embedded /tmp/s.db", Conversation: "si_alice_bob", Viewer: "alice", ViewerName: "Alice",
		Window: w, From: 5, To: 9, Captured: time.UnixMilli(1700000000000), Version: "chatlens v1.2.3", Zone: time.UTC}
}

func textRow(seq int64, sender, text string, why ...string) TranscriptRow {
	m := Message{MsgData: bucket.MsgData{Seq: seq, SendID: sender, SenderNickname: sender, ContentType: Text, Content: `{"content":"` + text + `"}`, SendTime: 1700000000000 + seq*60000, SessionType: bucket.SessionSingle}}
	return TranscriptRow{Message: m, Why: why}
}

// Rows that all carry the same rules say them once, in the header, and
// leave their why column out; rows that differ keep theirs.
func TestTranscriptSaysASharedRuleOnce(t *testing.T) {
	shared := []string{"shown as stored", "read by Bob (read seq 9)"}
	rows := []TranscriptRow{textRow(5, "bob", "one", shared...), textRow(6, "bob", "two", shared...), textRow(7, "bob", "three", shared...)}
	for _, format := range []string{"markdown", "html"} {
		t.Run(format, func(t *testing.T) {
			out := writeTranscript(format, sharedHead(), rows)
			golden.RequireEqual(t, []byte(out))
			if strings.Count(out, "read by Bob") != 1 {
				t.Errorf("the shared rules are said %d times, want once:\n%s", strings.Count(out, "read by Bob"), out)
			}
		})
	}
	md := writeTranscript("markdown", sharedHead(), rows)
	for _, want := range []string{"| Every row | shown as stored; read by Bob (read seq 9) |\n", "| seq | time | sender | text |\n|---:|---|---|---|\n",
		"| 6 | 2023-11-14 22:19:20 UTC | bob | two |\n"} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
	html := writeTranscript("html", sharedHead(), rows)
	if !strings.Contains(html, "<tr><th>Every row</th><td>shown as stored; read by Bob (read seq 9)</td></tr>") ||
		strings.Contains(html, `class="why"`) || strings.Contains(html, "<th>why</th>") {
		t.Errorf("html does not say the shared rules once in its header:\n%s", html)
	}

	// One row that differs: every row keeps its own.
	mixed := append(rows, textRow(8, "alice", "four", "in del_list of alice"))
	md = writeTranscript("markdown", sharedHead(), mixed)
	if strings.Contains(md, "Every row") || strings.Count(md, "read by Bob") != 3 || !strings.Contains(md, "| 8 | 2023-11-14 22:21:20 UTC | alice | four | in del\\_list of alice |") {
		t.Errorf("rows that differ lost their own rules:\n%s", md)
	}
}

// Once two rows differ, the header and the rows held go out at once and
// the rest streams: a long transcript is not held whole.
func TestTranscriptStreamsOnceRowsDiffer(t *testing.T) {
	w := TranscriptFormats["markdown"].Writer(sharedHead())
	if out := w.Row(textRow(5, "bob", "one", "shown as stored")); out != "" {
		t.Errorf("the first row went out before the header could know its rules: %q", out)
	}
	out := w.Row(textRow(6, "alice", "two", "in del_list of alice"))
	if !strings.HasPrefix(out, "# si\\_alice\\_bob as alice sees it") || !strings.Contains(out, "| 5 | ") || !strings.Contains(out, "| 6 | ") {
		t.Errorf("the second, differing row did not release the header and both rows:\n%s", out)
	}
	if out := w.Row(textRow(7, "bob", "three", "shown as stored")); !strings.HasPrefix(out, "| 7 | ") {
		t.Errorf("a row after them was held: %q", out)
	}
}

func compareHead() TranscriptHead {
	h := sharedHead()
	h.Compare, h.CompareName = "bob", "Bob"
	h.CompareWindow = bucket.Window{Cid: "si_alice_bob", MinSeq: 1, MaxSeq: 7}
	return h
}

// A compare transcript opens with how many seqs the two see differently
// (a run of seqs counted seq by seq, as the compare view counts them), and
// names the seqs only the second viewer sees, outside the first's window.
func TestCompareTranscriptOpensWithItsCount(t *testing.T) {
	alike := textRow(5, "bob", "one")
	deleted := textRow(6, "alice", "two")
	deleted.Other, deleted.Reason = deleted.Message, ReasonDeletedA
	deleted.Message.DeletedForViewer = true
	run := TranscriptRow{Message: Message{MsgData: bucket.MsgData{Seq: 8}, Hole: true}, Other: Message{MsgData: bucket.MsgData{Seq: 8}, Hole: true}, RunTo: 9, Reason: ReasonOutsideB}
	alike.Other = alike.Message
	rows := []TranscriptRow{alike, deleted, {Message: Message{MsgData: bucket.MsgData{Seq: 7}, Hole: true}, Other: Message{MsgData: bucket.MsgData{Seq: 7}, Hole: true}}, run}
	for _, format := range []string{"markdown", "html"} {
		t.Run(format, func(t *testing.T) {
			golden.RequireEqual(t, []byte(writeTranscript(format, compareHead(), rows)))
		})
	}
	md := writeTranscript("markdown", compareHead(), rows)
	want := "# si\\_alice\\_bob: alice and bob compared\n\n3 differences between alice and bob in seqs 5–9\n\nbob also sees seqs 1–4 (4), before alice's window\n\n| | |"
	if !strings.HasPrefix(md, want) {
		t.Errorf("compare transcript starts\n%s\nwant\n%s", md[:min(len(md), len(want)+40)], want)
	}
	if !strings.Contains(md, "| difference |") {
		t.Errorf("rows that differ in different ways lost their difference column:\n%s", md)
	}
	html := writeTranscript("html", compareHead(), rows)
	if !strings.Contains(html, "</h1>\n<p class=\"count\">3 differences between alice and bob in seqs 5–9</p>\n") {
		t.Errorf("html does not open with the count:\n%s", html)
	}

	// Alike everywhere: 0 says so, and "both see it alike" once.
	h := compareHead()
	h.From, h.To, h.CompareWindow = 5, 5, h.Window
	md = writeTranscript("markdown", h, []TranscriptRow{alike})
	for _, want := range []string{"compared\n\n0 differences between alice and bob in seqs 5–5\n\n| | |", "| Every row | both see it alike |",
		"| seq | time | sender | alice sees | bob sees |\n", "| 5 | 2023-11-14 22:18:20 UTC | bob | one | one |\n"} {
		if !strings.Contains(md, want) {
			t.Errorf("a compare transcript of seqs alike lacks %q:\n%s", want, md)
		}
	}
}
