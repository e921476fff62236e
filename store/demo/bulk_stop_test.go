package demo

import (
	"context"
	"errors"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/mongostore"
	"github.com/chatlens/chatlens/store/mongotest"
)

// A bulk seed refused part way, in the middle of one ordered insert (a
// bucket of sg_family is stored already, and breaks the storage contract,
// so the state machine refuses to write into it), says exactly what it
// stored: the messages of the buckets inserted before the refused one,
// each conversation's last stored seq, and no seq above its seq document.
func TestSeedInBulkRefusedPartWaySaysWhatItStored(t *testing.T) {
	uri, _ := mongotest.URI(t)
	b, err := mongostore.Open(t.Context(), uri, mongotest.Database(t, uri), mongostore.Options{OpTimeout: slowServer})
	if err != nil {
		t.Fatal(err)
	}
	st := store.New(b, store.Options{})
	defer st.Close(context.Background())
	if err := b.EnsureIndexes(t.Context()); err != nil { // doc_id unique, as seed makes it
		t.Fatal(err)
	}
	broken, err := bson.Marshal(bson.D{{Key: "doc_id", Value: bucket.DocIDForSeq("sg_family", 1)}, {Key: "msgs", Value: "not a list"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.InsertRaw(t.Context(), bucket.CollMsg, []bson.Raw{broken}, store.RawInsert); err != nil {
		t.Fatal(err)
	}
	before := b.Traffic().Requests
	_, err = Seed(t.Context(), st, Options{Seed: 1, Conversations: 12, Messages: 20, LongMessages: -1, BulkBytes: 4 << 20}, nil)
	var stopped *StoppedError
	if !errors.As(err, &stopped) {
		t.Fatalf("seed over a broken bucket: %v; want it stopped", err)
	}
	t.Logf("%d requests: %v", b.Traffic().Requests-before, err)

	messages, last := 0, map[string]int64{}
	if err := b.ScanRaw(t.Context(), bucket.CollMsg, "", func(raw bson.Raw) error {
		bk := bucket.DecodeBucket(raw)
		for _, s := range bk.Slots {
			if s.Slot != nil && s.Slot.Msg != nil {
				messages++
				last[bk.Cid] = max(last[bk.Cid], s.Seq)
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if stopped.Stored != messages || messages == 0 {
		t.Errorf("the seed says it stored %d messages; the store holds %d", stopped.Stored, messages)
	}
	said := map[string]int64{}
	for _, c := range stopped.Convs {
		said[c.Cid] = c.Last
	}
	for cid, seq := range last {
		if said[cid] != seq {
			t.Errorf("%s: the seed says seqs 1-%d are stored, the store holds up to %d", cid, said[cid], seq)
		}
		recs, err := b.SeqRecords(t.Context(), []string{cid})
		if err != nil || len(recs) != 1 || recs[0].MaxSeq < seq {
			t.Errorf("%s: seq %d stored above its seq document %+v (%v)", cid, seq, recs, err)
		}
	}
	if len(said) != len(last) {
		t.Errorf("the seed names %d conversations, messages of %d are stored", len(said), len(last))
	}
}
