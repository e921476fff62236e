package ui

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/openimapi"
	"github.com/chatlens/chatlens/store/openimapi/openimtest"
)

// apiDriver is bob in the team group (read seq 0, 30 unread) writing
// through a stand-in that does fault on mark_msgs_as_read.
func apiDriver(t *testing.T, fault openimtest.Fault) *driver {
	t.Helper()
	base, tb := newTestStore(t, false)
	seedSmall(t, base)
	srv := openimtest.Start(base, "s3cret")
	t.Cleanup(srv.Close)
	srv.SetFaults(func(path string) openimtest.Fault {
		if path == openimapi.PathMarkRead {
			return fault
		}
		return openimtest.Answer
	})
	api, err := openimapi.New(openimapi.Options{URL: srv.URL, Secret: "s3cret", Timeout: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	st := store.New(tb, store.Options{API: api, APISettle: 200 * time.Millisecond})
	opts, _ := testOptions(t, "bob")
	d := newDriver(t, st, opts, 140, 40)
	d.open(chatT)
	d.jump(4)
	return d
}

// unreadOf is the list's unread count of cid.
func unreadOf(t *testing.T, d *driver, cid string) int64 {
	t.Helper()
	for _, it := range d.m.list.Items() {
		if it.Sum.ConversationID == cid {
			return it.Sum.Unread()
		}
	}
	t.Fatalf("%s not in the list", cid)
	return 0
}

// TestAWriteWithNoAnswerIsUnknownNotFailed: the server reads the mark read
// and never answers. The status says the outcome is unknown (it may have
// been applied), never "failed"; before, it read "mark read seq 1-4 as bob
// failed: read of seq 1-4 unknown (... it may have been applied)".
func TestAWriteWithNoAnswerIsUnknownNotFailed(t *testing.T) {
	d := apiDriver(t, openimtest.Hang)
	d.keys("m", "y")
	if s := d.m.status; !strings.Contains(s, "mark read seq 1-4 as bob: outcome unknown: ") || strings.Contains(s, "failed") {
		t.Errorf("status %q, want the outcome unknown and no \"failed\"", s)
	}
}

// TestAcceptedMarkReadMovesNoReadLine: the server accepts the mark read and
// writes nothing. The status says the store does not show it, and the read
// line and the list both stay where the store has them (read seq 0, 30
// unread); before, the line moved to seq 4 while the list said 30.
func TestAcceptedMarkReadMovesNoReadLine(t *testing.T) {
	t.Parallel()
	d := apiDriver(t, openimtest.AcceptOnly)
	d.keys("m", "y")
	if !strings.Contains(d.m.status, "the store does not show it yet") {
		t.Fatalf("status %q, want the store not showing it", d.m.status)
	}
	if r := d.m.tl.Window().ReadSeq; r != 0 {
		t.Errorf("read seq on screen %d, want 0 as the store has it", r)
	}
	if v := d.m.View(); strings.Contains(v, "read up to here") {
		t.Errorf("a read line is drawn for a mark read the store does not show:\n%s", v)
	}
	if n := unreadOf(t, d, chatT); n != 30 {
		t.Errorf("list unread %d, want 30", n)
	}
}

// stopsAfter marks the first n slots of a mark read, then fails the rest,
// as a connection lost part way through the bulk request does.
type stopsAfter struct {
	store.Backend
	n int
}

func (b *stopsAfter) MarkSlotsRead(ctx context.Context, runs []store.BucketSlots, reader string) (int, error) {
	var head []store.BucketSlots // the first n slots, in order across the runs
	for left := b.n; left > 0 && len(head) < len(runs); {
		r := runs[len(head)]
		k := min(left, len(r.Slots))
		head = append(head, store.BucketSlots{DocID: r.DocID, Slots: r.Slots[:k]})
		left -= k
	}
	ran, err := b.Backend.MarkSlotsRead(ctx, head, reader)
	if err != nil {
		return ran, err
	}
	return ran, errors.New("connection reset")
}

// TestAPartWriteIsReadBack: a storage-level mark read of seqs 1-4 that
// stops after 2 raises the read seq to 2 (store.MarkRead). The status says
// "partly done", and the read line and the list show the store's read seq 2
// and 28 unread; before, the status said "failed" and neither was re-read
// (read seq 0, 30 unread).
func TestAPartWriteIsReadBack(t *testing.T) {
	base, tb := newTestStore(t, false)
	seedSmall(t, base)
	st := store.New(&stopsAfter{Backend: tb, n: 2}, store.Options{})
	opts, _ := testOptions(t, "bob")
	d := newDriver(t, st, opts, 140, 40)
	d.open(chatT)
	d.jump(4)
	d.keys("m", "y")
	if s := d.m.status; !strings.Contains(s, "mark read seq 1-4 as bob: partly done: ") || !strings.Contains(s, "read seq raised to 2") {
		t.Errorf("status %q, want partly done, read seq raised to 2", s)
	}
	if r := d.m.tl.Window().ReadSeq; r != 2 {
		t.Errorf("read seq on screen %d, want the store's 2", r)
	}
	if !strings.Contains(d.m.View(), "read up to here (seq 2)") {
		t.Errorf("no read line at seq 2:\n%s", d.m.View())
	}
	if n := unreadOf(t, d, chatT); n != 28 {
		t.Errorf("list unread %d, want 28", n)
	}
}

// lostReply writes a revoke and loses the reply, as a connection dropped
// after the server applied the update does.
type lostReply struct{ store.Backend }

func (b *lostReply) SetSlotsFieldIfUnset(ctx context.Context, docID, field string, sets []store.SlotValue) (bool, error) {
	matched, err := b.Backend.SetSlotsFieldIfUnset(ctx, docID, field, sets)
	if err != nil {
		return matched, err
	}
	return matched, fmt.Errorf("%w: connection reset after the update was sent", store.ErrOutcomeUnknown)
}

// TestARevokeOfUnknownOutcomeIsReadBack: the revoke of seq 11 landed and its
// reply was lost. The status says the outcome is unknown and the row is
// read again, so it shows what the store holds (revoked); before, the
// status said "failed" and the row still showed the message.
func TestARevokeOfUnknownOutcomeIsReadBack(t *testing.T) {
	base, tb := newTestStore(t, false)
	seedSmall(t, base)
	st := store.New(&lostReply{Backend: tb}, store.Options{})
	opts, _ := testOptions(t, "alice")
	d := newDriver(t, st, opts, 140, 40)
	d.open(chatAB)
	d.jump(11)
	d.keys("r", "y")
	if s := d.m.status; !strings.Contains(s, "revoke seq 11 as alice: outcome unknown: ") || strings.Contains(s, "failed") {
		t.Errorf("status %q, want the outcome unknown", s)
	}
	if row := rowOf(d.m.View(), 11); strings.Contains(row, "hello 11") || !strings.Contains(row, "revoked") {
		t.Errorf("row 11 %q still shows the message the store has revoked", row)
	}
}
