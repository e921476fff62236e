package openimapi_test

import (
	"bytes"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/openimapi"
	"github.com/chatlens/chatlens/store/openimapi/openimtest"
)

// TestWritesNameTheirNotifications: after a write through the API chatlens
// reads the notification conversation the server tells devices in
// (pkg/msgprocessor GetNotificationConversationIDByMsg: n_g1 for the
// group, n_u1_u2 for the single chat, the user's own n_u2_u2 for a delete
// for me) and names where each seq's notification is; shared/
// openim-recorded holds 16, 5 and 1 there already, so the new ones follow.
func TestWritesNameTheirNotifications(t *testing.T) {
	r := standIn(t, before, before, time.Second, 0)
	for _, c := range []struct {
		req  store.WriteRequest
		want string
	}{
		{store.WriteRequest{Action: store.ActionRevoke, Cid: "sg_g1", By: "u1", Seqs: []int64{6, 7, 9}}, "seq 6-7: 2101 in n_g1 seq 17-18; seq 9: 2101 in n_g1 seq 19"},
		{store.WriteRequest{Action: store.ActionDelete, Cid: "si_u1_u2", By: "u2", Seqs: []int64{20, 21}}, "seq 20-21: 2102 in n_u2_u2 seq 2"},
		{store.WriteRequest{Action: store.ActionRead, Cid: "si_u1_u2", By: "u1", Seqs: []int64{30, 31}}, "seq 30-31: 2200 in n_u1_u2 seq 6"},
	} {
		done, err := r.do(t, c.req)
		if err != nil {
			t.Fatalf("%s %v: %v", c.req.Action, c.req.Seqs, err)
		}
		if got := done.API.NoticeWords(); got != c.want || len(done.API.Unnoticed) != 0 {
			t.Errorf("%s %v: notified %q, unnoticed %v; want %q", c.req.Action, c.req.Seqs, got, done.API.Unnoticed, c.want)
		}
	}
}

// TestAMissingNotificationIsNamed: the server stores a revoke but not
// always its notification (500 revokes once left 498: "SendMsg failed" in
// its log); chatlens names the seqs with none, since devices that hold
// those messages will not learn of the revoke, and audits them.
func TestAMissingNotificationIsNamed(t *testing.T) {
	r := standIn(t, before, before, 300*time.Millisecond, 0)
	r.srv.SetNotificationDrops(func(path string, seqs []int64) bool {
		return path == openimapi.PathRevoke && slices.Contains(seqs, 9)
	})
	done, err := r.do(t, store.WriteRequest{Action: store.ActionRevoke, Cid: "sg_g1", By: "u1", Seqs: []int64{6, 9}})
	if err != nil {
		t.Fatal(err)
	}
	if got := done.API.NoticeWords(); got != "seq 6: 2101 in n_g1 seq 17" {
		t.Errorf("notified %q, want seq 6's only", got)
	}
	if !slices.Equal(done.API.Unnoticed, []int64{9}) || !strings.HasPrefix(done.API.UnnoticedWords(), "no notification in n_g1 for seq 9: devices that already hold those messages will not learn of the change") {
		t.Errorf("unnoticed %v: %q", done.API.Unnoticed, done.API.UnnoticedWords())
	}
	if e := r.last(t); !slices.Equal(e.Unnotified, store.SeqList{9}) {
		t.Errorf("audit %+v, want seq 9 unnotified", e)
	}
}

// TestNotificationsOfUsersWhoseIDsHoldUnderscores: a single chat between
// a_x and b_y is si_a_x_b_y, which splits into two user IDs three ways;
// the server still tells n_a_x_b_y of a mark read and a revoke (as_read.go
// and revoke.go send to the other user of the conversation), and a live
// run found chatlens saying "no notification conversation to look in" and
// auditing the seqs as unnotified while the 2200 was there.
func TestNotificationsOfUsersWhoseIDsHoldUnderscores(t *testing.T) {
	names := strings.NewReplacer("u1", "a_x", "u2", "b_y")
	ob := renamedBackend(t, before, names)
	srv := openimtest.Start(store.New(ob, store.Options{}), "s3cret")
	t.Cleanup(srv.Close)
	api, err := openimapi.New(openimapi.Options{URL: srv.URL, Secret: "s3cret"})
	if err != nil {
		t.Fatal(err)
	}
	r := &rig{srv: srv, secret: "s3cret", audit: &bytes.Buffer{}}
	r.st = store.New(ob, store.Options{API: api, APISettle: time.Second, Audit: store.NewAuditLog(r.audit), Operator: "ops"})
	for _, c := range []struct {
		req  store.WriteRequest
		want string
	}{
		{store.WriteRequest{Action: store.ActionRead, Cid: "si_a_x_b_y", By: "a_x", Seqs: []int64{30, 31}}, "seq 30-31: 2200 in n_a_x_b_y seq 6"},
		{store.WriteRequest{Action: store.ActionRevoke, Cid: "si_a_x_b_y", By: "a_x", Seqs: []int64{1}}, "seq 1: 2101 in n_a_x_b_y seq 7"},
	} {
		done, err := r.do(t, c.req)
		if err != nil {
			t.Fatalf("%s %v: %v", c.req.Action, c.req.Seqs, err)
		}
		if got := done.API.NoticeWords(); got != c.want || len(done.API.Unnoticed) != 0 {
			t.Errorf("%s %v: notified %q, unnoticed %v (%s); want %q", c.req.Action, c.req.Seqs, got, done.API.Unnoticed, done.API.UnnoticedWords(), c.want)
		}
		if e := r.last(t); len(e.Unnotified) != 0 {
			t.Errorf("%s %v: audit says unnotified %v", c.req.Action, c.req.Seqs, e.Unnotified)
		}
	}
}
