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
// server decides and notifies devices (not that no notification is sent)
// and that the viewer's web session is signed out,
// the server gets the call with the viewer's own token, and the status names
// the notification the server sent (2101 in n_alice_bob) once the store
// shows the server's revoke record.
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
	// Under the server's default multiLogin policy the token chatlens asks
	// signs the user's web session out (controller/auth.go checkToken).
	if !strings.Contains(text, "signs alice's web session out") || !strings.Contains(text, "platform 5 (web)") || !strings.Contains(text, "1506") {
		t.Errorf("dialog %q: want it to say alice's web session is signed out (platform 5, 1506)", text)
	}
	d.keys("y")
	if !strings.Contains(d.m.status, "done; notified: seq 11: 2101 in n_alice_bob seq 1") {
		t.Errorf("status %q, want the notification named", d.m.status)
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

// TestUIRevokeTheServerWillRefuse: with the server's API the server
// decides. A revoke chatlens's rule refuses (alice revoking bob's message
// in their single chat) is not refused in the UI: the dialog says "OpenIM
// will refuse this: …" and the operator may send it; the status then
// carries the server's verdict with its code.
func TestUIRevokeTheServerWillRefuse(t *testing.T) {
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
	d.jump(12) // bob's
	d.keys("r")
	text := strings.Join(d.m.confirm.Lines, " ")
	if !strings.Contains(text, "OpenIM will refuse this: seq 12: alice may not revoke: ") || d.m.confirm.Run == nil {
		t.Fatalf("dialog %q (confirmable %v): want the predicted refusal, and a way to send it", text, d.m.confirm.Run != nil)
	}
	d.keys("y")
	if !strings.Contains(d.m.status, "1002 NoPermissionError") || !strings.Contains(d.m.status, "as chatlens expected") {
		t.Errorf("status %q, want the server's 1002, as chatlens expected", d.m.status)
	}
	if c := srv.Calls()[len(srv.Calls())-1]; c.Path != openimapi.PathRevoke || c.TokenUser != "alice" {
		t.Errorf("last call %s with %s's token, want revoke_msg with alice's", c.Path, c.TokenUser)
	}
}
