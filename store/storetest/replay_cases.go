package storetest

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
)

// replays is how many times each write is delivered again (FerretDB, which
// scans a collection on every query, keeps this small).
const replays = 2

// testReplayEveryWrite delivers every kind of write once, snapshots the raw
// bytes of every document of every collection, then delivers it again
// (whole, in parts, and the whole history in order) and wants the very same
// bytes: at-least-once delivery changes nothing. The revoke time is fixed,
// as the caller does when it re-delivers.
func testReplayEveryWrite(e *fixture) {
	const cid = "si_alice_bob" // alice sends odd seqs
	batch := func(first, last int64) func() error {
		return func() error {
			msgs := make([]*bucket.MsgData, 0, last-first+1)
			for seq := first; seq <= last; seq++ {
				msgs = append(msgs, newMsg(cid, seq))
			}
			_, err := e.s.InsertMessages(e.ctx, cid, first, msgs)
			return err
		}
	}
	rev := bucket.Revoke{Role: 1, UserID: "alice", Nickname: "Alice", Time: 1700000001234}
	writes := []struct {
		name string
		run  func() error
	}{
		{"batch 95-106 across a bucket edge", batch(95, 106)},
		{"batch 1-3", batch(1, 3)},
		{"revoke 97", func() error { return againRefused(e.s.Revoke(e.ctx, cid, []int64{97}, rev)) }},
		{"revoke 250 (creates its bucket)", func() error { return againRefused(e.s.Revoke(e.ctx, cid, []int64{250}, rev)) }},
		{"delete 98,101 for bob", func() error { _, err := e.s.DeleteForMe(e.ctx, cid, []int64{98, 101}, "bob"); return err }},
		{"delete 99 for alice", func() error { _, err := e.s.DeleteForMe(e.ctx, cid, []int64{99}, "alice"); return err }},
		{"mark read 95-99 by bob", func() error { _, err := e.s.MarkRead(e.ctx, cid, seqRange(95, 99), "bob"); return err }},
	}
	parts := []func() error{batch(95, 100), batch(101, 106), batch(99, 102)}

	for _, w := range writes {
		e.must(w.run(), w.name)
		once := e.snapshot()
		for range replays {
			e.must(w.run(), w.name+" again")
		}
		e.wantSame(once, fmt.Sprintf("%s delivered %d times", w.name, replays+1))
	}
	once := e.snapshot()
	for _, p := range parts {
		e.must(p(), "part of the first batch")
	}
	e.wantSame(once, "parts of the first batch delivered again")
	for _, w := range writes {
		e.must(w.run(), w.name+" in the replayed history")
	}
	e.wantSame(once, "the whole history delivered again")
}

// againRefused accepts a revoke delivered again being refused as already
// revoked, as the server refuses it ("msg already revoke"): the update's
// filter holds "not revoked yet", so the document stays as it was.
func againRefused(_ store.WriteResult, err error) error {
	var te *store.TargetError
	if errors.As(err, &te) && len(te.Refused) == 1 && strings.HasPrefix(te.Refused[0].Reason, "already revoked") {
		return nil
	}
	return err
}

func seqRange(first, last int64) []int64 {
	var out []int64
	for s := first; s <= last; s++ {
		out = append(out, s)
	}
	return out
}

// snapshot is the raw bytes of every stored document, per collection, sorted.
func (e *fixture) snapshot() map[string][][]byte {
	e.t.Helper()
	out := map[string][][]byte{}
	for _, coll := range bucket.Collections {
		var docs [][]byte
		err := e.b.ScanRaw(e.ctx, coll, "", func(raw bson.Raw) error {
			docs = append(docs, bytes.Clone(raw))
			return nil
		})
		e.must(err, "scan "+coll)
		slices.SortFunc(docs, bytes.Compare)
		out[coll] = docs
	}
	return out
}

// wantSame fails when any document differs from the snapshot, naming it.
func (e *fixture) wantSame(want map[string][][]byte, what string) {
	e.t.Helper()
	got := e.snapshot()
	for _, coll := range bucket.Collections {
		w, g := want[coll], got[coll]
		if len(w) != len(g) {
			e.errorf("%s: %s holds %d documents, %d after one delivery", what, coll, len(g), len(w))
			continue
		}
		for i := range w {
			if !bytes.Equal(w[i], g[i]) {
				e.errorf("%s: a %s document changed at %s", what, coll, firstDiff(bson.Raw(w[i]), bson.Raw(g[i]), ""))
				break
			}
		}
	}
}

// firstDiff names the first path where two documents differ and both values.
func firstDiff(a, b bson.Raw, path string) string {
	ea, _ := a.Elements()
	eb, _ := b.Elements()
	for i := 0; i < len(ea) && i < len(eb); i++ {
		va, vb := ea[i].Value(), eb[i].Value()
		p := path + ea[i].Key()
		if ea[i].Key() != eb[i].Key() {
			return fmt.Sprintf("%s: field %q became %q", p, ea[i].Key(), eb[i].Key())
		}
		if va.Equal(vb) {
			continue
		}
		da, okA := va.DocumentOK()
		db, okB := vb.DocumentOK()
		if !okA || !okB {
			var aa, ab bson.RawArray
			aa, okA = va.ArrayOK()
			ab, okB = vb.ArrayOK()
			da, db = bson.Raw(aa), bson.Raw(ab)
		}
		if okA && okB {
			return firstDiff(da, db, p+".")
		}
		return fmt.Sprintf("%s: %s, then %s", p, va, vb)
	}
	return fmt.Sprintf("%s: %d fields, then %d", path, len(ea), len(eb))
}
