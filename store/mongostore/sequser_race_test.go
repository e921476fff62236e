package mongostore_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/event"

	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/mongostore"
	"github.com/chatlens/chatlens/store/mongotest"
)

// TestReadSeqRaceLeavesOneSeqUser: a read seq raise that finds no seq_user
// document for the pair, and meets another writer's raise of the same pair
// finishing before its insert is sent, leaves one document, raised to the
// higher of the two. The update carries no upsert (two racing upserts on
// OpenIM's non-unique pair index, pkg/common/storage/database/mgo/seq_user.go,
// both insert, as a real engine showed), and the insert's _id derived from
// the pair makes the unique _id index refuse the second.
func TestReadSeqRaceLeavesOneSeqUser(t *testing.T) {
	uri, _ := mongotest.URI(t)
	db := mongotest.Database(t, uri)
	open := func(m *event.CommandMonitor) *mongostore.Backend {
		b, err := mongostore.Open(t.Context(), uri, db, mongostore.Options{Timeout: 5 * time.Second, Monitor: m})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = b.Close(context.Background()) })
		return b
	}
	other := open(nil)
	if err := other.EnsureIndexes(t.Context()); err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	var upserts []bool
	var mu sync.Mutex
	monitor := &event.CommandMonitor{
		Started: func(_ context.Context, e *event.CommandStartedEvent) {
			if e.CommandName != "update" {
				return
			}
			stmts, _ := e.Command.Lookup("updates").Array().Values()
			up, _ := stmts[0].Document().Lookup("upsert").BooleanOK()
			mu.Lock()
			upserts = append(upserts, up)
			mu.Unlock()
		},
		Succeeded: func(_ context.Context, e *event.CommandSucceededEvent) {
			if e.CommandName != "update" {
				return
			}
			if n, _ := e.Reply.Lookup("n").AsInt64OK(); n != 0 {
				return
			}
			// The update matched nothing: the other writer's raise of the
			// same pair runs to its end before this one inserts.
			once.Do(func() {
				if err := other.RaiseReadSeq(context.Background(), "bob", "si_alice_bob", 9); err != nil {
					t.Errorf("the other writer's raise: %v", err)
				}
			})
		},
	}
	b := open(monitor)
	if err := b.RaiseReadSeq(t.Context(), "bob", "si_alice_bob", 7); err != nil {
		t.Fatalf("raise meeting the other writer's document: %v", err)
	}
	var docs []bson.Raw
	if err := b.ScanRaw(t.Context(), bucket.CollSeqUser, "", func(d bson.Raw) error { docs = append(docs, d); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(docs) != 1 {
		t.Fatalf("seq_user holds %d documents for bob in si_alice_bob, want 1: %v", len(docs), docs)
	}
	if got := bucket.DecodeSeqUser(docs[0]).ReadSeq; got != 9 {
		t.Errorf("read_seq %d, want 9 (the higher of the two raises)", got)
	}
	for _, up := range upserts {
		if up {
			t.Errorf("a seq_user update was sent with upsert: two racing upserts both insert")
		}
	}
}
