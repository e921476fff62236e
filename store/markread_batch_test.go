package store_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/testkit"
)

// markRequests records the buckets of each mark read request that reaches
// the backend, and loses the reply of request loseReplyOf (1-based; 0:
// none) after the request ran, as a connection dropped before the answer.
// It serves store.BucketWriter's MarkSlotsRead; every other call goes
// to the Backend it wraps.
type markRequests struct {
	store.Backend
	buckets     []int
	loseReplyOf int
}

func (b *markRequests) MarkSlotsRead(ctx context.Context, runs []store.BucketSlots, reader string) (int, error) {
	b.buckets = append(b.buckets, len(runs))
	ran, err := b.Backend.MarkSlotsRead(ctx, runs, reader)
	if err == nil && len(b.buckets) == b.loseReplyOf {
		return 0, fmt.Errorf("update msg: connection reset: %w", store.ErrOutcomeUnknown)
	}
	return ran, err
}

// fortyBuckets is si_alice_bob with 3950 messages, alice sending the odd
// seqs and bob the even ones; seqs 3951-4000 of bucket 39 are holes.
func fortyBuckets(t *testing.T) store.Backend {
	t.Helper()
	b := testkit.TempBackend(t)
	msgs := textMsgs(3950)
	for i, m := range msgs {
		if i%2 == 1 {
			m.SendID, m.RecvID = "bob", "alice"
		} else {
			m.RecvID = "bob"
		}
	}
	if _, err := store.New(b, store.Options{}).InsertMessages(t.Context(), "si_alice_bob", 1, msgs); err != nil {
		t.Fatal(err)
	}
	return b
}

func seqRange(from, to int64) []int64 {
	out := make([]int64, 0, to-from+1)
	for seq := from; seq <= to; seq++ {
		out = append(out, seq)
	}
	return out
}

// TestMarkReadOfFortyBucketsIsThreeRequests: bob marks seqs 1-4000 (40
// buckets) read in 3 write requests of 16, 16 and 8 buckets, then raises
// his read seq: 4 writes, where one request per bucket made 41. The slots
// marked are the ones /msg/mark_msgs_as_read marks: every seq bob did not
// send, the holes included (the {$ne: reader} filter matches a slot with
// no send_id), none of his own.
func TestMarkReadOfFortyBucketsIsThreeRequests(t *testing.T) {
	const cid = "si_alice_bob"
	requests := &markRequests{Backend: fortyBuckets(t)}
	counted := &countingBackend{Backend: requests}
	s := store.New(counted, store.Options{})
	res, err := s.MarkRead(t.Context(), cid, seqRange(1, 4000), "bob")
	if err != nil || len(res.Applied) != 4000 {
		t.Fatalf("mark read of 1-4000: %v, %d seqs applied; want all 4000", err, len(res.Applied))
	}
	if got := fmt.Sprint(requests.buckets); got != "[16 16 8]" || counted.writes.Load() != 4 {
		t.Errorf("mark read requests of %s buckets, %d writes in all; want [16 16 8] and 4 (3 requests, the read seq)", got, counted.writes.Load())
	}
	var want []int64
	for seq := int64(1); seq <= 4000; seq++ {
		if seq%2 == 1 || seq > 3950 {
			want = append(want, seq)
		}
	}
	if got := slotsWhere(t, s, cid, 4000, func(sl *bucket.Slot) bool { return sl.IsRead }); got != store.FormatSeqs(want) {
		t.Errorf("is_read on seq %s; want alice's seqs and the holes, %s", got, store.FormatSeqs(want))
	}
	ws, err := s.Windows(t.Context(), "bob", []string{cid}, nil)
	if err != nil || ws[cid].ReadSeq != 4000 {
		t.Errorf("read seq %d (%v), want 4000", ws[cid].ReadSeq, err)
	}
}

// TestMarkReadWhoseReplyIsLostIsUnknownForItsRequest: the second of the
// three requests of a mark read of 40 buckets runs and loses its reply.
// Its 16 buckets (seq 1601-3200) are unknown, never "not done", in the
// error and the audit log; the first request's are done and the read seq
// is raised to them; the third request is never sent.
func TestMarkReadWhoseReplyIsLostIsUnknownForItsRequest(t *testing.T) {
	const cid = "si_alice_bob"
	requests := &markRequests{Backend: fortyBuckets(t), loseReplyOf: 2}
	var log bytes.Buffer
	s := store.New(requests, store.Options{Audit: store.NewAuditLog(&log), Operator: "ops"})
	res, err := s.MarkRead(t.Context(), cid, seqRange(1, 4000), "bob")
	if !errors.Is(err, store.ErrOutcomeUnknown) || !strings.Contains(err.Error(), "done for seq 1-1600 only, seq 1601-3200 unknown") ||
		!strings.Contains(err.Error(), "read seq raised to 1600") {
		t.Errorf("mark read whose second reply was lost: %v; want 1-1600 done, 1601-3200 unknown, the read seq raised to 1600", err)
	}
	if store.FormatSeqs(res.Applied) != "1-1600" || store.FormatSeqs(res.Unknown) != "1601-3200" || len(requests.buckets) != 2 {
		t.Errorf("applied %s, unknown %s after %d requests; want 1-1600, 1601-3200, 2", store.FormatSeqs(res.Applied), store.FormatSeqs(res.Unknown), len(requests.buckets))
	}
	entries := testkit.AuditEntries(t, log.Bytes())
	last := entries[len(entries)-1]
	if store.FormatSeqs(last.Applied) != "1-1600" || store.FormatSeqs(last.Unknown) != "1601-3200" {
		t.Errorf("audit outcome applied %s, unknown %s; want 1-1600, 1601-3200", store.FormatSeqs(last.Applied), store.FormatSeqs(last.Unknown))
	}
	ws, err := s.Windows(t.Context(), "bob", []string{cid}, nil)
	if err != nil || ws[cid].ReadSeq != 1600 {
		t.Errorf("read seq %d (%v), want 1600", ws[cid].ReadSeq, err)
	}
}

// firstBucketThenStepDown runs only the first bucket of the first mark
// read request and answers "nothing written" for the rest, as an ordered
// BulkWrite stopped by a primary stepping down there does; later requests
// run whole. It records the doc_ids and slot counts of each request.
// It serves store.BucketWriter's MarkSlotsRead; every other call goes
// to the Backend it wraps.
type firstBucketThenStepDown struct {
	store.Backend
	requests []string
}

func (b *firstBucketThenStepDown) MarkSlotsRead(ctx context.Context, runs []store.BucketSlots, reader string) (int, error) {
	var sent []string
	for _, r := range runs {
		sent = append(sent, fmt.Sprintf("%s×%d", r.DocID, len(r.Slots)))
	}
	b.requests = append(b.requests, strings.Join(sent, " "))
	if len(b.requests) > 1 {
		return b.Backend.MarkSlotsRead(ctx, runs, reader)
	}
	ran, err := b.Backend.MarkSlotsRead(ctx, runs[:1], reader)
	if err != nil {
		return ran, err
	}
	return ran, fmt.Errorf("update msg: PrimarySteppedDown: %w", store.ErrNotWritten)
}

// TestMarkReadRetrySendsOnlyTheBucketsNotReached: a request of three
// buckets stopped after the first is tried again with the other two only,
// and the mark read ends done, every seq marked as before, one retry
// audited.
func TestMarkReadRetrySendsOnlyTheBucketsNotReached(t *testing.T) {
	const cid = "si_alice_bob"
	b := &firstBucketThenStepDown{Backend: fortyBuckets(t)}
	var log bytes.Buffer
	s := store.New(b, store.Options{Audit: store.NewAuditLog(&log), Operator: "ops"})
	res, err := s.MarkRead(t.Context(), cid, seqRange(1, 300), "bob")
	if err != nil || len(res.Applied) != 300 {
		t.Fatalf("mark read of 1-300: %v, %d applied; want done", err, len(res.Applied))
	}
	want := []string{cid + ":0×100 " + cid + ":1×100 " + cid + ":2×100", cid + ":1×100 " + cid + ":2×100"}
	if fmt.Sprint(b.requests) != fmt.Sprint(want) {
		t.Errorf("mark read requests %q; want %q", b.requests, want)
	}
	if last := testkit.AuditEntries(t, log.Bytes()); last[len(last)-1].Retried != 1 {
		t.Errorf("audit retried %d; want one retry", last[len(last)-1].Retried)
	}
	var odd []int64
	for seq := int64(1); seq <= 300; seq += 2 {
		odd = append(odd, seq)
	}
	if got := slotsWhere(t, s, cid, 300, func(sl *bucket.Slot) bool { return sl.IsRead }); got != store.FormatSeqs(odd) {
		t.Errorf("is_read on seq %s; want alice's, %s", got, store.FormatSeqs(odd))
	}
}
