package check

import (
	"bytes"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store"
)

// malformed is one entry of the catalogue of broken buckets found in real
// stores: what is wrong, the kind check reports, and where.
type malformed struct {
	name string
	doc  bson.D
	kind store.ProblemKind
	slot int // the position check names and DecodeBucket marks; -1 for the whole document
}

// catalogue lists every malformed bucket check must report and the read path
// must survive (issue 5). Slot 5 holds seq 6, a text-free picture message.
func catalogue() []malformed {
	return []malformed{
		{"99 slots", bucket(cid+":0", cleanSlots()[:99]), store.KindLength, -1},
		{"101 slots", bucket(cid+":0", append(cleanSlots(), emptySlot())), store.KindLength, -1},
		{"0 slots", bucket(cid+":0", bson.A{}), store.KindLength, -1},
		{"msgs missing", without(cleanBucket(), "msgs"), store.KindLength, -1},
		{"msgs is a document", bucket(cid+":0", bson.D{{Key: "0", Value: emptySlot()}}), store.KindLength, -1},
		{"null slot", bucket(cid+":0", withSlot(5, nil)), store.KindNullSlot, 5},
		{"slot is a string", bucket(cid+":0", withSlot(5, "hello")), store.KindSlotType, 5},
		{"slot is a number", bucket(cid+":0", withSlot(5, int32(42))), store.KindSlotType, 5},
		{"slot is an array", bucket(cid+":0", withSlot(5, bson.A{})), store.KindSlotType, 5},
		{"send_id is a number", bucket(cid+":0", withMsgField(5, "send_id", int64(12345))), store.KindFieldType, 5},
		{"seq is a string", bucket(cid+":0", withMsgField(5, "seq", "6")), store.KindFieldType, 5},
		{"content_type is a fraction", bucket(cid+":0", withMsgField(5, "content_type", 101.5)), store.KindFieldType, 5},
		{"session_type beyond int32", bucket(cid+":0", withMsgField(5, "session_type", int64(1)<<40)), store.KindFieldType, 5},
		{"at_user_id_list holds a number", bucket(cid+":0", withMsgField(5, "at_user_id_list", bson.A{int32(1)})), store.KindFieldType, 5},
		{"options holds a string", bucket(cid+":0", withMsgField(5, "options", bson.D{{Key: "history", Value: "yes"}})), store.KindFieldType, 5},
		{"msg is a string", bucket(cid+":0", withSlot(5, with(emptySlot(), "msg", "hi"))), store.KindFieldType, 5},
		{"del_list is null", bucket(cid+":0", withSlot(5, with(cleanSlots()[5].(bson.D), "del_list", nil))), store.KindFieldType, 5},
		{"is_read is a string", bucket(cid+":0", withSlot(5, with(cleanSlots()[5].(bson.D), "is_read", "true"))), store.KindFieldType, 5},
		{"revoke.time is a string", bucket(cid+":0", withSlot(2, with(cleanSlots()[2].(bson.D), "revoke",
			bson.D{{Key: "role", Value: int32(0)}, {Key: "user_id", Value: alice}, {Key: "nickname", Value: "A"}, {Key: "time", Value: "now"}}))),
			store.KindFieldType, 2},
		{"seq disagrees with its slot", bucket(cid+":0", withMsgField(5, "seq", int64(7))), store.KindSeqMismatch, 5},
		{"doc_id with a non-numeric suffix", bucket(cid+":abc", cleanSlots()), store.KindDocID, -1},
		{"doc_id without an index", bucket(cid, cleanSlots()), store.KindDocID, -1},
		{"doc_id missing", without(cleanBucket(), "doc_id"), store.KindDocID, -1},
		{"doc_id is a number", bucket(int32(7), cleanSlots()), store.KindDocID, -1},
		{"msg lacks fields", bucket(cid+":0", withoutMsgFields(5, "content_type", "send_time", "ex")), store.KindMissingField, 5},
		{"slot lacks del_list", bucket(cid+":0", withSlot(5, without(cleanSlots()[5].(bson.D), "del_list"))), store.KindMissingField, 5},
		{"revoke lacks time", bucket(cid+":0", withSlot(2, with(cleanSlots()[2].(bson.D), "revoke",
			bson.D{{Key: "role", Value: int32(0)}, {Key: "user_id", Value: alice}, {Key: "nickname", Value: "A"}}))),
			store.KindMissingField, 2},
		{"empty message {}", bucket(cid+":0", withSlot(5, with(emptySlot(), "msg", bson.D{}))), store.KindMissingField, 5},
		{"oversized content", bucket(cid+":0", withMsgField(5, "content", bigContent)), store.KindContentSize, 5},
		{"content is not JSON", bucket(cid+":0", withMsgField(5, "content", `{"sourcePicture":`)), store.KindContentJSON, 5},
		{"content is a JSON string", bucket(cid+":0", withMsgField(5, "content", `"just text"`)), store.KindContentJSON, 5},
		{"empty slot marked read", bucket(cid+":0", withSlot(50, slot(nil, nil, bson.A{}, true))), store.KindEmptySlot, 50},
		{"empty slot with del_list", bucket(cid+":0", withSlot(50, slot(nil, nil, bson.A{bob}, false))), store.KindEmptySlot, 50},
		{"empty slot with an extra field", bucket(cid+":0", withSlot(50, with(emptySlot(), "ex", ""))), store.KindEmptySlot, 50},
	}
}

// TestCatalogueDecodes: the read path survives every malformed bucket and
// shows a marker where it is broken (empty-slot shapes excepted).
func TestCatalogueDecodes(t *testing.T) {
	for _, c := range catalogue() {
		t.Run(c.name, func(t *testing.T) {
			b := store.DecodeBucket(raw(c.doc))
			if c.kind == store.KindEmptySlot {
				// The server leaves these after a read or delete on a hole:
				// check reports them, the timeline draws a plain hole.
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
	for name, doc := range map[string]bson.D{"canonical": cleanBucket(), "relaxed numbers": bucket(cid+":0", relaxed)} {
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
		"doc_id":  truncated(bucket("s:0", cleanSlots()), "s:0"),
		"content": truncated(bucket(cid+":0", withMsgField(5, "content", "{}")), "{}"),
		"send_id": truncated(bucket(cid+":0", withMsgField(5, "send_id", "zz")), "zz"),
	} {
		t.Run(name, func(t *testing.T) {
			b := store.DecodeBucket(data)
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
