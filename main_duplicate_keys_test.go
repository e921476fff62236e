package main

import (
	"context"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/check/checktest"
	"github.com/chatlens/chatlens/store/embedded"
	"github.com/chatlens/chatlens/store/testkit"
)

// twoDelListsSandbox holds si_alice_bob, seqs 1-3, whose seq 2 slot holds
// two del_list fields, as FerretDB v2 with DocumentDB leaves a slot after
// one $addToSet naming several slots' del_list where some held the user
// already (OpenIM's PushUnique never sends that shape).
func twoDelListsSandbox(t *testing.T) (sandbox, string) {
	t.Helper()
	const cid = "si_alice_bob"
	s := empty(t)
	b := testkit.Open(t, s.data, embedded.Options{NoSync: true})
	defer b.Close(context.Background())
	st := store.New(b, store.Options{})
	ctx := context.Background()
	var msgs []*bucket.MsgData
	for i := range 3 {
		msgs = append(msgs, &bucket.MsgData{SendID: "bob", RecvID: "alice", SessionType: bucket.SessionSingle,
			MsgFrom: bucket.MsgFromUser, ContentType: 101, Content: `{"content":"hello"}`,
			SendTime: 1700000000000 + int64(i), Status: bucket.StatusSent})
	}
	if _, err := st.InsertMessages(ctx, cid, 1, msgs); err != nil {
		t.Fatal(err)
	}
	testkit.Insert(t, b, bucket.CollConversation, bucket.Conversation{OwnerUserID: "alice", ConversationID: cid,
		ConversationType: 1, UserID: "bob"})
	raws, err := b.FindBuckets(ctx, []string{cid + ":0"})
	if err != nil || len(raws) != 1 {
		t.Fatalf("read the bucket: %v", err)
	}
	var doc bson.D
	if err := bson.Unmarshal(raws[0], &doc); err != nil {
		t.Fatal(err)
	}
	for i := range doc {
		if doc[i].Key == "msgs" {
			slots := doc[i].Value.(bson.A)
			slots[1] = checktest.Twice(slots[1].(bson.D), "del_list", bson.A{"alice"})
		}
	}
	if _, err := b.InsertRaw(ctx, bucket.CollMsg, []bson.Raw{testkit.Raw(t, doc)}, store.RawUpsert); err != nil {
		t.Fatal(err)
	}
	return s, cid
}

// TestASlotWithTwoDelListsIsNamedEverywhere: check names the bucket, slot
// and seq of a slot holding two del_list fields; dump marks that seq as
// malformed, saying why; export writes the document as stored and warns
// that it breaks the bucket contract, and so does an import of that export.
func TestASlotWithTwoDelListsIsNamedEverywhere(t *testing.T) {
	t.Parallel()
	s, cid := twoDelListsSandbox(t)
	const why = "slot holds 2 fields named del_list"

	r := s.chatlens(t, "check")
	if r.code != 1 || !strings.Contains(r.stdout, `"`+cid+`:0" slot 1 seq 2  duplicate  `+why) {
		t.Errorf("check: exit %d, stdout:\n%s\nwant the slot named as a duplicate", r.code, r.stdout)
	}

	r = s.chatlens(t, "dump", "--conversation", cid, "--as", "alice")
	var row2 string
	for _, l := range strings.Split(r.stdout, "\n") {
		if strings.Contains(l, "malformed") {
			row2 += l
		}
	}
	if r.code != 0 || strings.Count(r.stdout, "malformed") != 1 || !strings.Contains(row2, why) {
		t.Errorf("dump: exit %d, stdout:\n%s\nwant seq 2, and only it, marked malformed: %s", r.code, r.stdout, why)
	}

	r = s.chatlens(t, "export")
	want := `chatlens: warning: line 1, doc_id "` + cid + `:0": exported as stored, but it breaks the bucket contract: slot 1 (seq 2): ` + why
	if r.code != 0 || !strings.Contains(r.stderr, want) || strings.Count(r.stdout, `"del_list"`) != 101 {
		t.Errorf("export: exit %d, stderr %q; want %q and both del_list fields of seq 2 written", r.code, r.stderr, want)
	}

	again := empty(t)
	r = again.importText(t, r.stdout)
	if r.code != 0 || !strings.Contains(r.stderr, "slot 1 (seq 2): "+why) {
		t.Errorf("import of the export: exit %d, stderr %q; want the slot named", r.code, r.stderr)
	}
}
