package mongostore_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/mongostore"
	"github.com/chatlens/chatlens/store/mongotest"
	"github.com/chatlens/chatlens/store/testkit"
)

// skeleton is a query part with every value replaced by "?": keys and
// operators, in order, are the shape.
func skeleton(v bson.RawValue) string {
	switch v.Type {
	case bson.TypeEmbeddedDocument:
		elems, _ := v.Document().Elements()
		parts := make([]string, len(elems))
		for i, e := range elems {
			parts[i] = e.Key() + ": " + skeleton(e.Value())
		}
		return "{" + strings.Join(parts, ", ") + "}"
	case bson.TypeArray:
		return "[...]"
	}
	return "?"
}

// queryShape is the shape of a find or update command: filter, projection,
// sort and limit of a find; q, u and upsert of an update's first statement.
func queryShape(t *testing.T, cmd bson.Raw) string {
	t.Helper()
	part := func(doc bson.Raw, key string) string {
		v, err := doc.LookupErr(key)
		if err != nil {
			return key + "=none"
		}
		if key == "upsert" {
			return fmt.Sprintf("upsert=%v", v.Boolean())
		}
		if key == "limit" {
			return fmt.Sprintf("limit=%d", v.AsInt64())
		}
		return key + "=" + skeleton(v)
	}
	if _, err := cmd.LookupErr("find"); err == nil {
		return strings.Join([]string{"find", part(cmd, "filter"), part(cmd, "projection"), part(cmd, "sort"), part(cmd, "limit")}, " ")
	}
	stmts, err := cmd.LookupErr("updates")
	if err != nil {
		t.Fatalf("neither a find nor an update: %s", cmd)
	}
	vals, _ := stmts.Array().Values()
	first := vals[0].Document()
	up := "upsert=false"
	if v, err := first.LookupErr("upsert"); err == nil {
		up = fmt.Sprintf("upsert=%v", v.Boolean())
	}
	return strings.Join([]string{"update", part(first, "q"), part(first, "u"), up}, " ")
}

// TestExplainedShapesAreTheOnesSent: for every query the backend sends on a
// read or a write, check explains a command of exactly that shape (the
// filter, update, projection and sort as the server receives them, seen by a
// command monitor), so a report of an index use is about the real query.
// The msg shapes are OpenIM's (open-im-server
// pkg/common/storage/database/mgo/msg.go: UpdateMsg, PushUnique,
// MarkSingleChatMsgsAsRead) plus chatlens's conditional revoke.
func TestExplainedShapesAreTheOnesSent(t *testing.T) {
	uri, _ := mongotest.URI(t)
	b, rec := openRecorded(t, uri, mongotest.Database(t, uri))
	ctx := t.Context()
	const cid = "si_a_b"
	doc := cid + ":0"
	one := []store.SlotValue{{Slot: 0, Value: nil}} // a value is data, not shape
	testkit.Insert(t, b, bucket.CollMsg, tinyBuckets(doc)...)
	sends := map[string]struct {
		cmd string
		run func(context.Context) error
	}{
		"find msg {doc_id: {$in}} (read buckets)": {"find", func(ctx context.Context) error {
			_, err := b.FindBuckets(ctx, []string{doc, cid + ":1"})
			return err
		}},
		"find msg {doc_id} {msgs: {$slice}} (read slots)": {"find", func(ctx context.Context) error {
			_, _, err := b.FindSlots(ctx, doc, 0, 1)
			return err
		}},
		"find msg {doc_id: prefix range} (list buckets)": {"find", func(ctx context.Context) error {
			_, err := b.BucketIDs(ctx, cid)
			return err
		}},
		"update msg {doc_id} $set (insert)": {"update", func(ctx context.Context) error {
			_, err := b.SetSlotsField(ctx, doc, "msg", one)
			return err
		}},
		"update msg {doc_id, msgs.<i>.revoke $not $type} $set (revoke)": {"update", func(ctx context.Context) error {
			_, err := b.SetSlotsFieldIfUnset(ctx, doc, "revoke", one)
			return err
		}},
		"update msg {doc_id} $addToSet (delete for me)": {"update", func(ctx context.Context) error {
			_, err := b.AddToDelLists(ctx, doc, []int{0}, []string{"u"})
			return err
		}},
		"update msg {doc_id, send_id $ne} (mark read)": {"update", func(ctx context.Context) error {
			_, err := b.MarkSlotsRead(ctx, []store.BucketSlots{{DocID: doc, Slots: []int{0}}}, "u")
			return err
		}},
		"find seq {conversation_id: {$in}}": {"find", func(ctx context.Context) error {
			_, err := b.SeqRecords(ctx, []string{cid})
			return err
		}},
		"find seq_user {user_id, conversation_id: {$in}}": {"find", func(ctx context.Context) error {
			_, err := b.SeqUsers(ctx, "u", []string{cid})
			return err
		}},
		"find seq_user {conversation_id, user_id: {$in}}": {"find", func(ctx context.Context) error {
			_, err := b.SeqUsersOf(ctx, cid, []string{"u", "v"})
			return err
		}},
		"find conversation {owner_user_id}": {"find", func(ctx context.Context) error {
			_, err := b.Conversations(ctx, "u")
			return err
		}},
		"find msg {doc_id: $gt} sort limit 1 (next conversation)": {"find", func(ctx context.Context) error {
			_, _, err := b.NextConversationID(ctx, cid)
			return err
		}},
		"update seq {conversation_id} $max upsert (max seq)": {"update", func(ctx context.Context) error {
			return b.RaiseMaxSeq(ctx, cid, 5)
		}},
		"update seq_user {user_id, conversation_id} $max (read seq)": {"update", func(ctx context.Context) error {
			return b.RaiseReadSeq(ctx, "u", cid, 5)
		}},
		"find user {user_id: {$in}}": {"find", func(ctx context.Context) error {
			_, err := b.Users(ctx, []string{"u"})
			return err
		}},
		"find group {group_id: {$in}}": {"find", func(ctx context.Context) error {
			_, err := b.Groups(ctx, []string{"g"})
			return err
		}},
		"find group_member {group_id}": {"find", func(ctx context.Context) error {
			_, err := b.GroupMembers(ctx, "g")
			return err
		}},
	}
	explained := mongostore.ExplainedCommands()
	for name := range explained {
		if _, ok := sends[name]; !ok {
			t.Errorf("check explains %q, which no backend method here sends", name)
		}
	}
	for name, s := range sends {
		cmd, ok := explained[name]
		if !ok {
			t.Errorf("the backend sends %q, which check does not explain", name)
			continue
		}
		rec.reset()
		if err := s.run(ctx); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		sent := rec.named(s.cmd)
		if len(sent) == 0 {
			t.Fatalf("%s: no %s command sent", name, s.cmd)
		}
		raw, err := bson.Marshal(cmd)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := queryShape(t, sent[0]), queryShape(t, raw); got != want {
			t.Errorf("%s:\nsent      %s\nexplained %s", name, got, want)
		}
	}
}
