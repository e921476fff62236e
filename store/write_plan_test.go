package store_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/testkit"
)

// TestPlanIsWhatDoDoes: what a plan says a write changes is what Do then
// changes, slot for slot, with the same refusals, notes, revoke record and
// read seq; making the plan changes nothing and audits nothing.
func TestPlanIsWhatDoDoes(t *testing.T) {
	ctx := t.Context()
	b := testkit.TempBackend(t)
	var log bytes.Buffer
	s := store.New(b, store.Options{Audit: store.NewAuditLog(&log), Operator: "ops"})
	// alice's seqs 1-3 and 6-7 of si_alice_bob; 4 and 5 are holes.
	msgs := textMsgs(5)
	for _, m := range msgs {
		m.SessionType, m.RecvID = bucket.SessionSingle, "bob"
	}
	if _, err := s.InsertMessages(ctx, "si_alice_bob", 1, msgs[:3]); err != nil {
		t.Fatal(err)
	}
	if _, err := s.InsertMessages(ctx, "si_alice_bob", 6, msgs[3:]); err != nil {
		t.Fatal(err)
	}
	const maxSeq = 7
	for _, c := range []struct {
		name    string
		req     store.WriteRequest
		write   []int64 // the seqs the plan writes
		refused []int64
		readSeq *store.ReadSeqMove
		noted   []int64 // the seqs of the plan's notes
	}{
		{name: "revoke", req: store.WriteRequest{Action: store.ActionRevoke, By: "alice", Seqs: []int64{2}}, write: []int64{2}},
		{name: "revoke of one already revoked, and of a hole", req: store.WriteRequest{Action: store.ActionRevoke, By: "alice", Seqs: []int64{2, 3, 4}},
			refused: []int64{2, 4}},
		{name: "revoke of another's message", req: store.WriteRequest{Action: store.ActionRevoke, By: "bob", Seqs: []int64{3}},
			refused: []int64{3}},
		{name: "delete over holes", req: store.WriteRequest{Action: store.ActionDelete, By: "bob", Seqs: []int64{3, 4, 5, 6}},
			write: []int64{3, 4, 5, 6}, noted: []int64{4, 5}},
		{name: "delete past the last message", req: store.WriteRequest{Action: store.ActionDelete, By: "bob", Seqs: []int64{7, 8}},
			refused: []int64{8}},
		{name: "mark read", req: store.WriteRequest{Action: store.ActionRead, By: "bob", Seqs: []int64{3}}, write: []int64{3},
			readSeq: &store.ReadSeqMove{Before: 0, After: 3}},
		{name: "mark read behind the read seq", req: store.WriteRequest{Action: store.ActionRead, By: "bob", Seqs: []int64{1, 2}}, write: []int64{1, 2},
			readSeq: &store.ReadSeqMove{Before: 3, After: 3}, noted: []int64{1, 2}},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.req.Cid = "si_alice_bob"
			before := slotsOf(t, s, "si_alice_bob", maxSeq)
			logged := log.Len()
			p, err := s.Plan(ctx, c.req)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(slotsOf(t, s, "si_alice_bob", maxSeq), before) || log.Len() != logged {
				t.Fatal("making the plan wrote to the store or the audit log")
			}
			if !slices.Equal(p.Write, c.write) || !slices.Equal(refusedSeqs(p.Refused), c.refused) {
				t.Errorf("plan writes %v, refuses %+v; want %v written, %v refused", p.Write, p.Refused, c.write, c.refused)
			}
			if !reflect.DeepEqual(p.ReadSeq, c.readSeq) {
				t.Errorf("plan's read seq %+v, want %+v", p.ReadSeq, c.readSeq)
			}
			done, err := s.Do(ctx, c.req)
			var te *store.TargetError
			switch {
			case p.Refusal == nil && err != nil:
				t.Fatalf("the plan allows it, Do: %v", err)
			case p.Refusal != nil && (!errors.As(err, &te) || err.Error() != p.Refusal.Error() || !reflect.DeepEqual(te.Refused, p.Refused)):
				t.Fatalf("the plan refuses it (%v), Do: %v", p.Refusal, err)
			}
			after := slotsOf(t, s, "si_alice_bob", maxSeq)
			var changed []int64
			for seq := int64(1); seq <= maxSeq; seq++ {
				if !reflect.DeepEqual(before[seq], after[seq]) {
					changed = append(changed, seq)
				}
			}
			if !slices.Equal(changed, p.Write) {
				t.Errorf("Do changed seq %v, the plan said %v", changed, p.Write)
			}
			var noted []int64
			for _, n := range p.Notes {
				noted = append(noted, n.Seqs...)
			}
			if !slices.Equal(noted, c.noted) {
				t.Errorf("plan's notes %v, want notes of seq %v", p.Notes, c.noted)
			}
			if err == nil && !reflect.DeepEqual(done.Notes, p.Notes) {
				t.Errorf("Do's notes %v, the plan's %v", done.Notes, p.Notes)
			}
			if c.req.Action == store.ActionRevoke && len(p.Write) > 0 {
				if got := after[p.Write[0]].Slot.Revoke; got == nil || got.UserID != p.Revoke.UserID || got.Role != p.Revoke.Role || got.Nickname != p.Revoke.Nickname {
					t.Errorf("Do wrote the revoke record %+v, the plan said %+v", got, p.Revoke)
				}
			}
			if c.readSeq != nil {
				if got, err := s.ReadSeqOf(ctx, "bob", "si_alice_bob"); err != nil || got != c.readSeq.After {
					t.Errorf("read seq after Do %d (%v), the plan said %d", got, err, c.readSeq.After)
				}
			}
		})
	}
}

// TestPlanOfAReadOnlyStoreRefusesAll: a read-only store's plan refuses
// every seq, reading nothing.
func TestPlanOfAReadOnlyStoreRefusesAll(t *testing.T) {
	backend := &countingBackend{Backend: testkit.TempBackend(t)}
	s := store.New(backend, store.Options{ReadOnly: true})
	p, err := s.Plan(t.Context(), store.WriteRequest{Action: store.ActionRead, Cid: "si_alice_bob", By: "bob", Seqs: []int64{1, 2}})
	if err != nil || !errors.Is(p.Refusal, store.ErrReadOnly) || !slices.Equal(refusedSeqs(p.Refused), []int64{1, 2}) || len(p.Write) > 0 {
		t.Errorf("plan on a read-only store: %+v, %v; want both seqs refused, read-only", p, err)
	}
	if n := s.Stats().RoundTrips; n != 0 {
		t.Errorf("the plan made %d round trips", n)
	}
}

// refusedSeqs are the seqs of refusals, ascending.
func refusedSeqs(rs []store.RefusedSeqs) []int64 {
	var out []int64
	for _, r := range rs {
		out = append(out, r.Seqs...)
	}
	slices.Sort(out)
	return out
}

// TestAskPlansUpToAndAuditsItsRefusal: a mark read "up to" a seq (the
// UI's m) plans the seqs after the user's read seq as stored, in the same
// round trips as naming them; Ask audits the plan's refusal ("refused",
// as Do does) where Plan, a dry run's, audits nothing; Apply writes the
// plan Ask made.
func TestAskPlansUpToAndAuditsItsRefusal(t *testing.T) {
	ctx := t.Context()
	b := testkit.TempBackend(t)
	var log bytes.Buffer
	s := store.New(b, store.Options{Audit: store.NewAuditLog(&log), Operator: "ops"})
	msgs := textMsgs(5)
	for _, m := range msgs {
		m.SessionType, m.RecvID = bucket.SessionSingle, "bob"
	}
	if _, err := s.InsertMessages(ctx, "si_alice_bob", 1, msgs); err != nil {
		t.Fatal(err)
	}
	named := s.Stats().RoundTrips
	if _, err := s.Plan(ctx, store.WriteRequest{Action: store.ActionRead, Cid: "si_alice_bob", By: "bob", Seqs: []int64{1, 2, 3, 4}}); err != nil {
		t.Fatal(err)
	}
	named = s.Stats().RoundTrips - named
	start := s.Stats().RoundTrips
	upTo := store.WriteRequest{Action: store.ActionRead, Cid: "si_alice_bob", By: "bob", UpTo: 4}
	p, err := s.Ask(ctx, upTo)
	if err != nil {
		t.Fatal(err)
	}
	if trips := s.Stats().RoundTrips - start; !slices.Equal(p.Request.Seqs, []int64{1, 2, 3, 4}) || p.Refusal != nil || trips != named {
		t.Fatalf("up to 4 planned %v (refusal %v) in %d round trips; want 1-4 in %d, as when named", p.Request.Seqs, p.Refusal, trips, named)
	}
	if _, err := s.Apply(ctx, p); err != nil {
		t.Fatal(err)
	}
	if p, err = s.Plan(ctx, upTo); err != nil || p.Refusal == nil || !slices.Equal(p.Request.Seqs, []int64{4}) {
		t.Fatalf("up to 4 again: %v, refusal %v for %v; want seq 4 refused as read", err, p.Refusal, p.Request.Seqs)
	}
	logged := log.Len()
	if _, err := s.Ask(ctx, upTo); err != nil {
		t.Fatal(err)
	}
	var entries []store.AuditEntry
	for _, line := range strings.Split(strings.TrimSpace(log.String()[logged:]), "\n") {
		var e store.AuditEntry
		if err := json.Unmarshal([]byte(line), &e); err == nil {
			entries = append(entries, e)
		}
	}
	if len(entries) != 1 || entries[0].Result != store.ResultRefused || !slices.Equal(entries[0].Seqs, store.SeqList{4}) {
		t.Errorf("Ask of a refused plan logged %+v; want one line, refused, seq 4", entries)
	}
}
