package check

import (
	"strconv"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/x/bsonx/bsoncore"

	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/testkit"
)

// slotWithDelLists is a slot holding message seq (a text) and, as FerretDB
// v2 with DocumentDB leaves it after one $addToSet naming several slots'
// del_list where some held the user already, one del_list field per list.
func slotWithDelLists(t *testing.T, seq int64, lists ...[]string) bsoncore.Document {
	msg, err := bson.Marshal(&bucket.MsgData{SendID: alice, RecvID: bob, SessionType: bucket.SessionSingle,
		ContentType: 101, Content: `{"content":"hi"}`, Seq: seq, SendTime: 1700000000000 + seq})
	if err != nil {
		t.Fatal(err)
	}
	idx, doc := bsoncore.AppendDocumentStart(nil)
	doc = bsoncore.AppendDocumentElement(doc, "msg", msg)
	doc = bsoncore.AppendNullElement(doc, "revoke")
	for _, users := range lists {
		aidx, d := bsoncore.AppendArrayElementStart(doc, "del_list")
		for i, u := range users {
			d = bsoncore.AppendStringElement(d, strconv.Itoa(i), u)
		}
		doc, _ = bsoncore.AppendArrayEnd(d, aidx)
	}
	doc = bsoncore.AppendBooleanElement(doc, "is_read", false)
	doc, _ = bsoncore.AppendDocumentEnd(doc, idx)
	return doc
}

// TestCheckNamesASlotWithTwoDelLists: a bucket whose slot holds two
// del_list fields (what one $addToSet naming several slots' del_list does
// on FerretDB v2 with DocumentDB; OpenIM's PushUnique names one slot per
// update) is reported as a duplicate, naming the bucket, the slot and its
// seq, and the read path marks that slot; its neighbours stay clean.
func TestCheckNamesASlotWithTwoDelLists(t *testing.T) {
	aidx, msgs := bsoncore.AppendArrayStart(nil)
	for i := range bucket.BucketSize {
		seq := int64(i + 1)
		var slot bsoncore.Document
		switch {
		case seq == 3:
			slot = slotWithDelLists(t, seq, []string{"kenji"}, []string{"kenji"}, []string{})
		case seq <= 4:
			slot = slotWithDelLists(t, seq, []string{"kenji"})
		default:
			slot = bsoncore.Document(testkit.Raw(t, bucket.NewDoc(docID).Msgs[i]))
		}
		msgs = bsoncore.AppendDocumentElement(msgs, strconv.Itoa(i), slot)
	}
	msgs, _ = bsoncore.AppendArrayEnd(msgs, aidx)
	didx, doc := bsoncore.AppendDocumentStart(nil)
	doc = bsoncore.AppendStringElement(doc, "doc_id", docID)
	doc = bsoncore.AppendArrayElement(doc, "msgs", msgs)
	doc, _ = bsoncore.AppendDocumentEnd(doc, didx)

	st, b := openStore(t, bson.Raw(doc))
	testkit.Insert(t, b, bucket.CollSeq, seqRecord(cid, 4))
	r, out := runCheck(t, st, "")
	if r.ByKind[bucket.KindDuplicate] != 1 || r.Problems() != 1 {
		t.Fatalf("check found %v, want the one slot with duplicate keys:\n%s", r.ByKind, out)
	}
	line := ""
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "  "+string(bucket.KindDuplicate)+"  ") && strings.Contains(l, " slot ") {
			line = l
		}
	}
	for _, want := range []string{docID, "slot 2", "seq 3", "3 fields named del_list"} {
		if !strings.Contains(line, want) {
			t.Errorf("check's line %q does not say %q:\n%s", line, want, out)
		}
	}
	bk := bucket.DecodeBucket(bson.Raw(doc))
	for i, s := range bk.Slots[:4] {
		if marked := s.Problem != ""; marked != (i == 2) {
			t.Errorf("seq %d drawn with marker %q; want one on seq 3 only", s.Seq, s.Problem)
		}
	}
}
