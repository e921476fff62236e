package storetest

import (
	"context"
	"fmt"
	"strconv"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
)

// fixture is one case's fresh backend, the Store over it, and helpers.
type fixture struct {
	t    *testing.T
	ctx  context.Context
	b    store.Backend
	s    *store.Store
	name string
	open func(t *testing.T) store.Backend
	caps Caps
}

func newFixture(t *testing.T, open func(t *testing.T) store.Backend, caps Caps) *fixture {
	t.Helper()
	b := open(t)
	if b == nil {
		t.Fatalf("%s: open returned a nil backend", caps.Name)
	}
	t.Cleanup(func() { _ = b.Close(context.Background()) })
	return &fixture{t: t, ctx: t.Context(), b: b, s: store.New(b, store.Options{}), name: caps.Name, open: open, caps: caps}
}

// each runs fn for every item as a subtest of its own: on a fresh backend
// where the backend scans on every read (so each read scans that item's
// documents alone), else in turn on this case's backend.
func each[T any](e *fixture, items []T, name func(T) string, fn func(e *fixture, item T)) {
	e.t.Helper()
	for _, it := range items {
		e.t.Run(name(it), func(t *testing.T) {
			if !e.caps.ScansEveryRead {
				sub := *e
				sub.t, sub.ctx = t, t.Context()
				fn(&sub, it)
				return
			}
			if e.caps.Parallel {
				t.Parallel()
			}
			fn(newFixture(t, e.open, e.caps), it)
		})
	}
}

func (e *fixture) fatalf(format string, args ...any) {
	e.t.Helper()
	e.t.Fatalf("%s: %s", e.name, fmt.Sprintf(format, args...))
}

func (e *fixture) errorf(format string, args ...any) {
	e.t.Helper()
	e.t.Errorf("%s: %s", e.name, fmt.Sprintf(format, args...))
}

func (e *fixture) must(err error, what string) {
	e.t.Helper()
	if err != nil {
		e.fatalf("%s: %v", what, err)
	}
}

// sender is who sent seq in cid: in a single chat the two users take turns
// (odd seqs the first), in a group three members take turns.
func sender(cid string, seq int64) string {
	kind, a, b := store.SplitConversationID(cid)
	if kind == bucket.SessionSingle {
		if seq%2 == 1 {
			return a
		}
		return b
	}
	return "m" + strconv.FormatInt(seq%3, 10)
}

// newMsg is the message at seq of cid, the same every time it is built, so
// that replays deliver identical content.
func newMsg(cid string, seq int64) *bucket.MsgData {
	kind, a, b := store.SplitConversationID(cid)
	m := &bucket.MsgData{
		SendID: sender(cid, seq), ClientMsgID: fmt.Sprintf("%s-c%d", cid, seq),
		ServerMsgID: fmt.Sprintf("%s-s%d", cid, seq), SenderPlatformID: 1,
		SenderNickname: "nick " + sender(cid, seq), SessionType: kind, MsgFrom: bucket.MsgFromUser,
		ContentType: 101, Content: fmt.Sprintf(`{"content":"message %d"}`, seq),
		SendTime: 1700000000000 + seq*1000, CreateTime: 1700000000000 + seq*1000,
		Status: bucket.StatusSent, Options: map[string]bool{"history": true}, AtUserIDList: []string{},
	}
	switch kind {
	case bucket.SessionSingle:
		m.RecvID = a
		if m.SendID == a {
			m.RecvID = b
		}
	case bucket.SessionGroup:
		m.GroupID = a
	}
	return m
}

// insert stores the messages first..last of cid through the state machine.
func (e *fixture) insert(cid string, first, last int64) {
	e.t.Helper()
	msgs := make([]*bucket.MsgData, 0, last-first+1)
	for seq := first; seq <= last; seq++ {
		msgs = append(msgs, newMsg(cid, seq))
	}
	_, err := e.s.InsertMessages(e.ctx, cid, first, msgs)
	e.must(err, fmt.Sprintf("insert %s %d..%d", cid, first, last))
}

// doc is the stored msg document of docID, nil when there is none.
func (e *fixture) doc(docID string) bson.Raw {
	e.t.Helper()
	raws, err := e.b.FindBuckets(e.ctx, []string{docID})
	e.must(err, "find "+docID)
	for _, r := range raws {
		if id, ok := r.Lookup("doc_id").StringValueOK(); ok && id == docID {
			return r
		}
	}
	return nil
}

// slots is the raw msgs array of docID; the document must exist.
func (e *fixture) slots(docID string) []bson.RawValue {
	e.t.Helper()
	d := e.doc(docID)
	if d == nil {
		e.fatalf("bucket %s is not stored", docID)
	}
	arr, ok := d.Lookup("msgs").ArrayOK()
	if !ok {
		e.fatalf("bucket %s: msgs is not an array", docID)
	}
	vals, err := arr.Values()
	e.must(err, "read msgs of "+docID)
	return vals
}

// slot decodes one raw slot.
func (e *fixture) slot(v bson.RawValue) bucket.Slot {
	e.t.Helper()
	var s bucket.Slot
	e.must(v.Unmarshal(&s), "decode slot")
	return s
}

// buckets reads buckets of cid through the Store's read path.
func (e *fixture) buckets(cid string, indexes ...int64) []*bucket.Bucket {
	e.t.Helper()
	bs, err := e.s.Buckets(e.ctx, cid, indexes, 0)
	e.must(err, "read buckets of "+cid)
	return bs
}

// wantMessage checks that a stored slot holds the message of seq.
func (e *fixture) wantMessage(cid string, seq int64, got *bucket.Slot) {
	e.t.Helper()
	want := newMsg(cid, seq)
	switch {
	case got == nil || got.Msg == nil:
		e.errorf("seq %d: no message stored", seq)
	case got.Msg.Seq != seq || got.Msg.ClientMsgID != want.ClientMsgID || got.Msg.Content != want.Content:
		e.errorf("seq %d: stored message is seq %d %q %s", seq, got.Msg.Seq, got.Msg.ClientMsgID, got.Msg.Content)
	}
}

// wantEmptySlot checks the raw BSON of a slot is exactly the server's empty
// slot {msg: null, revoke: null, del_list: [], is_read: false}.
func wantEmptySlot(v bson.RawValue) error {
	doc, ok := v.DocumentOK()
	if !ok {
		return fmt.Errorf("slot is %s, not a document", v.Type)
	}
	elems, err := doc.Elements()
	if err != nil {
		return err
	}
	want := []struct {
		key string
		typ bson.Type
	}{{"msg", bson.TypeNull}, {"revoke", bson.TypeNull}, {"del_list", bson.TypeArray}, {"is_read", bson.TypeBoolean}}
	if len(elems) != len(want) {
		return fmt.Errorf("slot has %d fields, want 4: %s", len(elems), doc)
	}
	for i, w := range want {
		if elems[i].Key() != w.key || elems[i].Value().Type != w.typ {
			return fmt.Errorf("slot field %d is %s %s, want %s %s", i, elems[i].Key(), elems[i].Value().Type, w.key, w.typ)
		}
	}
	if n, _ := elems[2].Value().Array().Values(); len(n) != 0 {
		return fmt.Errorf("del_list of an empty slot holds %d entries", len(n))
	}
	if elems[3].Value().Boolean() {
		return fmt.Errorf("is_read of an empty slot is true")
	}
	return nil
}

// racingBackend creates a competing bucket the moment the state machine
// finds a bucket missing, so that its insert meets a duplicate key.
// It serves store.BucketWriter's SetSlotsField and InsertBucket; every
// other call goes to the Backend it wraps.
type racingBackend struct {
	store.Backend
	race   func(docID string) error
	raced  map[string]bool
	dupErr error // the error the state machine's insert got, for the test to see
}

func (r *racingBackend) SetSlotsField(ctx context.Context, docID, field string, sets []store.SlotValue) (bool, error) {
	matched, err := r.Backend.SetSlotsField(ctx, docID, field, sets)
	if err == nil && !matched && !r.raced[docID] {
		r.raced[docID] = true
		if err := r.race(docID); err != nil {
			return false, fmt.Errorf("competing insert: %w", err)
		}
	}
	return matched, err
}

func (r *racingBackend) InsertBucket(ctx context.Context, doc *bucket.Doc) error {
	err := r.Backend.InsertBucket(ctx, doc)
	if err != nil && r.dupErr == nil {
		r.dupErr = err
	}
	return err
}
