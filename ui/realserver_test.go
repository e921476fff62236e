package ui

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/mongostore"
	"github.com/chatlens/chatlens/store/mongotest"
)

// TestRealServerGoneAndBack runs the UI on the MongoDB backend over an
// in-process FerretDB reached with a password: the status bar names the
// server without the password; when the server stops, opening a
// conversation shows the error and the retry key (never the password);
// once it is back, R loads the timeline.
func TestRealServerGoneAndBack(t *testing.T) {
	t.Parallel()
	const pass = "hunter2-pw"
	srv := mongotest.Start(t)
	uri := "mongodb://ops:" + pass + "@" + srv.Addr() + "/?authMechanism=PLAIN&heartbeatFrequencyMS=500"
	b, err := mongostore.Open(t.Context(), uri, mongotest.Database(t, srv.URI()),
		mongostore.Options{Timeout: time.Second, OpTimeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	st := store.New(b, store.Options{})
	t.Cleanup(func() { _ = st.Close(context.Background()) })
	var msgs []*bucket.MsgData
	for i := 1; i <= 450; i++ { // five buckets: open reads the newest, prefetch one more
		msgs = append(msgs, textMsg("bob", "alice", "", bucket.SessionSingle, i, fmt.Sprintf("hello %d", i)))
	}
	if _, err := st.InsertMessages(t.Context(), chatAB, 1, msgs); err != nil {
		t.Fatal(err)
	}
	insertRaw(t, st, bucket.CollConversation,
		bucket.Conversation{OwnerUserID: "alice", ConversationID: chatAB, ConversationType: 1, UserID: "bob"})

	opts, _ := testOptions(t, "alice")
	d := newDriver(t, st, opts, 120, 30)
	view := d.m.View()
	if !strings.Contains(view, "ops:****@"+srv.Addr()) {
		t.Errorf("the status bar does not name the server, masked:\n%s", view)
	}

	d.open(chatAB)
	srv.Stop()
	d.keys(":")
	d.typeText("12")
	d.keys("enter") // bucket 0 is not held: it must be read
	view = d.m.View()
	if !strings.Contains(view, "press R to retry") {
		t.Fatalf("no error with the retry key after the server stopped:\n%s", view)
	}
	if strings.Contains(view, pass) {
		t.Errorf("the screen shows the password:\n%s", view)
	}

	srv.Restart()
	deadline := time.Now().Add(20 * time.Second)
	for !strings.Contains(rowOf(d.m.View(), 12), "hello 12") {
		d.keys(":")
		d.typeText("12")
		d.keys("enter")
		if time.Now().After(deadline) {
			t.Fatalf("R did not load the timeline after the server came back:\n%s", d.m.View())
		}
		d.keys("R")
	}
	if strings.Contains(d.m.View(), pass) {
		t.Errorf("the screen shows the password:\n%s", d.m.View())
	}
}
