package mongostore_test

import (
	"context"
	"fmt"
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

// TestFirstRaiseRaceLeavesOneRecord: a max seq or read seq raise that
// finds no record for its key, and meets another writer's first record of
// it landing before its own insert, leaves one record, raised to the
// higher of the two. OpenIM's indexes on seq {conversation_id} and
// seq_user {user_id, conversation_id} are not unique
// (pkg/common/storage/database/mgo seq_conversation.go
// NewSeqConversationMongo, seq_user.go NewSeqUserMongo), so two first
// upserts racing both inserted, as a real engine showed; the _id derived
// from the key makes the unique _id index refuse the second. A server
// runs an upsert's match and insert too fast to land the other writer
// between them on purpose, so the other writer's record is stored as the
// raise is sent under a conversation the filter does not match yet, and
// takes its conversation once the refused raise has come back; the raise
// sent again must find it.
func TestFirstRaiseRaceLeavesOneRecord(t *testing.T) {
	maxSeq := func(b *mongostore.Backend, ctx context.Context) (any, error) {
		recs, err := b.SeqRecords(ctx, []string{"si_alice_bob"})
		return recs, err
	}
	for _, c := range []struct {
		name, coll, id string
		key            bson.D
		raise          func(b *mongostore.Backend, ctx context.Context) error
		read           func(b *mongostore.Backend, ctx context.Context) (any, error)
		want           string
	}{
		{"RaiseMaxSeq", bucket.CollSeq, bucket.SeqID("si_alice_bob"), nil,
			func(b *mongostore.Backend, ctx context.Context) error { return b.RaiseMaxSeq(ctx, "si_alice_bob", 7) },
			maxSeq, "[{ConversationID:si_alice_bob MaxSeq:9 MinSeq:0}]"},
		{"RaiseMaxSeqs", bucket.CollSeq, bucket.SeqID("si_alice_bob"), nil,
			func(b *mongostore.Backend, ctx context.Context) error {
				return b.RaiseMaxSeqs(ctx, []store.SeqRaise{{Cid: "sg_quiet", MaxSeq: 3}, {Cid: "si_alice_bob", MaxSeq: 7}})
			},
			maxSeq, "[{ConversationID:si_alice_bob MaxSeq:9 MinSeq:0}]"},
		{"RaiseReadSeq", bucket.CollSeqUser, bucket.SeqUserID("bob", "si_alice_bob"), bson.D{{Key: "user_id", Value: "bob"}},
			func(b *mongostore.Backend, ctx context.Context) error {
				return b.RaiseReadSeq(ctx, "bob", "si_alice_bob", 7)
			},
			func(b *mongostore.Backend, ctx context.Context) (any, error) {
				return b.SeqUsers(ctx, "bob", []string{"si_alice_bob"})
			}, "[{UserID:bob ConversationID:si_alice_bob MinSeq:0 MaxSeq:0 ReadSeq:9}]"},
	} {
		t.Run(c.name, func(t *testing.T) {
			uri, _ := mongotest.URI(t)
			db := mongotest.Database(t, uri)
			client, err := mongo.Connect(options.Client().ApplyURI(uri))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = client.Disconnect(context.Background()) })
			coll := client.Database(db).Collection(c.coll)
			field := "max_seq"
			if c.coll == bucket.CollSeqUser {
				field = "read_seq"
			}
			var sent atomic.Int32
			monitor := &event.CommandMonitor{
				Started: func(_ context.Context, e *event.CommandStartedEvent) {
					if e.CommandName == "update" && sent.Add(1) == 1 {
						other := append(bson.D{{Key: "_id", Value: c.id}}, c.key...)
						other = append(other, bson.E{Key: "conversation_id", Value: "not yet"}, bson.E{Key: field, Value: int64(9)})
						if _, err := coll.InsertOne(context.Background(), other); err != nil {
							t.Errorf("the other writer's record: %v", err)
						}
					}
				},
				Succeeded: func(_ context.Context, e *event.CommandSucceededEvent) {
					if e.CommandName == "update" && sent.Load() == 1 {
						_, err := coll.UpdateOne(context.Background(), bson.D{{Key: "_id", Value: c.id}},
							bson.D{{Key: "$set", Value: bson.D{{Key: "conversation_id", Value: "si_alice_bob"}}}})
						if err != nil {
							t.Errorf("the other writer's record: %v", err)
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
			if err := c.raise(b, t.Context()); err != nil {
				t.Fatalf("raise meeting the other writer's record: %v", err)
			}
			got, err := c.read(b, t.Context())
			if err != nil {
				t.Fatal(err)
			}
			if s := fmt.Sprintf("%+v", got); s != c.want {
				t.Errorf("%s of si_alice_bob = %s; want %s, one record raised to the higher of the two raises", c.coll, s, c.want)
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
