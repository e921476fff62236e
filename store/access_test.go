package store_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/testkit"
)

// noWrites fails the test the moment any write method of the backend is
// called: a read-only store must refuse before it reaches the server.
// It serves the writes of store.BucketWriter, store.SeqRecorder and
// store.RawDocs; every other call goes to the Backend it wraps.
type noWrites struct {
	store.Backend
	t *testing.T
}

func (n noWrites) fail(method string) error {
	n.t.Errorf("read-only store called %s on the backend", method)
	return errors.New("write reached the backend")
}

func (n noWrites) SetSlotField(context.Context, string, int, string, any) (bool, error) {
	return false, n.fail("SetSlotField")
}
func (n noWrites) SetSlotFieldIfUnset(context.Context, string, int, string, any) (bool, error) {
	return false, n.fail("SetSlotFieldIfUnset")
}
func (n noWrites) InsertBucket(context.Context, *bucket.Doc) error { return n.fail("InsertBucket") }
func (n noWrites) AddToDelList(context.Context, string, int, []string) (bool, error) {
	return false, n.fail("AddToDelList")
}
func (n noWrites) MarkSlotRead(context.Context, string, int, string) (bool, error) {
	return false, n.fail("MarkSlotRead")
}
func (n noWrites) SetSlotsField(context.Context, string, string, []store.SlotValue) (bool, error) {
	return false, n.fail("SetSlotsField")
}
func (n noWrites) SetSlotsFieldIfUnset(context.Context, string, string, []store.SlotValue) (bool, error) {
	return false, n.fail("SetSlotsFieldIfUnset")
}
func (n noWrites) AddToDelLists(context.Context, string, []int, []string) (int, error) {
	return 0, n.fail("AddToDelLists")
}
func (n noWrites) MarkSlotsRead(context.Context, []store.BucketSlots, string) (int, error) {
	return 0, n.fail("MarkSlotsRead")
}
func (n noWrites) RaiseMaxSeq(context.Context, string, int64) error { return n.fail("RaiseMaxSeq") }
func (n noWrites) RaiseReadSeq(context.Context, string, string, int64) error {
	return n.fail("RaiseReadSeq")
}
func (n noWrites) InsertRaw(context.Context, string, []bson.Raw, store.RawMode) (store.RawResult, error) {
	return store.RawResult{}, n.fail("InsertRaw")
}
func (n noWrites) EnsureIndexes(context.Context) error { return n.fail("EnsureIndexes") }

// noCacheWrites fails the test on any cache write (invalidation, read seq).
type noCacheWrites struct {
	t *testing.T
}

func (c noCacheWrites) Slots(context.Context, string, []int64) (map[int64]*bucket.Slot, error) {
	return nil, nil
}
func (c noCacheWrites) Invalidate(context.Context, string, []int64) error {
	c.t.Error("read-only store invalidated cache keys")
	return nil
}
func (c noCacheWrites) MaxSeqs(context.Context, []string) (map[string]int64, error) { return nil, nil }
func (c noCacheWrites) ReadSeqs(context.Context, string, []string) (map[string]int64, error) {
	return nil, nil
}
func (c noCacheWrites) ReadSeqsOf(context.Context, string, []string) (map[string]int64, error) {
	return nil, nil
}
func (c noCacheWrites) RaiseReadSeq(context.Context, string, string, int64) error {
	c.t.Error("read-only store raised a cached read seq")
	return nil
}
func (c noCacheWrites) Describe() string { return "no-writes cache" }
func (c noCacheWrites) Close() error     { return nil }

// TestReadOnlyNeverReachesAWriteMethod runs every write and every read of a
// read-only Store over a backend and cache that fail on any write call.
func TestReadOnlyNeverReachesAWriteMethod(t *testing.T) {
	b := testkit.TempBackend(t)
	seed := store.New(b, store.Options{})
	if _, err := seed.InsertMessages(t.Context(), "si_alice_bob", 1, textMsgs(120)); err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	s := store.New(noWrites{Backend: b, t: t}, store.Options{Cache: noCacheWrites{t: t}, ReadOnly: true,
		Audit: store.NewAuditLog(&log), Operator: "ops"})
	ctx := t.Context()
	for _, w := range writes {
		if _, err := w.run(ctx, s); !errors.Is(err, store.ErrReadOnly) {
			t.Errorf("%s: %v, want ErrReadOnly", w.action, err)
		}
	}
	// Reads stay reads, whatever they find.
	if _, err := s.Windows(ctx, "bob", []string{"si_alice_bob", "sg_none"}, nil); err != nil {
		t.Error(err)
	}
	if _, err := s.Buckets(ctx, "si_alice_bob", []int64{0, 1, 7}, 120); err != nil {
		t.Error(err)
	}
	if _, err := s.ConversationsOf(ctx, "bob"); err != nil {
		t.Error(err)
	}
	if _, err := s.Members(ctx, "si_alice_bob"); err != nil {
		t.Error(err)
	}
	entries := testkit.AuditEntries(t, log.Bytes())
	if len(entries) != len(writes) {
		t.Fatalf("%d audit lines for %d refused writes", len(entries), len(writes))
	}
	for _, e := range entries {
		if e.Result != "refused" || e.Error == "" {
			t.Errorf("refusal audited as %+v", e)
		}
	}
}

// TestAuditLineNamesWhoWhatWhereAndOutcome reads the audit log as a person
// or a log shipper would: one JSON object a line, with the operator, the
// action, the conversation and seqs it targeted, and the result, for a
// write that succeeded, one that failed half way, and one refused.
func TestAuditLineNamesWhoWhatWhereAndOutcome(t *testing.T) {
	var log bytes.Buffer
	audit := store.NewAuditLog(&log)
	ok := store.New(testkit.TempBackend(t), store.Options{Audit: audit, Operator: "ops@host"})
	if _, err := ok.InsertMessages(t.Context(), "si_alice_bob", 99, textMsgs(4)); err != nil {
		t.Fatal(err)
	}
	// The first bucket is written, then the backend fails: partial, not a success.
	half := &countingBackend{Backend: testkit.TempBackend(t)}
	failing := &failAfter{countingBackend: half, after: 2}
	fs := store.New(failing, store.Options{Audit: audit, Operator: "ops@host"})
	if _, err := fs.InsertMessages(t.Context(), "si_alice_bob", 99, textMsgs(4)); err == nil {
		t.Fatal("a write that failed half way reported success")
	}
	ro := store.New(testkit.TempBackend(t), store.Options{Audit: audit, Operator: "ops@host", ReadOnly: true})
	_, _ = ro.DeleteForMe(t.Context(), "si_alice_bob", []int64{7, 8, 9}, "bob")

	lines := strings.Split(strings.TrimSpace(log.String()), "\n")
	if len(lines) != 5 {
		t.Fatalf("audit log holds %d lines, want 5:\n%s", len(lines), log.String())
	}
	// Each write: its intent before, its outcome after; seqs as ranges.
	want := []struct {
		action, result string
		seqs           string
	}{{"insert", "intent", "99-102"}, {"insert", "ok", "99-102"}, {"insert", "intent", "99-102"},
		{"insert", "partial", "99-102"}, {"delete", "refused", "7-9"}}
	for i, line := range lines {
		var got map[string]any
		if err := json.Unmarshal([]byte(line), &got); err != nil {
			t.Fatalf("line %d is not JSON: %q", i+1, line)
		}
		for _, key := range []string{"time", "operator", "action", "conversation", "seqs", "result"} {
			if _, ok := got[key]; !ok {
				t.Errorf("line %d has no %q: %s", i+1, key, line)
			}
		}
		if got["operator"] != "ops@host" || got["action"] != want[i].action || got["conversation"] != "si_alice_bob" ||
			got["result"] != want[i].result || got["seqs"] != want[i].seqs {
			t.Errorf("line %d = %s, want %s of seqs %v %s by ops@host", i+1, line, want[i].action, want[i].seqs, want[i].result)
		}
		if want[i].result != "ok" && want[i].result != "intent" && got["error"] == nil {
			t.Errorf("line %d does not say why: %s", i+1, line)
		}
	}
}

// failAfter lets the first n writes through, then fails every write.
type failAfter struct {
	*countingBackend
	after int64
}

func (f *failAfter) InsertBucket(ctx context.Context, d *bucket.Doc) error {
	if f.writes.Add(1) > f.after {
		return errors.New("connection reset")
	}
	return f.countingBackend.Backend.InsertBucket(ctx, d)
}

func (f *failAfter) SetSlotFieldIfUnset(ctx context.Context, id string, slot int, field string, v any) (bool, error) {
	if f.writes.Add(1) > f.after {
		return false, errors.New("connection reset")
	}
	return f.countingBackend.Backend.SetSlotFieldIfUnset(ctx, id, slot, field, v)
}

func (f *failAfter) SetSlotsField(ctx context.Context, id, field string, sets []store.SlotValue) (bool, error) {
	if f.writes.Add(1) > f.after {
		return false, errors.New("connection reset")
	}
	return f.countingBackend.Backend.SetSlotsField(ctx, id, field, sets)
}

func (f *failAfter) SetSlotsFieldIfUnset(ctx context.Context, id, field string, sets []store.SlotValue) (bool, error) {
	if f.writes.Add(1) > f.after {
		return false, errors.New("connection reset")
	}
	return f.countingBackend.Backend.SetSlotsFieldIfUnset(ctx, id, field, sets)
}
