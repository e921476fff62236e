package embedded

import (
	"bytes"
	"context"
	"encoding/binary"
	"path/filepath"
	"testing"

	bolt "go.etcd.io/bbolt"
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
)

func openTestStore(t *testing.T, path string, opts Options) *Backend {
	t.Helper()
	b, err := Open(path, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = b.Close(context.Background()) })
	return b
}

// insertFull stores full buckets 0..n-1 of cid.
func insertFull(t *testing.T, b *Backend, cid string, n int64) {
	t.Helper()
	for i := range n {
		if err := b.InsertBucket(t.Context(), fullBucket(cid, i)); err != nil {
			t.Fatal(err)
		}
	}
}

// readSlot reads slot of docID through FindSlots and decodes it.
func readSlot(t *testing.T, b *Backend, docID string, slot int) (content string, sliced bool) {
	t.Helper()
	raw, sliced, err := b.FindSlots(t.Context(), docID, slot, 1)
	if err != nil || raw == nil {
		t.Fatalf("FindSlots %s slot %d: %v (nothing read: %v)", docID, slot, err, raw == nil)
	}
	doc := bucket.DecodeBucket(raw)
	at := 0
	if !sliced {
		at = slot
	}
	if len(doc.Slots) <= at || doc.Slots[at].Slot.Msg == nil {
		t.Fatalf("FindSlots %s slot %d: no message in what was read", docID, slot)
	}
	return doc.Slots[at].Slot.Msg.Content, sliced
}

// rewriteBehindIndex replaces the stored document of docID by edit(old)
// without touching the slot index, as an older chatlens or a damaged disk
// would.
func rewriteBehindIndex(t *testing.T, b *Backend, docID string, edit func(old []byte) []byte) {
	t.Helper()
	err := b.db.Update(func(tx *bolt.Tx) error {
		key, _ := mainMsgKey(docID)
		return tx.Bucket(bucketMsg).Put(key, edit(bytes.Clone(getMsg(tx, docID))))
	})
	if err != nil {
		t.Fatal(err)
	}
}

// setEntry replaces the slot index entry of docID by edit(old).
func setEntry(t *testing.T, b *Backend, docID string, edit func(entry []byte) []byte) {
	t.Helper()
	err := b.db.Update(func(tx *bolt.Tx) error {
		key, _ := mainMsgKey(docID)
		return tx.Bucket(bucketMsgSlots).Put(key, edit(bytes.Clone(getSlotIndex(tx, key))))
	})
	if err != nil {
		t.Fatal(err)
	}
}

func contentOf(seq int64) string {
	return fullBucket("sg_x", bucket.BucketIndex(seq)).Msgs[bucket.SlotIndex(seq)].Msg.Content
}

// TestSlotIndexReadIsTheWalk: a cut through the index is byte for byte the
// cut the walk makes, for every window of a full and of a sparse bucket,
// windows past the end and empty ones included.
func TestSlotIndexReadIsTheWalk(t *testing.T) {
	sparse := bucket.NewDoc(bucket.DocID("sg_g", 0))
	sparse.Msgs[7].Msg = &bucket.MsgData{SendID: "u1", Content: "hi", Seq: 8}
	for name, d := range map[string]*bucket.Doc{"full": fullBucket("sg_g", 3), "sparse": sparse} {
		doc, err := bson.Marshal(d)
		if err != nil {
			t.Fatal(err)
		}
		entry := slotIndexOf(doc)
		if len(entry) != slotIndexHeader+slotIndexEntry*bucket.BucketSize {
			t.Fatalf("%s: entry of %d bytes", name, len(entry))
		}
		loc, _ := locateMsgs(doc)
		for first := -1; first <= 102; first++ {
			for _, n := range []int{0, 1, 3, 100} {
				if _, ok := indexedSlots(doc, entry, loc, first, n); !ok && first >= 0 {
					t.Fatalf("%s [%d, +%d): the index does not vouch for its own document", name, first, n)
				}
				if got, want := sliceMsgs(doc, entry, first, n), sliceMsgs(doc, nil, first, n); !bytes.Equal(got, want) {
					t.Fatalf("%s [%d, +%d): the indexed cut differs from the walk", name, first, n)
				}
			}
		}
	}
}

// TestSlotReadsNeverTrustAStaleIndex: whatever the index says, a slot read
// returns the slot stored, when the document was rewritten behind the
// index (lengths shifted, same total length) or the entry is wrong (an
// offset moved, a forged element inside another slot's text).
func TestSlotReadsNeverTrustAStaleIndex(t *testing.T) {
	b := openTestStore(t, filepath.Join(t.TempDir(), "x.db"), Options{NoSync: true})
	insertFull(t, b, "sg_x", 4)
	id := bucket.DocID("sg_x", 1)

	t.Run("document rewritten, same length, slots shifted", func(t *testing.T) {
		// Slot 10 grows by 3 bytes and slot 11 shrinks by 3: the document
		// keeps its length but the index's offset of slot 11 is 3 bytes off.
		d := fullBucket("sg_x", 1)
		d.Msgs[10].Msg.Content += "abc"
		d.Msgs[11].Msg.Content = d.Msgs[11].Msg.Content[3:]
		raw, _ := encodeBucket(d, bson.NewObjectID())
		rewriteBehindIndex(t, b, id, func(old []byte) []byte {
			if len(old) != len(raw) {
				t.Fatalf("rewritten document of %d bytes, stored one %d", len(raw), len(old))
			}
			return raw
		})
		if got, _ := readSlot(t, b, id, 11); got != d.Msgs[11].Msg.Content {
			t.Errorf("slot 11 = %q, want %q", got, d.Msgs[11].Msg.Content)
		}
		if got, _ := readSlot(t, b, id, 10); got != d.Msgs[10].Msg.Content {
			t.Errorf("slot 10 = %q, want %q", got, d.Msgs[10].Msg.Content)
		}
	})

	id = bucket.DocID("sg_x", 2)
	t.Run("offset of another slot", func(t *testing.T) {
		setEntry(t, b, id, func(e []byte) []byte {
			copy(e[slotIndexHeader+20*slotIndexEntry:][:4], e[slotIndexHeader+21*slotIndexEntry:][:4])
			return e
		})
		if got, sliced := readSlot(t, b, id, 20); got != contentOf(221) || !sliced {
			t.Errorf("slot 20 = %q (sliced %v), want %q", got, sliced, contentOf(221))
		}
	})

	id = bucket.DocID("sg_x", 3)
	t.Run("forged element inside a message", func(t *testing.T) {
		// Slot 5's text holds what reads as an element keyed "7"; an entry
		// pointing slot 7 there (with slot 7's real CRC, as a stale entry
		// would have) must not serve it.
		forged, err := bson.Marshal(bson.D{{Key: "msg", Value: bson.D{{Key: "content", Value: "forged"}}}})
		if err != nil {
			t.Fatal(err)
		}
		fake := append([]byte{byte(bson.TypeEmbeddedDocument), '7', 0}, forged...)
		d := fullBucket("sg_x", 3)
		d.Msgs[5].Msg.Content = "look: " + string(fake)
		if err := b.db.Update(func(tx *bolt.Tx) error {
			raw, _ := encodeBucket(d, bson.NewObjectID())
			return putMsg(tx, raw)
		}); err != nil {
			t.Fatal(err)
		}
		at := bytes.Index(mustGet(t, b, id), fake)
		setEntry(t, b, id, func(e []byte) []byte {
			binary.LittleEndian.PutUint32(e[slotIndexHeader+7*slotIndexEntry:], uint32(at))
			return e
		})
		if got, _ := readSlot(t, b, id, 7); got != contentOf(308) {
			t.Errorf("slot 7 = %q, want %q", got, contentOf(308))
		}
	})

	// The buckets left alone still read through the index.
	err := b.db.View(func(tx *bolt.Tx) error {
		key, _ := mainMsgKey(bucket.DocID("sg_x", 0))
		doc := getMsg(tx, bucket.DocID("sg_x", 0))
		loc, _ := locateMsgs(doc)
		if _, ok := indexedSlots(doc, getSlotIndex(tx, key), loc, 42, 1); !ok {
			t.Error("an untouched bucket's entry is refused")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func mustGet(t *testing.T, b *Backend, docID string) []byte {
	t.Helper()
	raws, err := b.FindBuckets(t.Context(), []string{docID})
	if err != nil || len(raws) != 1 {
		t.Fatalf("read %s: %v", docID, err)
	}
	return raws[0]
}

// TestSlotReadSkipsDamageBeforeIt: a slot read jumps to its slot, so a slot
// damaged on disk before it (an unknown element type) no longer makes the
// read fall back to the whole damaged bucket. With the walk, every read of
// a slot after the damage returned the whole bucket.
func TestSlotReadSkipsDamageBeforeIt(t *testing.T) {
	b := openTestStore(t, filepath.Join(t.TempDir(), "x.db"), Options{NoSync: true})
	insertFull(t, b, "sg_x", 1)
	id := bucket.DocID("sg_x", 0)
	err := b.db.Update(func(tx *bolt.Tx) error {
		key, _ := mainMsgKey(id)
		doc := bytes.Clone(getMsg(tx, id))
		at, _ := walkSlots(doc[bytes.Index(doc, []byte("\x04msgs\x00"))+10:], 3, 1)
		doc[bytes.Index(doc, at[0])] = 0x7F // slot 3's type byte
		return tx.Bucket(bucketMsg).Put(key, doc)
	})
	if err != nil {
		t.Fatal(err)
	}
	if got, sliced := readSlot(t, b, id, 50); got != contentOf(51) || !sliced {
		t.Errorf("slot 50 = %q, sliced %v; want %q, sliced", got, sliced, contentOf(51))
	}
}

// indexMismatches lists the well-formed msg documents whose slot index
// entry is not the one their bytes give (missing, stale, or left over).
func indexMismatches(t *testing.T, b *Backend) []string {
	t.Helper()
	var bad []string
	err := b.db.View(func(tx *bolt.Tx) error {
		docs, slots := tx.Bucket(bucketMsg), tx.Bucket(bucketMsgSlots)
		if slots == nil {
			bad = append(bad, "no index")
			return nil
		}
		_ = docs.ForEach(func(k, v []byte) error {
			if !bytes.Equal(slots.Get(k), slotIndexOf(v)) {
				bad = append(bad, mainMsgDocID(k))
			}
			return nil
		})
		return slots.ForEach(func(k, _ []byte) error {
			if docs.Get(k) == nil {
				bad = append(bad, "left over "+mainMsgDocID(k))
			}
			return nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	return bad
}

// TestEveryMsgWriteKeepsTheSlotIndex: after each kind of write of a msg
// document (insert, slot updates, mark read, raw insert and upsert, a raw
// document without msgs, clear) every entry is the one its document gives.
func TestEveryMsgWriteKeepsTheSlotIndex(t *testing.T) {
	ctx := t.Context()
	b := openTestStore(t, filepath.Join(t.TempDir(), "x.db"), Options{NoSync: true})
	st := store.New(b, store.Options{})
	id := bucket.DocID("sg_x", 0)
	raw := func(d any) bson.Raw {
		out, err := bson.Marshal(d)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	writes := []struct {
		name  string
		write func() error
	}{
		{"insert", func() error { insertFull(t, b, "sg_x", 2); return nil }},
		{"insert messages", func() error {
			_, err := st.InsertMessages(ctx, "sg_y", 1, []*bucket.MsgData{{SendID: "u1", Content: "hi", SendTime: 1}})
			return err
		}},
		{"revoke", func() error {
			_, err := b.SetSlotsField(ctx, id, store.FieldRevoke, []store.SlotValue{{Slot: 3, Value: bucket.Revoke{UserID: "u1", Nickname: "a longer nickname"}}})
			return err
		}},
		{"delete for me", func() error { _, err := b.AddToDelLists(ctx, id, []int{0, 99}, []string{"u1", "u2"}); return err }},
		{"mark read", func() error {
			_, err := b.MarkSlotsRead(ctx, []store.BucketSlots{{DocID: id, Slots: []int{4, 5}}}, "someone")
			return err
		}},
		{"raw upsert", func() error {
			d := fullBucket("sg_x", 1)
			d.Msgs[0].Msg.Content = "replaced by an import, and longer than before"
			_, err := b.InsertRaw(ctx, bucket.CollMsg, []bson.Raw{raw(d)}, store.RawUpsert)
			return err
		}},
		{"raw insert", func() error {
			_, err := b.InsertRaw(ctx, bucket.CollMsg, []bson.Raw{raw(fullBucket("sg_z", 0))}, store.RawInsert)
			return err
		}},
		{"raw document without msgs", func() error {
			_, err := b.InsertRaw(ctx, bucket.CollMsg, []bson.Raw{raw(bson.D{{Key: "doc_id", Value: bucket.DocID("sg_x", 1)}})}, store.RawUpsert)
			return err
		}},
		{"clear", func() error {
			_, err := b.ClearIf(ctx, func(map[string]int, func(string) []bson.Raw) bool { return true })
			return err
		}},
		{"insert after clear", func() error { insertFull(t, b, "sg_x", 1); return nil }},
	}
	for _, w := range writes {
		if err := w.write(); err != nil {
			t.Fatalf("%s: %v", w.name, err)
		}
		if bad := indexMismatches(t, b); len(bad) > 0 {
			t.Errorf("after %s, the index does not match %v", w.name, bad)
		}
	}
}

// TestFileWithoutSlotIndex: a file written before the index existed reads
// the same slots (read-only, without creating the index), and a write
// indexes the bucket it writes.
func TestFileWithoutSlotIndex(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.db")
	b, err := Open(path, Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	insertFull(t, b, "sg_x", 2)
	if err := b.db.Update(func(tx *bolt.Tx) error { return tx.DeleteBucket(bucketMsgSlots) }); err != nil {
		t.Fatal(err)
	}
	if err := b.Close(t.Context()); err != nil {
		t.Fatal(err)
	}
	hasIndex := func(b *Backend) (has bool) {
		_ = b.db.View(func(tx *bolt.Tx) error { has = tx.Bucket(bucketMsgSlots) != nil; return nil })
		return has
	}

	ro, err := Open(path, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if got, sliced := readSlot(t, ro, bucket.DocID("sg_x", 1), 42); got != contentOf(143) || !sliced {
		t.Errorf("read-only: slot 42 = %q, sliced %v", got, sliced)
	}
	if hasIndex(ro) {
		t.Error("a read-only open created the index")
	}
	_ = ro.Close(t.Context())

	rw := openTestStore(t, path, Options{NoSync: true})
	if _, err := rw.MarkSlotsRead(t.Context(), []store.BucketSlots{{DocID: bucket.DocID("sg_x", 1), Slots: []int{1}}}, "someone"); err != nil {
		t.Fatal(err)
	}
	if bad := indexMismatches(t, rw); len(bad) != 1 || bad[0] != bucket.DocID("sg_x", 0) {
		t.Errorf("after writing bucket 1 only, mismatches %v; want the unwritten bucket 0 alone", bad)
	}
	for index, want := range []string{contentOf(8), contentOf(108)} {
		if got, sliced := readSlot(t, rw, bucket.DocID("sg_x", int64(index)), 7); got != want || !sliced {
			t.Errorf("bucket %d slot 7 = %q, sliced %v; want %q", index, got, sliced, want)
		}
	}
}
