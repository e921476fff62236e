package ui

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
)

const chatQ = "si_alice_carol"

// seedFarQuotes writes 350 messages of alice and carol (four buckets): seq 3
// revoked by carol, seq 4 deleted for alice, and quotes at the newest end
// reaching back to them: 340 → 3, 341 → 4, 342 → 5 (visible), 343 → 250,
// and the last message, 350 → 3.
func seedFarQuotes(t *testing.T, st *store.Store) {
	t.Helper()
	ctx := context.Background()
	quotes := map[int]int{340: 3, 341: 4, 342: 5, 343: 250, 350: 3}
	var msgs []*bucket.MsgData
	for i := 1; i <= 350; i++ {
		from, to := "carol", "alice"
		if i%2 == 0 {
			from, to = "alice", "carol"
		}
		m := textMsg(from, to, "", bucket.SessionSingle, i, fmt.Sprintf("hello %d", i))
		if q, ok := quotes[i]; ok {
			quoted := msgs[q-1]
			content, _ := json.Marshal(map[string]any{"text": fmt.Sprint("re ", q), "quoteMessage": map[string]any{
				"seq": q, "sendID": quoted.SendID, "senderNickname": quoted.SenderNickname, "contentType": 101,
				"content": quoted.Content, "status": 2, "textElem": map[string]string{"content": fmt.Sprint("hello ", q)}}})
			m.ContentType, m.Content = 114, string(content)
		}
		msgs = append(msgs, m)
	}
	for _, err := range []error{
		second(st.InsertMessages(ctx, chatQ, 1, msgs)),
		second(st.Revoke(ctx, chatQ, []int64{3}, bucket.Revoke{UserID: "carol", Nickname: "Carol", Role: 100, Time: base.UnixMilli()})),
		second(st.DeleteForMe(ctx, chatQ, []int64{4}, "alice")),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	insertRaw(t, st, bucket.CollConversation,
		bucket.Conversation{OwnerUserID: "alice", ConversationID: chatQ, ConversationType: 1, UserID: "carol"},
		// carol's own: without it OpenIM pulls her nothing of the chat.
		bucket.Conversation{OwnerUserID: "carol", ConversationID: chatQ, ConversationType: 1, UserID: "alice"})
}

func second[T any](_ T, err error) error { return err }

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
		row := rowOf(view, seq)
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
	st, tb := newTestStore(t, false)
	seedFarQuotes(t, st)
	opts, _ := testOptions(t, "alice")
	d := newDriver(t, st, opts, 120, 40)
	if view := d.m.View(); strings.Contains(view, "hello 3") || !strings.Contains(view, "[quoted seq 3]") {
		t.Errorf("the list preview of a quote of a far seq is not shown by seq only:\n%s", view)
	}
	tb.resetReads()
	d.open(chatQ)
	wantQuoteRows(t, d.m.View())
	tl := d.m.tl
	if _, held := heldBuckets(tl)[0]; held || !slices.Equal(sortedKeys(tl.quoted), []int64{3, 4, 5}) {
		t.Errorf("seqs 3-5 of bucket 0 should be kept beside the run (held %v), quoted seqs %v", keys(heldBuckets(tl)), keys(tl.quoted))
	}
	if tl.fetched != 1 {
		t.Errorf("the timeline counts %d bucket reads, want 1: reads for quotes are not timeline buckets", tl.fetched)
	}
	reads := tb.resetReads()
	if reads[bucket.DocID(chatQ, 0)] != 1 || reads[bucket.DocID(chatQ, 2)] != 1 || len(reads) != 2 {
		t.Errorf("opening read %v, want buckets 2 (the screen) and 0 (its quoted slots) once each", reads)
	}
}

// Paging down from the oldest message to the newest, bucket 0 leaves the
// held run but its quoted slots stay beside it for the quotes that need
// them: not read again, and the quotes are treated all the way.
func TestQuotedBucketKeptWhenScrolledPast(t *testing.T) {
	st, tb := newTestStore(t, false)
	seedFarQuotes(t, st)
	opts, _ := testOptions(t, "alice")
	d := newDriver(t, st, opts, 120, 40)
	d.open(chatQ)
	d.jump(1)
	if len(d.m.tl.quoted) != 0 {
		t.Errorf("quoted seqs %v kept after the jump to seq 1", keys(d.m.tl.quoted))
	}
	tb.resetReads()
	for step := 0; d.m.tl.cursor < 350; step++ {
		if step > 100 {
			t.Fatal("paging never reached seq 350")
		}
		d.keys("pgdown")
	}
	wantQuoteRows(t, d.m.View())
	if _, held := heldBuckets(d.m.tl)[0]; held || !slices.Equal(sortedKeys(d.m.tl.quoted), []int64{3, 4, 5}) {
		t.Errorf("bucket 0: held %v, quoted seqs %v", keys(heldBuckets(d.m.tl)), keys(d.m.tl.quoted))
	}
	for id, n := range tb.resetReads() {
		if id == bucket.DocID(chatQ, 0) || n != 1 {
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
	st, tb := newTestStore(t, false)
	seedFarQuotes(t, st)
	opts, _ := testOptions(t, "alice")
	d := newDriver(t, st, opts, 120, 40)
	d.open(chatQ)
	tl := d.m.tl
	delete(tl.quoted, 3)
	if row := rowOf(d.m.View(), 340); !strings.Contains(row, `re 3 ↩ [quoted seq 3]`) {
		t.Errorf("an unresolved quote is drawn %q, want it shown by seq only", row)
	}
	tb.resetReads()
	tb.setFail(errBoom)
	d.run(tl.readQuoted())
	if tl.err == nil || !strings.Contains(d.m.View(), "connection refused") {
		t.Errorf("a failed read for quotes is not reported:\n%s", d.m.View())
	}
	if strings.Contains(d.m.View(), "hello 3\"") {
		t.Errorf("the quoted original shows after a failed read:\n%s", d.m.View())
	}
	if tl.readQuoted() != nil {
		t.Error("a read for quotes was issued again before any retry")
	}
	tb.setFail(nil)
	d.keys("R")
	wantQuoteRows(t, d.m.View())
	reads := tb.resetReads()
	if reads[bucket.DocID(chatQ, 0)] != 2 || len(reads) != 1 {
		t.Errorf("reads %v, want bucket 0 twice (the failure, the retry) and nothing else", reads)
	}
	if tl.fetched != 1 || tl.readQuoted() != nil {
		t.Errorf("timeline reads %d (want 1), or quotes still missing after the retry", tl.fetched)
	}
}

// Opening at the newest bucket, the quotes there reach two buckets behind
// the screen's (seqs 3, 4 and 5 of bucket 0): the open reads those three
// slots of bucket 0, not the whole bucket, and still draws the quotes as
// OpenIM returns them (controller/msg.go handlerDBMsg).
func TestOpeningReadsQuotedSlotsNotTheirBucket(t *testing.T) {
	st, tb := newTestStore(t, false)
	seedFarQuotes(t, st)
	opts, _ := testOptions(t, "alice")
	d := newDriver(t, st, opts, 120, 40)
	tb.resetReads()
	d.open(chatQ)
	wantQuoteRows(t, d.m.View())
	whole, slots := tb.readKinds()
	quotedDoc := bucket.DocID(chatQ, 0)
	if whole[quotedDoc] != 0 || slots[quotedDoc] != 3 {
		t.Errorf("bucket 0 read whole %d times and %d of its slots, want its 3 quoted slots only (whole reads %v)",
			whole[quotedDoc], slots[quotedDoc], whole)
	}
	if whole[bucket.DocID(chatQ, 2)] != 1 || len(whole) != 1 || len(slots) != 1 {
		t.Errorf("opening read whole buckets %v and slots %v, want bucket 2 whole and the quoted slots of bucket 0", whole, slots)
	}
}

// TestAQuoteIntoTheNextBucketReadsItOnce: scrolling up, bucket 1 is read
// ahead and its quote of seq 60 reaches only into bucket 0, which the read
// ahead after it asks for: bucket 0 comes whole with bucket 1's read, once
// (before, seq 60's slot was read, then bucket 0 whole soon after).
func TestAQuoteIntoTheNextBucketReadsItOnce(t *testing.T) {
	const cid = "si_alice_dan"
	st, tb := newTestStore(t, false)
	var msgs []*bucket.MsgData
	for i := 1; i <= 400; i++ {
		m := textMsg("dan", "alice", "", bucket.SessionSingle, i, fmt.Sprintf("hello %d", i))
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
	insertRaw(t, st, bucket.CollConversation, bucket.Conversation{OwnerUserID: "alice", ConversationID: cid, ConversationType: 1, UserID: "dan"})
	opts, _ := testOptions(t, "alice")
	d := newDriver(t, st, opts, 120, 40)
	d.open(cid)
	tb.resetReads()
	for range 395 {
		d.keys("k")
	}
	if d.m.tl.cursor != 5 {
		t.Fatalf("cursor at %d after 395 k, want 5", d.m.tl.cursor)
	}
	if n := tb.resetReads()[cid+":0"]; n != 1 {
		t.Errorf("bucket 0 read %d times, want once", n)
	}
}
