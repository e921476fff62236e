package mongostore_test

import (
	"slices"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/mongostore"
	"github.com/chatlens/chatlens/store/mongotest"
)

// TestFindUsesTheIndexWhenThereIsOne: once an operator created the index on
// msgs.msg.client_msg_id, find asks one query and scans nothing (no plan of
// buckets to announce), and still names the conversation, seq and slot.
func TestFindUsesTheIndexWhenThereIsOne(t *testing.T) {
	uri, _ := mongotest.URI(t)
	name := mongotest.Database(t, uri)
	b, err := mongostore.Open(t.Context(), uri, name, mongostore.Options{Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	st := store.New(b, store.Options{})
	t.Cleanup(func() { _ = st.Close(t.Context()) })
	msgs := []*bucket.MsgData{
		{SendID: "u1", RecvID: "u2", SessionType: bucket.SessionSingle, ClientMsgID: "c1", ServerMsgID: "s1", Content: "{}", ContentType: 101},
		{SendID: "u2", RecvID: "u1", SessionType: bucket.SessionSingle, ClientMsgID: "c2", ServerMsgID: "s2", Content: "{}", ContentType: 101},
	}
	if _, err := st.InsertMessages(t.Context(), "si_u1_u2", 1, msgs); err != nil {
		t.Fatal(err)
	}
	client, err := mongo.Connect(options.Client().ApplyURI(uri))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = client.Disconnect(t.Context()) })
	if _, err := client.Database(name).Collection(bucket.CollMsg).Indexes().CreateOne(t.Context(),
		mongo.IndexModel{Keys: bson.D{{Key: "msgs.msg.client_msg_id", Value: 1}}}); err != nil {
		t.Fatal(err)
	}
	before := st.Stats().RoundTrips
	found, plan, err := st.FindMessage(t.Context(), store.FieldClientMsgID, "c2", store.FindOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if plan.Index == "" || plan.Buckets != 0 {
		t.Errorf("plan with the index = %+v, want the index named and no scan", plan)
	}
	if trips := st.Stats().RoundTrips - before; trips != 4 {
		t.Errorf("find with the index took %d round trips, want 4 (indexes, msg's shard key, find, read the bucket)", trips)
	}
	want := []store.Found{{ConversationID: "si_u1_u2", Seq: 2, DocID: "si_u1_u2:0", Slot: 1}}
	if !slices.Equal(found, want) {
		t.Errorf("found %+v, want %+v", found, want)
	}
}
