package bucket_test

import (
	"context"
	"path/filepath"
	"sync"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/demo"
	"github.com/chatlens/chatlens/store/embedded"
)

// tinyDemo sizes the demo dataset so that seeding takes a fraction of a
// second while the long group still fills whole buckets.
var tinyDemo = demo.Options{Seed: 7, Conversations: 3, Messages: 60, LongMessages: 250}

// demoBuckets are the raw msg documents of the tiny demo dataset, seeded
// once per test binary into an embedded store in a temporary directory.
func demoBuckets(tb testing.TB) []bson.Raw {
	tb.Helper()
	raws, err := seedDemo(tb.TempDir())
	if err != nil {
		tb.Fatal(err)
	}
	return raws
}

var (
	demoOnce sync.Once
	demoRaws []bson.Raw
	demoErr  error
)

func seedDemo(dir string) ([]bson.Raw, error) {
	demoOnce.Do(func() {
		ctx := context.Background()
		bk, err := embedded.Open(filepath.Join(dir, "demo.db"), embedded.Options{NoSync: true})
		if err != nil {
			demoErr = err
			return
		}
		st := store.New(bk, store.Options{})
		defer st.Close(ctx)
		if _, demoErr = demo.Seed(ctx, st, tinyDemo, nil); demoErr != nil {
			return
		}
		demoErr = bk.ScanRaw(ctx, bucket.CollMsg, "", func(raw bson.Raw) error {
			demoRaws = append(demoRaws, append(bson.Raw(nil), raw...))
			return nil
		})
	})
	return demoRaws, demoErr
}

// fullestDemoBucket is the demo bucket holding the most messages: the long
// group's, with text, pictures, files, quotes, a revoke and a del_list.
func fullestDemoBucket(tb testing.TB) bson.Raw {
	tb.Helper()
	var best bson.Raw
	most := -1
	for _, raw := range demoBuckets(tb) {
		n := 0
		for _, s := range refDecodeBucket(raw).Slots {
			if !s.IsHole() {
				n++
			}
		}
		if n > most {
			best, most = raw, n
		}
	}
	return best
}

// withProductionExtras is a copy of raw where every message carries what
// the demo leaves out but a production server writes: an options map, and
// on some messages an @ list and an offline push block.
func withProductionExtras(tb testing.TB, raw bson.Raw) bson.Raw {
	tb.Helper()
	var doc bucket.Doc
	if err := bson.Unmarshal(raw, &doc); err != nil {
		tb.Fatal(err)
	}
	for i, s := range doc.Msgs {
		if s == nil || s.Msg == nil {
			continue
		}
		s.Msg.Options = map[string]bool{"history": true, "persistent": true, "offlinePush": i%3 != 0,
			"unreadCount": true, "updateConversation": true}
		if i%4 == 0 {
			s.Msg.AtUserIDList = []string{"bob", "lilei"}
		}
		if i%5 == 0 {
			s.Msg.OfflinePush = &bucket.OfflinePush{Title: "New message", Desc: "You have a new message", IOSPushSound: "default", IOSBadgeCount: true}
		}
	}
	out, err := bson.Marshal(doc)
	if err != nil {
		tb.Fatal(err)
	}
	return out
}
