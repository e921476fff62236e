package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/openimapi"
	"github.com/chatlens/chatlens/store/openimapi/openimtest"
)

// TestUIWritesGoThroughTheAPI: with the server's API configured, the UI's
// revoke takes the same path as the command line: the dialog says the
// server decides and notifies devices (not that no notification is sent),
// the server gets the call with the viewer's own token, and the status says
// "devices notified" once the store shows the server's revoke record.
func TestUIWritesGoThroughTheAPI(t *testing.T) {
	base, tb := newTestStore(t, false)
	seedSmall(t, base)
	srv := openimtest.Start(base, "s3cret")
	defer srv.Close()
	api, err := openimapi.New(openimapi.Options{URL: srv.URL, Secret: "s3cret"})
	if err != nil {
		t.Fatal(err)
	}
	st := store.New(tb, store.Options{API: api, APISettle: time.Second})
	opts, _ := testOptions(t, "alice")
	opts.Deployment = true
	d := newDriver(t, st, opts, 140, 40)
	d.open(chatAB)
	d.jump(11)
	d.keys("r")
	text := strings.Join(d.m.confirm.Lines, " ")
	if !strings.Contains(text, "through the OpenIM API") || strings.Contains(text, "no revoke notification") {
		t.Fatalf("dialog %q: want the API's note only", text)
	}
	d.keys("y")
	if !strings.Contains(d.m.status, "done, devices notified") {
		t.Errorf("status %q, want devices notified", d.m.status)
	}
	calls := srv.Calls()
	if c := calls[len(calls)-1]; c.Path != openimapi.PathRevoke || c.TokenUser != "alice" {
		t.Errorf("last call %s with %s's token, want revoke_msg with alice's", c.Path, c.TokenUser)
	}
	slots, err := st.Slots(context.Background(), chatAB, []int64{11}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if r := slots[11].Slot.Revoke; r == nil || r.UserID != "alice" || r.Nickname != "Alice" {
		t.Errorf("revoke record %+v, want the server's, by alice", r)
	}
}
