package main

import (
	"context"
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bench"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/ui"
)

// The heavy list: a user in heavyRows conversations (a bot, a
// customer-service seat), each a group of 10 messages, listed by the UI,
// and beside it the list's windows read as they were before (every newest
// bucket whole).

const (
	heavyViewer = "heavy"
	heavyRows   = 10_000
)

// heavyListOps seeds rows conversations of heavyViewer into st and lists
// them at each latency: the UI's list to its first screen (the newest
// slots of every row, the names and newest buckets of the rows on screen)
// and until every row is named, and the windows read with
// every newest bucket whole. traffic is the backend's own count of bytes
// read (records included), nil where it keeps none.
func heavyListOps(ctx context.Context, st *store.Store, counter *bench.Counting, traffic func() int64, latencies []time.Duration, rows int, say func(string)) ([]latencyOp, error) {
	say(fmt.Sprintf("seeding a user in %d conversations", rows))
	if err := seedHeavyUser(ctx, st, rows); err != nil {
		return nil, err
	}
	var out []latencyOp
	for _, lat := range latencies {
		counter.SetLatency(lat)
		type mark struct {
			c bench.Counts
			b int64
			t time.Time
		}
		now := func() mark { return mark{counter.Counts(), traffic(), time.Now()} }
		add := func(name string, limit int64, from mark, note string) {
			to := now()
			d := to.c.Sub(from.c)
			out = append(out, latencyOp{Name: name, Latency: lat, RoundTrips: d.RoundTrips, Documents: d.Documents,
				Bytes: to.b - from.b, Time: to.t.Sub(from.t), Limit: limit, Note: note})
		}
		measure := func(name string, limit int64, run func() string) {
			from := now()
			add(name, limit, from, run())
		}
		// The first screen: the conversation, seq and seq_user documents,
		// the newest slots of every row, the names and newest buckets of
		// the rows on screen. Then the names of the rows below it.
		from := now()
		sc := ui.StartScript(ctx, st, ui.Options{As: heavyViewer, TimeZone: time.UTC}, 120, 40)
		note := ""
		sc.ListDrawn(func() {
			if v := sc.Viewer(); v != heavyViewer {
				note = "viewing as " + v
			}
			add(fmt.Sprintf("list of %d conversations: its first screen", rows), 7, from, note)
		})
		sc.Settle()
		add("  and every row named", 10, from, note) // and the notification section's max seqs
		// The three collections and every newest bucket whole: the read
		// the list made before, without the names.
		measure("  its windows, every newest bucket whole", 4, func() string {
			list, err := st.ConversationList(ctx, heavyViewer, store.ListOptions{WholeNewest: rows})
			if err != nil {
				return err.Error()
			}
			if len(list) != rows {
				return fmt.Sprintf("%d rows, want %d", len(list), rows)
			}
			return ""
		})
	}
	counter.SetLatency(0)
	return out, nil
}

// seedHeavyUser writes rows groups of 10 messages with heavyViewer in
// each, as raw documents in bulk: a bucket, a seq, a conversation and a
// seq_user document each, and a group.
func seedHeavyUser(ctx context.Context, st *store.Store, rows int) error {
	colls := map[string][]bson.Raw{}
	add := func(coll string, v any) error {
		raw, err := bson.Marshal(v)
		colls[coll] = append(colls[coll], raw)
		return err
	}
	base := time.Date(2024, 1, 8, 9, 0, 0, 0, time.UTC).UnixMilli()
	for i := range rows {
		gid := fmt.Sprintf("heavy%05d", i)
		cid := store.GroupChatID(gid)
		doc := bucket.NewDoc(bucket.DocID(cid, 0))
		for s := range 10 {
			sent := base + int64(i)*60_000 + int64(s)*1000
			doc.Msgs[s].Msg = &bucket.MsgData{SendID: "cs" + fmt.Sprint(s%3), GroupID: gid, ClientMsgID: fmt.Sprintf("%s-%d", gid, s+1),
				ServerMsgID: fmt.Sprintf("%s-s%d", gid, s+1), SessionType: bucket.SessionGroup, MsgFrom: bucket.MsgFromUser,
				ContentType: 101, Content: fmt.Sprintf(`{"content":"ticket %d, message %d"}`, i, s+1), Seq: int64(s + 1),
				SendTime: sent, CreateTime: sent, Status: bucket.StatusSent, Options: map[string]bool{}, AtUserIDList: []string{}}
		}
		for coll, v := range map[string]any{
			bucket.CollMsg:          doc,
			bucket.CollSeq:          bucket.SeqRecord{ConversationID: cid, MaxSeq: 10},
			bucket.CollConversation: bucket.Conversation{OwnerUserID: heavyViewer, ConversationID: cid, ConversationType: bucket.SessionGroup, GroupID: gid},
			bucket.CollSeqUser:      bucket.SeqUser{UserID: heavyViewer, ConversationID: cid, ReadSeq: int64(i % 11)},
			bucket.CollGroup:        bucket.Group{GroupID: gid, GroupName: fmt.Sprintf("Ticket #%d", i)},
		} {
			if err := add(coll, v); err != nil {
				return err
			}
		}
	}
	for _, coll := range []string{bucket.CollMsg, bucket.CollSeq, bucket.CollConversation, bucket.CollSeqUser, bucket.CollGroup} {
		docs := colls[coll]
		for len(docs) > 0 {
			n := min(len(docs), heavySeedBatch)
			if _, err := st.Backend().InsertRaw(ctx, coll, docs[:n], store.RawUpsert); err != nil {
				return fmt.Errorf("bench: seeding the heavy user: %w", err)
			}
			docs = docs[n:]
		}
	}
	return st.Backend().Flush(ctx)
}

// heavySeedBatch is how many documents the heavy user's seed sends a
// request: a real engine (FerretDB v2 + DocumentDB) gave no answer within
// the 15 s request timeout to one upsert of 1,000 buckets
// (mongostore.RawBatch); a tenth of that is a few seconds at its worst.
const heavySeedBatch = 100
