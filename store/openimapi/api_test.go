package openimapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/openimapi"
	"github.com/chatlens/chatlens/store/openimapi/openimtest"
	"github.com/chatlens/chatlens/store/testkit"
)

// rig is chatlens's store writing through the API of a stand-in (or of a
// real server), with its audit log.
type rig struct {
	st     *store.Store
	srv    *openimtest.Server // nil against a real server
	secret string
	audit  *bytes.Buffer
}

// standIn wires chatlens's store in state ours to a stand-in over a store
// in state theirs: the same store when they are equal, else a separate one
// (a server ahead of, or behind, the store chatlens reads).
func standIn(t *testing.T, ours, theirs state, settle time.Duration, timeout time.Duration) *rig {
	t.Helper()
	r := &rig{secret: "s3cret-" + t.Name(), audit: &bytes.Buffer{}}
	ob := recordedBackend(t, ours)
	server := store.New(ob, store.Options{})
	if theirs != ours {
		server = store.New(&leaving{Backend: recordedBackend(t, theirs), left: map[string]bool{}}, store.Options{})
	}
	r.srv = openimtest.Start(server, r.secret)
	t.Cleanup(r.srv.Close)
	api, err := openimapi.New(openimapi.Options{URL: r.srv.URL, Secret: r.secret, Timeout: timeout})
	if err != nil {
		t.Fatal(err)
	}
	r.st = store.New(ob, store.Options{API: api, APISettle: settle, Audit: store.NewAuditLog(r.audit), Operator: "ops"})
	return r
}

func (r *rig) do(t *testing.T, req store.WriteRequest) (store.Done, error) {
	t.Helper()
	return r.st.Do(context.Background(), req)
}

// last is the audit log's last line.
func (r *rig) last(t *testing.T) store.AuditEntry {
	t.Helper()
	es := testkit.AuditEntries(t, r.audit.Bytes())
	return es[len(es)-1]
}

// TestWritesGoThroughTheAPIWithTheUsersOwnToken: a revoke, a delete for me
// and a mark read that chatlens's checks allow go to the server with the
// acting user's own token (asked with the admin token), the delete asking
// the server to tell the user's devices (IsSyncSelf); the store then shows
// what the server wrote, and the audit log says "via": "api" with the
// operationID every call carried.
func TestWritesGoThroughTheAPIWithTheUsersOwnToken(t *testing.T) {
	r := standIn(t, before, before, time.Second, 0)
	done, err := r.do(t, store.WriteRequest{Action: store.ActionRevoke, Cid: "sg_g1", By: "u3", Seqs: []int64{4}})
	if err != nil {
		t.Fatal(err)
	}
	if done.API == nil || len(done.API.Unconfirmed) != 0 || done.Revoke == nil || done.Revoke.Role != 20 || done.Revoke.Nickname != "User 3" {
		t.Fatalf("done = %+v (revoke %+v), want the server's record, role 20, shown in the store", done, done.Revoke)
	}
	calls := r.srv.Calls()
	if len(calls) != 3 || calls[0].Path != openimapi.PathAdminToken || calls[1].Path != openimapi.PathUserToken || calls[2].Path != openimapi.PathRevoke {
		t.Fatalf("calls %v, want admin token, u3's token, revoke", paths(calls))
	}
	if calls[1].TokenUser != "imAdmin" || !sameJSON(calls[1].Request, `{"platformID":5,"userID":"u3"}`) {
		t.Errorf("user token asked with %s's token, body %s; want the admin's, platform 5 as recorded", calls[1].TokenUser, calls[1].Request)
	}
	if calls[2].TokenUser != "u3" || !sameJSON(calls[2].Request, `{"conversationID":"sg_g1","seq":4,"userID":"u3"}`) {
		t.Errorf("revoke sent with %s's token, body %s; want u3's own", calls[2].TokenUser, calls[2].Request)
	}
	if e := r.last(t); e.Via != store.ViaAPI || e.Result != store.ResultOK || e.OperationID != done.API.OperationID || calls[2].OperationID != e.OperationID+"-1" {
		t.Errorf("audit %+v, call operationID %q; want via api, ok, the call's operationID", e, calls[2].OperationID)
	}

	if _, err := r.do(t, store.WriteRequest{Action: store.ActionDelete, Cid: "sg_g1", By: "u4", Seqs: []int64{15, 13}}); err != nil {
		t.Fatal(err)
	}
	del := r.srv.Calls()[len(r.srv.Calls())-1]
	if del.TokenUser != "u4" || !sameJSON(del.Request, `{"conversationID":"sg_g1","seqs":[13,15],"userID":"u4","deleteSyncOpt":{"IsSyncSelf":true}}`) {
		t.Errorf("delete sent with %s's token, body %s", del.TokenUser, del.Request)
	}

	// In a group too the server sets is_read on the seqs not sent by the
	// reader (as_read.go MarkMsgsAsRead), and chatlens waits to see it.
	if _, err := r.do(t, store.WriteRequest{Action: store.ActionRead, Cid: "sg_g1", By: "u3", Seqs: []int64{10, 11, 12}}); err != nil {
		t.Fatal(err)
	}
	slots, err := r.st.Slots(context.Background(), "sg_g1", []int64{10, 11, 12, 13, 15}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !slots[10].Slot.IsRead || !slots[11].Slot.IsRead || !slots[12].Slot.IsRead {
		t.Errorf("seqs 10-12 not read after the server's mark read")
	}
	if d := slots[13].Slot.DelList; len(d) != 1 || d[0] != "u4" {
		t.Errorf("seq 13 del_list %v, want [u4]", d)
	}

	// --admin: the admin token, the record role 0 with the acting user.
	done, err = r.do(t, store.WriteRequest{Action: store.ActionRevoke, Cid: "sg_g1", By: "u4", Seqs: []int64{27}, Admin: true})
	if err != nil {
		t.Fatal(err)
	}
	if c := r.srv.Calls()[len(r.srv.Calls())-1]; c.TokenUser != "imAdmin" || done.Revoke.Role != 0 || done.Revoke.UserID != "u4" {
		t.Errorf("admin revoke sent with %s's token, record %+v; want the admin's, role 0, u4", c.TokenUser, done.Revoke)
	}
}

// TestTheServersRefusalStands: where chatlens's checks allow and the server
// refuses, the server's verdict stands: one line with its code and message,
// nothing after it tried, the audit line "refused" with both verdicts. A
// refusal part way leaves the seqs done before it "partial".
func TestTheServersRefusalStands(t *testing.T) {
	// The server's store is the final one: u4 has left g1 there, and seq 9
	// is revoked already; chatlens reads the store as it was before.
	r := standIn(t, before, final, 50*time.Millisecond, 0)
	_, err := r.do(t, store.WriteRequest{Action: store.ActionRevoke, Cid: "sg_g1", By: "u4", Seqs: []int64{10}})
	var refusal *store.ServerRefusal
	if !errors.As(err, &refusal) || refusal.Code != 1002 {
		t.Fatalf("err = %v, want the server's 1002", err)
	}
	if got, want := err.Error(), "the server refused revoke of seq 10 of sg_g1: 1002 NoPermissionError (op user not in group); chatlens expected acceptance: its rules and the server's differ"; got != want {
		t.Errorf("error %q, want %q", got, want)
	}
	e := r.last(t)
	if e.Result != store.ResultRefused || e.Verdicts == nil || e.Verdicts.Chatlens != "allowed" || e.Verdicts.Server != "refused: 1002 NoPermissionError (op user not in group)" || !e.Verdicts.Differ {
		t.Errorf("audit %+v (verdicts %+v), want refused with both verdicts", e, e.Verdicts)
	}

	// The owner revokes 6, 9, 12: 6 is accepted (written to the server's
	// store only), 9 the server has revoked already (1404), 12 is never sent.
	done, err := r.do(t, store.WriteRequest{Action: store.ActionRevoke, Cid: "sg_g1", By: "u1", Seqs: []int64{12, 6, 9}})
	if !errors.As(err, &refusal) || refusal.Code != 1404 || !strings.HasPrefix(err.Error(), "revoke of seq 6 accepted by the server, not shown in the store yet; the server refused revoke of seq 9 of sg_g1: 1404 MsgAlreadyRevoke (msg already revoke)") {
		t.Fatalf("err = %v", err)
	}
	for _, c := range r.srv.Calls() {
		if c.Path == openimapi.PathRevoke && strings.Contains(string(c.Request), `"seq":12`) {
			t.Errorf("seq 12 was sent after the refusal of seq 9")
		}
	}
	e = r.last(t)
	if e.Result != store.ResultPartial || fmt.Sprint(e.Applied) != "[6]" || len(done.Applied) != 1 {
		t.Errorf("audit %+v, done %+v; want partial, applied 6", e, done.WriteResult)
	}
}

// TestAPartWriteSaysDoneOnlyOfWhatTheStoreShows: the server accepts the
// revoke of seq 6 but its store is not the one chatlens reads, refuses
// seq 9 (already revoked: revoke.go RevokeMsg, 1404), and seqs 12 and 13
// are never sent. The one line calls 6 accepted, not done, and names 12-13
// not sent; before, it said "revoke done for seq 6 only" and left 12-13
// out, while the audit log recorded 6 unconfirmed.
func TestAPartWriteSaysDoneOnlyOfWhatTheStoreShows(t *testing.T) {
	r := standIn(t, before, final, 50*time.Millisecond, 0)
	done, err := r.do(t, store.WriteRequest{Action: store.ActionRevoke, Cid: "sg_g1", By: "u1", Seqs: []int64{6, 9, 12, 13}})
	if err == nil {
		t.Fatal("no error, want a partial revoke")
	}
	line := err.Error()
	for _, want := range []string{"revoke of seq 6 accepted by the server, not shown in the store yet", "1404 MsgAlreadyRevoke", "; not sent: 12-13"} {
		if !strings.Contains(line, want) {
			t.Errorf("error %q, want %q in it", line, want)
		}
	}
	if strings.Contains(line, "done for seq 6") || strings.Contains(line, "\n") {
		t.Errorf("error %q calls seq 6 done, or is not one line", line)
	}
	if fmt.Sprint(done.API.Unconfirmed) != "[6]" {
		t.Errorf("unconfirmed %v, want [6]", done.API.Unconfirmed)
	}
	if e := r.last(t); e.Result != store.ResultPartial || fmt.Sprint(e.Unconfirmed) != "[6]" || e.Error != line {
		t.Errorf("audit %+v, want partial, 6 unconfirmed, the same line", e)
	}
}

// TestNoAnswerLeavesTheSeqsUnknown: a server that never answers, or drops
// the connection after the request, leaves the seq in flight "unknown" in
// the error and the audit log, never "not done"; one never reached leaves
// it not done ("failed", nothing unknown).
func TestNoAnswerLeavesTheSeqsUnknown(t *testing.T) {
	for _, fault := range []openimtest.Fault{openimtest.Hang, openimtest.Drop, openimtest.AnswerNoData} {
		t.Run(fmt.Sprint(fault), func(t *testing.T) {
			r := standIn(t, before, before, 50*time.Millisecond, 300*time.Millisecond)
			r.srv.SetFaults(func(path string) openimtest.Fault {
				if path == openimapi.PathRevoke {
					return fault
				}
				return openimtest.Answer
			})
			done, err := r.do(t, store.WriteRequest{Action: store.ActionRevoke, Cid: "sg_g1", By: "u3", Seqs: []int64{4}})
			if err == nil || !strings.Contains(err.Error(), "revoke of seq 4 unknown") || strings.Contains(err.Error(), r.secret) {
				t.Fatalf("err = %v, want seq 4 unknown", err)
			}
			if e := r.last(t); e.Result != store.ResultUnknown || fmt.Sprint(e.Unknown) != "[4]" || e.Via != store.ViaAPI {
				t.Errorf("audit %+v, want unknown 4 via api", e)
			}
			if fmt.Sprint(done.Unknown) != "[4]" || len(done.Applied) != 0 {
				t.Errorf("done %+v", done.WriteResult)
			}
		})
	}
	t.Run("not reached", func(t *testing.T) {
		r := standIn(t, before, before, 50*time.Millisecond, 300*time.Millisecond)
		r.srv.Close()
		done, err := r.do(t, store.WriteRequest{Action: store.ActionRevoke, Cid: "sg_g1", By: "u3", Seqs: []int64{4}})
		if err == nil || strings.Contains(err.Error(), "unknown") || len(done.Unknown) != 0 {
			t.Fatalf("err = %v, unknown %v; want not done", err, done.Unknown)
		}
		if e := r.last(t); e.Result != store.ResultFailed {
			t.Errorf("audit %+v, want failed", e)
		}
	})
}

// TestAcceptedButNotInTheStoreYet: errCode 0 and a store that does not show
// the write within the settle time: "accepted", the seqs unconfirmed, never
// "devices notified".
func TestAcceptedButNotInTheStoreYet(t *testing.T) {
	r := standIn(t, before, before, 200*time.Millisecond, 0)
	r.srv.SetFaults(func(string) openimtest.Fault { return openimtest.AcceptOnly })
	done, err := r.do(t, store.WriteRequest{Action: store.ActionDelete, Cid: "sg_g1", By: "u4", Seqs: []int64{13}})
	if err != nil {
		t.Fatal(err)
	}
	if done.API == nil || fmt.Sprint(done.API.Unconfirmed) != "[13]" {
		t.Fatalf("done %+v, want seq 13 unconfirmed", done.API)
	}
	if e := r.last(t); e.Result != store.ResultAccepted || fmt.Sprint(e.Unconfirmed) != "[13]" {
		t.Errorf("audit %+v, want accepted, 13 unconfirmed", e)
	}
}

// TestNoTokenOrSecretAnywhere: after writes that succeed, are refused and
// get no answer, neither the secret nor any token the server issued is in
// an error, the audit log, the store's description or its stats.
func TestNoTokenOrSecretAnywhere(t *testing.T) {
	r := standIn(t, before, final, 50*time.Millisecond, 300*time.Millisecond)
	var texts []string
	for _, req := range []store.WriteRequest{
		{Action: store.ActionRevoke, Cid: "sg_g1", By: "u1", Seqs: []int64{6}},
		{Action: store.ActionRevoke, Cid: "sg_g1", By: "u4", Seqs: []int64{10}},
		{Action: store.ActionRead, Cid: "sg_g1", By: "u3", Seqs: []int64{40}},
	} {
		if _, err := r.do(t, req); err != nil {
			texts = append(texts, err.Error())
		}
	}
	r.srv.SetFaults(func(string) openimtest.Fault { return openimtest.Drop })
	if _, err := r.do(t, store.WriteRequest{Action: store.ActionDelete, Cid: "sg_g1", By: "u2", Seqs: []int64{20}}); err != nil {
		texts = append(texts, err.Error())
	}
	if len(texts) < 2 {
		t.Fatalf("want a refusal and a lost answer among %q", texts)
	}
	texts = append(texts, r.audit.String(), r.st.Describe(), fmt.Sprintf("%+v", r.st.Stats()))
	issued := r.srv.Issued()
	if len(issued) < 3 {
		t.Fatalf("%d tokens issued, want the admin's and the users'", len(issued))
	}
	for _, text := range texts {
		for _, secret := range append(issued, r.secret) {
			if strings.Contains(text, secret) {
				t.Errorf("%q holds a token or the secret", text)
			}
		}
	}
}

// TestAgainstARealServer runs the calls whose answers do not depend on
// what a test wrote before against the OpenIM Server of
// CHATLENS_TEST_OPENIM_API (secret CHATLENS_TEST_OPENIM_SECRET), after it
// ran the recorded scenario: tokens, a refused impersonation and a revoke
// of a revoked message answer as recorded, and nothing is written.
func TestAgainstARealServer(t *testing.T) {
	url, secret := os.Getenv("CHATLENS_TEST_OPENIM_API"), os.Getenv("CHATLENS_TEST_OPENIM_SECRET")
	if url == "" || secret == "" {
		t.Skip("CHATLENS_TEST_OPENIM_API and CHATLENS_TEST_OPENIM_SECRET are not set: no real OpenIM Server to hold the stand-in's answers to (the stand-in is held to the recording by TestStandInAnswersAsTheRecordedServer)")
	}
	api, err := openimapi.New(openimapi.Options{URL: url, Secret: secret})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, c := range []struct {
		call     store.APICall
		code     int
		msg, dlt string
	}{
		{call: store.APICall{Action: store.ActionRevoke, Cid: "sg_g1", By: "u3", Seqs: []int64{4}}, code: 1404, msg: "MsgAlreadyRevoke", dlt: "msg already revoke"},
		{call: store.APICall{Action: store.ActionRevoke, Cid: "si_u1_u2", By: "u2", Seqs: []int64{2}}, code: 1002, msg: "NoPermissionError", dlt: "ownerUserID, u1=MISSING"},
		{call: store.APICall{Action: store.ActionRevoke, Cid: "sg_g1", By: "u2", Seqs: []int64{7}}, code: 1002, msg: "NoPermissionError", dlt: "no permission"},
	} {
		c.call.OperationID = "chatlens-test-" + fmt.Sprint(time.Now().UnixNano())
		a := api.Send(ctx, c.call)
		if a.Err != nil || a.Code != c.code || a.Msg != c.msg || a.Dlt != c.dlt {
			t.Errorf("%+v: answer %+v, want %d %s (%s)", c.call, a, c.code, c.msg, c.dlt)
		}
	}
}

func paths(calls []openimtest.Call) []string {
	out := make([]string, len(calls))
	for i, c := range calls {
		out[i] = c.Path
	}
	return out
}

func sameJSON(got json.RawMessage, want string) bool {
	var a, b any
	return json.Unmarshal(got, &a) == nil && json.Unmarshal([]byte(want), &b) == nil && fmt.Sprint(a) == fmt.Sprint(b)
}

// unregistered is a backend whose user collection lacks some users: the
// server knows nobody by those IDs, chatlens still knows them as members.
// It serves store.Directory's Users; every other call goes to the
// Backend it wraps.
type unregistered struct {
	store.Backend
	gone map[string]bool
}

func (u *unregistered) Users(ctx context.Context, ids []string) ([]bucket.User, error) {
	us, err := u.Backend.Users(ctx, ids)
	return slices.DeleteFunc(us, func(x bucket.User) bool { return u.gone[x.UserID] }), err
}

// TestARefusedTokenIsTheServersRefusal: when the server will not give the
// acting user a token (auth.go GetUserToken: no such user), the write is
// refused in one line naming that endpoint, with nothing sent to the msg
// endpoints, and audited with both verdicts.
func TestARefusedTokenIsTheServersRefusal(t *testing.T) {
	ob := recordedBackend(t, before)
	srv := openimtest.Start(store.New(&unregistered{Backend: ob, gone: map[string]bool{"u3": true}}, store.Options{}), "s")
	defer srv.Close()
	api, err := openimapi.New(openimapi.Options{URL: srv.URL, Secret: "s"})
	if err != nil {
		t.Fatal(err)
	}
	var audit bytes.Buffer
	st := store.New(ob, store.Options{API: api, Audit: store.NewAuditLog(&audit)})
	_, err = st.Do(context.Background(), store.WriteRequest{Action: store.ActionRevoke, Cid: "sg_g1", By: "u3", Seqs: []int64{4}})
	if err == nil || err.Error() != "the server refused revoke of seq 4 of sg_g1 (/auth/get_user_token): 1004 RecordNotFoundError (user not found); chatlens expected acceptance: its rules and the server's differ" {
		t.Fatalf("err = %v", err)
	}
	for _, c := range srv.Calls() {
		if strings.HasPrefix(c.Path, "/msg/") {
			t.Errorf("%s sent after the token was refused", c.Path)
		}
	}
	es := testkit.AuditEntries(t, audit.Bytes())
	if e := es[len(es)-1]; e.Result != store.ResultRefused || e.Verdicts == nil || e.Verdicts.Chatlens != "allowed" {
		t.Errorf("audit %+v, want refused with both verdicts", e)
	}
}

// TestServerTextNeverCarriesTheSecret: a server whose answer echoes the
// secret (a proxy, a debug build) has it masked before chatlens shows or
// logs the answer.
func TestServerTextNeverCarriesTheSecret(t *testing.T) {
	const secret = "hunter2-long-secret"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = fmt.Fprintf(w, `{"errCode":1002,"errMsg":"NoPermissionError","errDlt":"secret %s invalid"}`, secret)
	}))
	defer srv.Close()
	api, err := openimapi.New(openimapi.Options{URL: srv.URL, Secret: secret})
	if err != nil {
		t.Fatal(err)
	}
	a := api.Send(context.Background(), store.APICall{Action: store.ActionRevoke, Cid: "sg_g1", By: "u1", Seqs: []int64{1}, OperationID: "op"})
	if a.Code != 1002 || a.Dlt != "secret *** invalid" {
		t.Errorf("answer %+v, want the secret masked", a)
	}
}

// TestAnExpiredTokenIsAskedAgain: a token the server no longer accepts
// (expired, or kicked by a login elsewhere) is refused before the write is
// looked at; the client asks new tokens and sends the write once more, so a
// UI left open for days keeps working.
func TestAnExpiredTokenIsAskedAgain(t *testing.T) {
	r := standIn(t, before, before, time.Second, 0)
	if _, err := r.do(t, store.WriteRequest{Action: store.ActionRevoke, Cid: "sg_g1", By: "u3", Seqs: []int64{4}}); err != nil {
		t.Fatal(err)
	}
	r.srv.Expire()
	done, err := r.do(t, store.WriteRequest{Action: store.ActionRevoke, Cid: "sg_g1", By: "u3", Seqs: []int64{9}})
	if err != nil || len(done.API.Unconfirmed) != 0 {
		t.Fatalf("err = %v, done %+v; want the revoke done with new tokens", err, done.API)
	}
	var revokes int
	for _, c := range r.srv.Calls() {
		if c.Path == openimapi.PathRevoke {
			revokes++
		}
	}
	if revokes != 3 { // seq 4, then seq 9 refused for its token and sent again
		t.Errorf("%d revoke calls, want 3", revokes)
	}
	// The admin's token expired too: the next user's token is asked again.
	r.srv.Expire()
	if _, err := r.do(t, store.WriteRequest{Action: store.ActionRevoke, Cid: "sg_g1", By: "u1", Seqs: []int64{12}}); err != nil {
		t.Fatalf("err = %v; want u1's token asked with a new admin token", err)
	}
}
