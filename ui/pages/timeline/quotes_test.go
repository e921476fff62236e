package timeline

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/chatlens/chatlens/store/bucket"

	"github.com/chatlens/chatlens/ui/uitest"
)

// wantQuoteRows checks what the open timeline draws of the quotes. A quote
// of a message the viewer deleted is left as stored, as OpenIM leaves it
// (controller/msg.go handlerDBMsg rewrites only a revoked quoted message).
func wantQuoteRows(t *testing.T, view string) {
	t.Helper()
	for seq, want := range map[int64]string{
		340: `re 3 ↩ "Carol revoked a message"`,
		341: `re 4 ↩ "hello 4"`,
		342: `re 5 ↩ "hello 5"`,
		343: `re 250 ↩ "hello 250"`,
	} {
		row := uitest.RowOf(view, seq)
		if !strings.Contains(row, want) {
			t.Errorf("seq %d is drawn %q, want %q in it", seq, row, want)
		}
	}
	for _, hidden := range []string{"hello 3\""} {
		if strings.Contains(view, hidden) {
			t.Errorf("the screen shows the quoted original %s:\n%s", hidden, view)
		}
	}
}

// Opening at the newest bucket, quotes of a revoked and a deleted message in
// bucket 0 show the treatment, not the text: the read that brings the
// screen's buckets brings the quoted slots of bucket 0 too, beside the held
// run.
func TestTimelineTreatsFarQuotes(t *testing.T) {
	st, tb := uitest.NewStore(t, false)
	uitest.SeedFarQuotes(t, st)
	d := newPage(t, st, "alice", 120, 40)
	tb.ResetReads()
	d.open(uitest.ChatQ)
	wantQuoteRows(t, d.view())
	tl := d.tl
	if _, held := heldBuckets(tl)[0]; held || !slices.Equal(sortedKeys(tl.quoted), []int64{3, 4, 5}) {
		t.Errorf("seqs 3-5 of bucket 0 should be kept beside the run (held %v), quoted seqs %v", keys(heldBuckets(tl)), keys(tl.quoted))
	}
	if tl.fetched != 1 {
		t.Errorf("the timeline counts %d bucket reads, want 1: reads for quotes are not timeline buckets", tl.fetched)
	}
	reads := tb.ResetReads()
	if reads[bucket.DocID(uitest.ChatQ, 0)] != 1 || reads[bucket.DocID(uitest.ChatQ, 2)] != 1 || len(reads) != 2 {
		t.Errorf("opening read %v, want buckets 2 (the screen) and 0 (its quoted slots) once each", reads)
	}
}

// Paging down from the oldest message to the newest, bucket 0 leaves the
// held run but its quoted slots stay beside it for the quotes that need
// them: not read again, and the quotes are treated all the way.
func TestQuotedBucketKeptWhenScrolledPast(t *testing.T) {
	st, tb := uitest.NewStore(t, false)
	uitest.SeedFarQuotes(t, st)
	d := newPage(t, st, "alice", 120, 40)
	d.open(uitest.ChatQ)
	d.jump(1)
	if len(d.tl.quoted) != 0 {
		t.Errorf("quoted seqs %v kept after the jump to seq 1", keys(d.tl.quoted))
	}
	tb.ResetReads()
	for step := 0; d.tl.Cursor() < 350; step++ {
		if step > 100 {
			t.Fatal("paging never reached seq 350")
		}
		d.keys("pgdown")
	}
	wantQuoteRows(t, d.view())
	if _, held := heldBuckets(d.tl)[0]; held || !slices.Equal(sortedKeys(d.tl.quoted), []int64{3, 4, 5}) {
		t.Errorf("bucket 0: held %v, quoted seqs %v", keys(heldBuckets(d.tl)), keys(d.tl.quoted))
	}
	for id, n := range tb.ResetReads() {
		if id == bucket.DocID(uitest.ChatQ, 0) || n != 1 {
			t.Errorf("paging down read %s %d times", id, n)
		}
	}
}

func sortedKeys[V any](m map[int64]V) []int64 { return slices.Sorted(maps.Keys(m)) }

func keys[V any](m map[int64]V) []int64 {
	var out []int64
	for k := range m {
		out = append(out, k)
	}
	return out
}

// When what a quote needs is gone from beside the run (its reply landed after
// the bucket was dropped), the quote shows by seq only until one quotes-only
// read brings it back; a failed read says so and R retries it.
func TestLostQuotedBucketIsReadAgain(t *testing.T) {
	st, tb := uitest.NewStore(t, false)
	uitest.SeedFarQuotes(t, st)
	d := newPage(t, st, "alice", 120, 40)
	d.open(uitest.ChatQ)
	tl := d.tl
	delete(tl.quoted, 3)
	if row := uitest.RowOf(d.view(), 340); !strings.Contains(row, `re 3 ↩ [quoted seq 3]`) {
		t.Errorf("an unresolved quote is drawn %q, want it shown by seq only", row)
	}
	tb.ResetReads()
	tb.SetFail(uitest.ErrBoom)
	d.do(tl.quote.readQuoted())
	if tl.Err() == nil || !strings.Contains(d.view(), "connection refused") {
		t.Errorf("a failed read for quotes is not reported:\n%s", d.view())
	}
	if strings.Contains(d.view(), "hello 3\"") {
		t.Errorf("the quoted original shows after a failed read:\n%s", d.view())
	}
	if tl.quote.readQuoted() != nil {
		t.Error("a read for quotes was issued again before any retry")
	}
	tb.SetFail(nil)
	d.do(d.tl.Retry())
	wantQuoteRows(t, d.view())
	reads := tb.ResetReads()
	if reads[bucket.DocID(uitest.ChatQ, 0)] != 2 || len(reads) != 1 {
		t.Errorf("reads %v, want bucket 0 twice (the failure, the retry) and nothing else", reads)
	}
	if tl.fetched != 1 || tl.quote.readQuoted() != nil {
		t.Errorf("timeline reads %d (want 1), or quotes still missing after the retry", tl.fetched)
	}
}

// Opening at the newest bucket, the quotes there reach two buckets behind
// the screen's (seqs 3, 4 and 5 of bucket 0): the open reads those three
// slots of bucket 0, not the whole bucket, and still draws the quotes as
// OpenIM returns them (controller/msg.go handlerDBMsg).
func TestOpeningReadsQuotedSlotsNotTheirBucket(t *testing.T) {
	st, tb := uitest.NewStore(t, false)
	uitest.SeedFarQuotes(t, st)
	d := newPage(t, st, "alice", 120, 40)
	tb.ResetReads()
	d.open(uitest.ChatQ)
	wantQuoteRows(t, d.view())
	whole, slots := tb.ReadKinds()
	quotedDoc := bucket.DocID(uitest.ChatQ, 0)
	if whole[quotedDoc] != 0 || slots[quotedDoc] != 3 {
		t.Errorf("bucket 0 read whole %d times and %d of its slots, want its 3 quoted slots only (whole reads %v)",
			whole[quotedDoc], slots[quotedDoc], whole)
	}
	if whole[bucket.DocID(uitest.ChatQ, 2)] != 1 || len(whole) != 1 || len(slots) != 1 {
		t.Errorf("opening read whole buckets %v and slots %v, want bucket 2 whole and the quoted slots of bucket 0", whole, slots)
	}
}

// TestAQuoteIntoTheNextBucketReadsItOnce: scrolling up, bucket 1 is read
// ahead and its quote of seq 60 reaches only into bucket 0, which the read
// ahead after it asks for: bucket 0 comes whole with bucket 1's read, once
// (before, seq 60's slot was read, then bucket 0 whole soon after).
func TestAQuoteIntoTheNextBucketReadsItOnce(t *testing.T) {
	const cid = "si_alice_dan"
	st, tb := uitest.NewStore(t, false)
	var msgs []*bucket.MsgData
	for i := 1; i <= 400; i++ {
		m := uitest.TextMsg("dan", "alice", "", bucket.SessionSingle, i, fmt.Sprintf("hello %d", i))
		if i == 150 {
			content, _ := json.Marshal(map[string]any{"text": "re 60", "quoteMessage": map[string]any{
				"seq": 60, "sendID": "dan", "contentType": 101, "textElem": map[string]string{"content": "hello 60"}}})
			m.ContentType, m.Content = 114, string(content)
		}
		msgs = append(msgs, m)
	}
	if _, err := st.InsertMessages(t.Context(), cid, 1, msgs); err != nil {
		t.Fatal(err)
	}
	uitest.Insert(t, st, bucket.CollConversation, bucket.Conversation{OwnerUserID: "alice", ConversationID: cid, ConversationType: 1, UserID: "dan"})
	d := newPage(t, st, "alice", 120, 40)
	d.open(cid)
	tb.ResetReads()
	for range 395 {
		d.keys("k")
	}
	if d.tl.Cursor() != 5 {
		t.Fatalf("cursor at %d after 395 k, want 5", d.tl.Cursor())
	}
	if n := tb.ResetReads()[cid+":0"]; n != 1 {
		t.Errorf("bucket 0 read %d times, want once", n)
	}
}
