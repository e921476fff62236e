package store_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/testkit"
)

// scopeRecorder records the buckets each scoped query names, and plays a
// server whose msg collection is sharded on shardKey.
// It serves store.BucketReader's FindMsgDocIDsIn and store.ShardKeyed;
// every other call goes to the Backend it wraps.
type scopeRecorder struct {
	store.Backend
	shardKey string
	searched []string
}

func (r *scopeRecorder) FindMsgDocIDsIn(ctx context.Context, ids []string, field, value string) ([]string, error) {
	r.searched = append(r.searched, ids...)
	return r.Backend.FindMsgDocIDsIn(ctx, ids, field, value)
}

func (r *scopeRecorder) MsgShardKey(context.Context) (string, error) { return r.shardKey, nil }

// findFixture stores 40 conversations of 30 messages, u1 owning 3 of them;
// sg_long of 500 messages (5 buckets), each bucket sent a day after the
// one before; and "twin" stored in two of u1's conversations.
func findFixture(t *testing.T) (*scopeRecorder, time.Time) {
	t.Helper()
	b := testkit.TempBackend(t)
	w := store.New(b, store.Options{})
	day0 := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	put := func(cid string, n int, at func(i int) time.Time, id func(i int) string) {
		msgs := textMsgs(n)
		for i, m := range msgs {
			m.SendTime, m.ClientMsgID = at(i).UnixMilli(), id(i)
		}
		if _, err := w.InsertMessages(t.Context(), cid, 1, msgs); err != nil {
			t.Fatal(err)
		}
	}
	for c := range 40 {
		cid := fmt.Sprintf("sg_c%02d", c)
		put(cid, 30, func(i int) time.Time { return day0.Add(time.Duration(i) * time.Minute) },
			func(i int) string {
				if i == 7 && (c == 3 || c == 5) {
					return "twin"
				}
				return fmt.Sprintf("%s-%d", cid, i)
			})
	}
	put("sg_long", 500, func(i int) time.Time { return day0.Add(time.Duration(i/100) * 24 * time.Hour) },
		func(i int) string { return fmt.Sprintf("long-%d", i+1) })
	for _, cid := range []string{"sg_c03", "sg_c05", "sg_long"} {
		testkit.Insert(t, b, bucket.CollConversation, bson.D{{Key: "owner_user_id", Value: "u1"}, {Key: "conversation_id", Value: cid}})
	}
	return &scopeRecorder{Backend: b}, day0
}

// TestFindScopedByUserAndDate: a find scoped to a user searches only the
// buckets of that user's conversations, named by doc_id, in a handful of
// round trips (indexes, the shard key, the conversation and seq documents,
// one query, the bucket of the hit), where the unscoped scan asks every conversation; with a date
// it searches a conversation's buckets newest first and stops at the
// first whose messages start before the date; it stops at the first hit
// unless asked for all.
func TestFindScopedByUserAndDate(t *testing.T) {
	rec, day0 := findFixture(t)
	s := store.New(rec, store.Options{})
	find := func(value string, scope store.FindScope) ([]store.Found, store.FindPlan, int64) {
		t.Helper()
		rec.searched = nil
		before := s.Stats().RoundTrips
		found, plan, err := s.FindMessage(t.Context(), store.FieldClientMsgID, value, store.FindOptions{Scope: scope})
		if err != nil {
			t.Fatal(err)
		}
		return found, plan, s.Stats().RoundTrips - before
	}
	found, plan, trips := find("long-450", store.FindScope{As: "u1"})
	if len(found) != 1 || found[0].ConversationID != "sg_long" || found[0].Seq != 450 {
		t.Errorf("found %+v, want sg_long seq 450", found)
	}
	if !plan.Scoped || plan.Conversations != 3 || plan.Buckets != 7 || len(rec.searched) != 7 {
		t.Errorf("plan %+v, searched %v: want u1's 3 conversations, 7 buckets", plan, rec.searched)
	}
	if trips != 6 { // indexes, shard key, conversation and seq documents, one query, the hit's bucket
		t.Errorf("the find scoped to u1 took %d round trips, want 6", trips)
	}
	if _, _, all := find("long-450", store.FindScope{}); all < 40 {
		t.Errorf("the unscoped scan took %d round trips: the comparison says nothing", all)
	}

	// Bucket 4 (seqs 401-500) was sent from day 4: since day 3 noon,
	// buckets 4 and 3 (which straddles it) are searched, 2 and older not.
	since := day0.Add(3*24*time.Hour + 12*time.Hour)
	found, _, _ = find("long-350", store.FindScope{Conversation: "sg_long", Since: since})
	if len(found) != 1 || fmt.Sprint(rec.searched) != "[sg_long:4 sg_long:3]" {
		t.Errorf("since day 3 noon: found %+v, searched %v; want seq 350 in [sg_long:4 sg_long:3]", found, rec.searched)
	}
	if found, _, _ = find("long-250", store.FindScope{Conversation: "sg_long", Since: since}); len(found) != 0 {
		t.Errorf("a message older than the date was found: %+v", found)
	}

	if found, _, _ = find("twin", store.FindScope{As: "u1"}); len(found) != 1 {
		t.Errorf("without all: %d hits, want the first only", len(found))
	}
	if found, _, _ = find("twin", store.FindScope{As: "u1", All: true}); len(found) != 2 {
		t.Errorf("with all: %d hits, want both", len(found))
	}
}

// TestFindSaysWhenEveryShardAnswers: on a cluster sharded by a hashed
// doc_id, the unscoped scan's prefix ranges go to every shard, and a
// scope's lists of doc_ids go to the shards holding them; a key not on
// doc_id sends every query everywhere.
func TestFindSaysWhenEveryShardAnswers(t *testing.T) {
	rec, _ := findFixture(t)
	s := store.New(rec, store.Options{})
	for _, c := range []struct {
		key   string
		scope store.FindScope
		every bool
	}{
		{"doc_id: hashed", store.FindScope{}, true},
		{"doc_id: hashed", store.FindScope{As: "u1"}, false},
		{"doc_id: 1", store.FindScope{}, false},
		{"_id: hashed", store.FindScope{As: "u1"}, true},
		{"", store.FindScope{}, false},
	} {
		rec.shardKey = c.key
		_, plan, err := s.FindMessage(t.Context(), store.FieldClientMsgID, "long-450", store.FindOptions{Scope: c.scope})
		if err != nil {
			t.Fatal(err)
		}
		if plan.ShardKey != c.key || plan.EveryShard != c.every {
			t.Errorf("shard key %q, scope %+v: plan says key %q, every shard %v; want %v", c.key, c.scope, plan.ShardKey, plan.EveryShard, c.every)
		}
	}
}
