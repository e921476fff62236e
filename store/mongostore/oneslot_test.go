package mongostore_test

import (
	"regexp"
	"slices"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/mongotest"
)

var slotPathRE = regexp.MustCompile(`^msgs\.(\d+)(\.|$)`)

// slotsNamed lists the slots whose paths an update statement's u names,
// across all its operators ($set, $addToSet, ...).
func slotsNamed(u bson.Raw) []string {
	var slots []string
	ops, _ := u.Elements()
	for _, op := range ops {
		doc, ok := op.Value().DocumentOK()
		if !ok {
			continue
		}
		paths, _ := doc.Elements()
		for _, p := range paths {
			if m := slotPathRE.FindStringSubmatch(p.Key()); m != nil && !slices.Contains(slots, m[1]) {
				slots = append(slots, m[1])
			}
		}
	}
	return slots
}

// TestDeleteForMeSendsOneSlotPerUpdate: a delete for me of several seqs of
// one bucket goes out as one ordered update command (one round trip per
// bucket, as before) whose statements each name one slot's del_list, the
// shape OpenIM Server sends (pkg/common/storage/controller/msg.go
// DeleteUserMsgsBySeqs calls pkg/common/storage/database/mgo/msg.go
// PushUnique once per seq). One $addToSet naming slots that hold the user
// beside slots that do not leaves a slot with two del_list fields on
// FerretDB v2 with DocumentDB (shared/engine-recorded/README.md), the
// second overlapping delete here being that case.
func TestDeleteForMeSendsOneSlotPerUpdate(t *testing.T) {
	uri, _ := mongotest.URI(t)
	b, rec := openRecorded(t, uri, mongotest.Database(t, uri))
	st := store.New(b, store.Options{})
	ctx := t.Context()
	const cid = "sg_townsquare"
	msgs := make([]*bucket.MsgData, 4)
	for i := range msgs {
		msgs[i] = &bucket.MsgData{SendID: "ana", GroupID: "townsquare", SessionType: bucket.SessionGroup,
			ContentType: 101, Content: `{"content":"hi"}`, SendTime: 1700000000000 + int64(i)}
	}
	// one slot per update, one update command per bucket
	check := func(what string, wantStmts int) {
		t.Helper()
		var msgUpdates []bson.Raw
		for _, cmd := range rec.named("update") {
			if cmd.Lookup("update").StringValue() == bucket.CollMsg {
				msgUpdates = append(msgUpdates, cmd)
			}
		}
		if len(msgUpdates) != 1 {
			t.Fatalf("%s: %d update commands of msg, want 1 (one round trip)", what, len(msgUpdates))
		}
		stmts, _ := msgUpdates[0].Lookup("updates").Array().Values()
		if len(stmts) != wantStmts {
			t.Errorf("%s: %d statements, want %d", what, len(stmts), wantStmts)
		}
		if o, ok := msgUpdates[0].Lookup("ordered").BooleanOK(); ok && !o {
			t.Errorf("%s: an unordered update command", what)
		}
		for _, s := range stmts {
			u := s.Document().Lookup("u").Document()
			if slots := slotsNamed(u); len(slots) != 1 {
				t.Errorf("%s: one update statement names slots %v", what, slots)
			}
		}
	}
	if _, err := st.InsertMessages(ctx, cid, 1, msgs); err != nil {
		t.Fatal(err)
	}
	for _, seqs := range [][]int64{{1, 2}, {1, 2, 3}} {
		rec.reset()
		if _, err := st.DeleteForMe(ctx, cid, seqs, "kenji"); err != nil {
			t.Fatal(err)
		}
		check("delete for me of "+store.FormatSeqs(seqs), len(seqs))
	}
	raws, err := b.FindBuckets(ctx, []string{cid + ":0"})
	if err != nil || len(raws) != 1 {
		t.Fatalf("read back: %v", err)
	}
	slots, _ := raws[0].Lookup("msgs").Array().Values()
	for i, want := range []int{1, 1, 1, 0} {
		elems, _ := slots[i].Document().Elements()
		lists := 0
		for _, e := range elems {
			if e.Key() == "del_list" {
				lists++
				if vals, _ := e.Value().Array().Values(); len(vals) != want {
					t.Errorf("seq %d: del_list %s, want kenji %d time(s)", i+1, e.Value(), want)
				}
			}
		}
		if lists != 1 {
			t.Errorf("seq %d: %d del_list fields, want 1", i+1, lists)
		}
	}
}
