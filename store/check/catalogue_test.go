package check

import (
	"bytes"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/check/checktest"
)

// malformed is one entry of checktest.Catalogue, the catalogue of broken
// buckets found in real stores, under short names.
type malformed struct {
	name string
	doc  bson.D
	kind bucket.ProblemKind
	slot int // the position check names and DecodeBucket marks; -1 for the whole document
}

func catalogue() []malformed {
	var out []malformed
	for _, c := range checktest.Catalogue() {
		out = append(out, malformed{name: c.Name, doc: c.Doc, kind: c.Kind, slot: c.Slot})
	}
	return out
}

// TestCatalogueDecodes: the read path survives every malformed bucket and
// shows a marker where it is broken (empty-slot shapes excepted).
func TestCatalogueDecodes(t *testing.T) {
	for _, c := range catalogue() {
		t.Run(c.name, func(t *testing.T) {
			b := bucket.DecodeBucket(raw(c.doc))
			if c.kind == bucket.KindEmptySlot {
				// An extra field on an empty slot changes nothing a reader
				// sees: check reports it, the timeline draws a plain hole.
				for i, s := range b.Slots {
					if s.Problem != "" || !s.IsHole() && i == c.slot {
						t.Errorf("slot %d marked: %q", i, s.Problem)
					}
				}
				return
			}
			if c.slot < 0 {
				if len(b.Problems) == 0 {
					t.Fatalf("DecodeBucket shows no document problem")
				}
				return
			}
			if b.Slots[c.slot].Problem == "" {
				t.Fatalf("DecodeBucket shows no problem at slot %d", c.slot)
			}
			for i, s := range b.Slots {
				if i != c.slot && s.Problem != "" {
					t.Errorf("slot %d marked too: %s", i, s.Problem)
				}
			}
		})
	}
}

// TestCatalogueInspect: check names the right kind, at the right slot, and
// nothing else.
func TestCatalogueInspect(t *testing.T) {
	for _, c := range catalogue() {
		t.Run(c.name, func(t *testing.T) {
			d := Inspect(raw(c.doc))
			if len(d.Problems) == 0 {
				t.Fatal("no problem reported")
			}
			for _, p := range d.Problems {
				if p.Kind != c.kind || p.Slot != c.slot {
					t.Errorf("got %s at slot %d (%s), want %s at slot %d", p.Kind, p.Slot, p.Reason, c.kind, c.slot)
				}
			}
		})
	}
}

// TestCleanBucket: a demo-like bucket, holes, revoke, delete, push and all,
// has no problem; neither has one whose numbers arrived as int32 or double
// through relaxed Extended JSON.
func TestCleanBucket(t *testing.T) {
	relaxed := cleanSlots()
	sl := relaxed[6].(bson.D)
	msg := with(sl[0].Value.(bson.D), "seq", int32(7))
	msg = with(msg, "send_time", float64(1700000000007))
	msg = with(msg, "content_type", int64(101))
	relaxed[6] = with(sl, "msg", msg)
	for name, doc := range map[string]bson.D{"canonical": cleanBucket(), "relaxed numbers": bucketDoc(docID, relaxed)} {
		t.Run(name, func(t *testing.T) {
			d := Inspect(raw(doc))
			for _, p := range d.Problems {
				t.Errorf("%s at slot %d: %s", p.Kind, p.Slot, p.Reason)
			}
			if d.Slots != 100 || d.Messages != 29 {
				t.Errorf("counted %d slots, %d messages; want 100, 29", d.Slots, d.Messages)
			}
			for i, s := range d.Bucket.Slots {
				if s.Problem != "" {
					t.Errorf("DecodeBucket marks slot %d: %s", i, s.Problem)
				}
			}
		})
	}
}

// truncated is a bucket whose string at offset holds the length prefix 0,
// which the BSON walker accepts and the driver's plain accessors panic on.
func truncated(doc bson.D, text string) []byte {
	b := []byte(raw(doc))
	i := bytes.Index(b, append([]byte{byte(len(text) + 1), 0, 0, 0}, text...))
	if i < 0 {
		panic("text not found: " + text)
	}
	b[i] = 0
	return b
}

// TestTruncatedStrings: a string value with a zero length prefix, which a
// damaged store could hand back, is reported, never a panic.
func TestTruncatedStrings(t *testing.T) {
	for name, data := range map[string][]byte{
		"doc_id":  truncated(bucketDoc("s:0", cleanSlots()), "s:0"),
		"content": truncated(bucketDoc(docID, withMsgField(5, "content", "{}")), "{}"),
		"send_id": truncated(bucketDoc(docID, withMsgField(5, "send_id", "zz")), "zz"),
	} {
		t.Run(name, func(t *testing.T) {
			b := bucket.DecodeBucket(data)
			d := Inspect(data)
			if len(d.Problems) == 0 {
				t.Error("check reports nothing")
			}
			marked := len(b.Problems) > 0
			for _, s := range b.Slots {
				marked = marked || s.Problem != ""
			}
			if !marked {
				t.Error("DecodeBucket shows nothing")
			}
		})
	}
}
