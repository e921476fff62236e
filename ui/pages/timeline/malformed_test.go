package timeline

import (
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/check/checktest"
	"github.com/chatlens/chatlens/ui/components/inspector"
	"github.com/chatlens/chatlens/ui/uitest"
)

// TestMalformedBucketsAreMarked opens a conversation holding each bucket of
// the malformed catalogue that check reports (issue 5): nothing panics, the
// screen stays safe, and the broken slot, or the broken bucket, is marked.
// Empty slots with an extra field are the exception: nothing a reader sees
// changes, so they draw as plain holes. So are
// documents whose doc_id addresses no bucket: only check can find them.
func TestMalformedBucketsAreMarked(t *testing.T) {
	const width, height = 120, 40
	for _, c := range checktest.Catalogue() {
		t.Run(c.Name, func(t *testing.T) {
			st, _ := uitest.NewStore(t, false)
			uitest.Insert(t, st, bucket.CollMsg, c.Doc)
			uitest.Insert(t, st, bucket.CollConversation,
				bucket.Conversation{OwnerUserID: checktest.Alice, ConversationID: checktest.Cid, ConversationType: 1, UserID: checktest.Bob})
			uitest.Insert(t, st, bucket.CollSeq, bucket.SeqRecord{ConversationID: checktest.Cid, MaxSeq: 30})
			p := newPage(t, st, checktest.Alice, width, height)
			p.list.SetSize(width, height)
			uitest.WantSafeScreen(t, "list", p.list.View(), width)
			p.open(checktest.Cid)
			view := p.view()
			uitest.WantSafeScreen(t, "timeline", view, width)

			switch {
			case c.Kind == bucket.KindEmptySlot:
				// Past the last message, so not even drawn; nothing is marked.
				if strings.Contains(view, "malformed") {
					t.Errorf("an odd empty slot is marked:\n%s", view)
				}
			case c.Kind == bucket.KindDocID:
				// No conversation's reads can address this document (its
				// doc_id names no bucket): check reports it, and the
				// conversation opens without it.
			case c.Slot >= 0:
				seq := int64(c.Slot) + 1
				p.jump(seq)
				row := uitest.RowOf(p.view(), seq)
				if !strings.Contains(row, "! ") || !strings.Contains(row, "malformed") {
					t.Errorf("seq %d drawn as %q, want a ! malformed marker", seq, row)
				}
				lines := p.inspect()
				if !strings.Contains(lines, "problem:") {
					t.Errorf("the inspector of seq %d names no problem:\n%s", seq, lines)
				}
				// Drawn in the root's overlay, which wraps the lines to the screen.
				box := inspector.New(p.e)
				box.SetSize(width, height-2)
				box.SetContent(p.tl.Cursor(), p.tl.Inspector().Lines(width))
				uitest.WantSafeScreen(t, "inspector", box.View(), width)
			default:
				if !strings.Contains(view, "malformed") {
					t.Errorf("a broken bucket shows no marker:\n%s", view)
				}
			}
		})
	}
}

// TestTranscriptNamesAMalformedBucket: T over a bucket whose msgs is no
// array writes its seqs as the timeline shows them, under the bucket's
// name and problem, never as seqs with no message alone.
func TestTranscriptNamesAMalformedBucket(t *testing.T) {
	st, _ := uitest.NewStore(t, false)
	uitest.Insert(t, st, bucket.CollMsg, bson.D{{Key: "doc_id", Value: checktest.Cid + ":0"}, {Key: "msgs", Value: "junk"}})
	uitest.Insert(t, st, bucket.CollConversation,
		bucket.Conversation{OwnerUserID: checktest.Alice, ConversationID: checktest.Cid, ConversationType: 1, UserID: checktest.Bob})
	uitest.Insert(t, st, bucket.CollSeq, bucket.SeqRecord{ConversationID: checktest.Cid, MaxSeq: 30})
	p := newPage(t, st, checktest.Alice, 120, 40)
	p.e.TranscriptDir = t.TempDir()
	p.open(checktest.Cid)
	if v := p.view(); !strings.Contains(v, "! malformed bucket "+checktest.Cid+":0: msgs is string, not an array") {
		t.Fatalf("the timeline does not name the bucket:\n%s", v)
	}
	p.do(p.tl.Transcript().Write("1-30")) // T, 1-30, enter
	_, md := uitest.ReadOnlyFile(t, p.e.TranscriptDir)
	if !strings.Contains(strings.ReplaceAll(md, `\_`, "_"), "| 1-30 |  |  | ! malformed bucket "+checktest.Cid+":0: msgs is string, not an array · no message (30) |") {
		t.Errorf("the transcript does not name the bucket as the timeline does:\n%s", md)
	}
}
