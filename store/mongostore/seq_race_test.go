package mongostore_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/event"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/mongostore"
	"github.com/chatlens/chatlens/store/mongotest"
	"github.com/chatlens/chatlens/store/testkit"
)

// TestMaxSeqRaceLeavesOneSeq: a max seq raise that finds no seq document
// for its conversation, and meets another writer's first document of it
// landing before its own insert, leaves one document, raised to the
// higher of the two. OpenIM's index on seq {conversation_id} is not
// unique (pkg/common/storage/database/mgo/seq_conversation.go
// NewSeqConversationMongo), so two first upserts racing both inserted, as
// a real engine showed; the _id derived from the conversation makes the
// unique _id index refuse the second. A server runs an upsert's match and
// insert too fast to land the other writer between them on purpose, so
// the other writer's document is stored as the raise is sent under a key
// the filter does not match yet, and takes its conversation once the
// refused raise has come back; the raise sent again must find it.
func TestMaxSeqRaceLeavesOneSeq(t *testing.T) {
	for name, raise := range map[string]func(b *mongostore.Backend, ctx context.Context) error{
		"RaiseMaxSeq": func(b *mongostore.Backend, ctx context.Context) error { return b.RaiseMaxSeq(ctx, "sg_busy", 7) },
		"RaiseMaxSeqs": func(b *mongostore.Backend, ctx context.Context) error {
			return b.RaiseMaxSeqs(ctx, []store.SeqRaise{{Cid: "sg_quiet", MaxSeq: 3}, {Cid: "sg_busy", MaxSeq: 7}})
		},
	} {
		t.Run(name, func(t *testing.T) {
			uri, _ := mongotest.URI(t)
			db := mongotest.Database(t, uri)
			client, err := mongo.Connect(options.Client().ApplyURI(uri))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = client.Disconnect(context.Background()) })
			seq := client.Database(db).Collection(bucket.CollSeq)
			var sent atomic.Int32
			monitor := &event.CommandMonitor{
				Started: func(_ context.Context, e *event.CommandStartedEvent) {
					if (e.CommandName == "update" || e.CommandName == "bulkWrite") && sent.Add(1) == 1 {
						other := bson.D{{Key: "_id", Value: bucket.SeqID("sg_busy")}, {Key: "conversation_id", Value: "not yet"},
							{Key: "max_seq", Value: int64(9)}, {Key: "min_seq", Value: int64(0)}}
						if _, err := seq.InsertOne(context.Background(), other); err != nil {
							t.Errorf("the other writer's document: %v", err)
						}
					}
				},
				Succeeded: func(_ context.Context, e *event.CommandSucceededEvent) {
					if (e.CommandName == "update" || e.CommandName == "bulkWrite") && sent.Load() == 1 {
						_, err := seq.UpdateOne(context.Background(), bson.D{{Key: "_id", Value: bucket.SeqID("sg_busy")}},
							bson.D{{Key: "$set", Value: bson.D{{Key: "conversation_id", Value: "sg_busy"}}}})
						if err != nil {
							t.Errorf("the other writer's document: %v", err)
						}
					}
				},
			}
			b, err := mongostore.Open(t.Context(), uri, db, mongostore.Options{Timeout: 5 * time.Second, Monitor: monitor})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = b.Close(context.Background()) })
			if err := b.EnsureIndexes(t.Context()); err != nil {
				t.Fatal(err)
			}
			sent.Store(0)
			if err := raise(b, t.Context()); err != nil {
				t.Fatalf("raise meeting the other writer's document: %v", err)
			}
			recs, err := b.SeqRecords(t.Context(), []string{"sg_busy"})
			if err != nil {
				t.Fatal(err)
			}
			if len(recs) != 1 || recs[0].MaxSeq != 9 {
				t.Errorf("seq of sg_busy = %+v; want one document, max_seq 9 (the higher of the two raises)", recs)
			}
		})
	}
}

// TestMaxSeqRaisesOpenIMsOwnSeq: a seq document OpenIM Server stored,
// under an ObjectID _id, is the one a raise changes, alone or in a bulk:
// no second document beside it under chatlens's _id.
func TestMaxSeqRaisesOpenIMsOwnSeq(t *testing.T) {
	b := fresh(t)
	ctx := t.Context()
	testkit.Insert(t, b, bucket.CollSeq,
		bson.D{{Key: "_id", Value: bson.NewObjectID()}, {Key: "conversation_id", Value: "sg_a"}, {Key: "max_seq", Value: int64(3)}, {Key: "min_seq", Value: int64(0)}},
		bson.D{{Key: "_id", Value: bson.NewObjectID()}, {Key: "conversation_id", Value: "sg_b"}, {Key: "max_seq", Value: int64(3)}, {Key: "min_seq", Value: int64(0)}})
	if err := b.RaiseMaxSeq(ctx, "sg_a", 5); err != nil {
		t.Fatal(err)
	}
	if err := b.RaiseMaxSeqs(ctx, []store.SeqRaise{{Cid: "sg_b", MaxSeq: 6}, {Cid: "sg_c", MaxSeq: 2}}); err != nil {
		t.Fatal(err)
	}
	recs, err := b.SeqRecords(ctx, []string{"sg_a", "sg_b", "sg_c"})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]int64{}
	for _, r := range recs {
		got[r.ConversationID] = append(got[r.ConversationID], r.MaxSeq)
	}
	want := map[string]int64{"sg_a": 5, "sg_b": 6, "sg_c": 2}
	for cid, max := range want {
		if len(got[cid]) != 1 || got[cid][0] != max {
			t.Errorf("seq of %s: max_seq %v; want one document, %d", cid, got[cid], max)
		}
	}
}
