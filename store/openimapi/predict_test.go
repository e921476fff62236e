package openimapi_test

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/openimapi"
	"github.com/chatlens/chatlens/store/testkit"
)

// TestTheServerDecidesWhatChatlensWouldRefuse: with the API, chatlens's
// rules are a prediction, told before anything is sent, and the write goes
// to the server whatever they say. A member revoking the owner's message
// (shared/openim-recorded revoke_verdicts.json: u4 on u1's seq 12, 1002)
// is predicted refused, sent, refused by the server with its code, and the
// audit line holds both verdicts, agreeing.
func TestTheServerDecidesWhatChatlensWouldRefuse(t *testing.T) {
	r := standIn(t, before, before, 50*time.Millisecond, 0)
	var told []store.Prediction
	sentBefore := -1
	ctx := store.WithPrediction(context.Background(), func(p store.Prediction) {
		told, sentBefore = append(told, p), msgCalls(r)
	})
	_, err := r.st.Do(ctx, store.WriteRequest{Action: store.ActionRevoke, Cid: "sg_g1", By: "u4", Seqs: []int64{12}})
	if len(told) != 1 || !strings.HasPrefix(told[0].String(), "OpenIM will refuse this: seq 12: u4 may not revoke: ") || sentBefore != 0 {
		t.Errorf("prediction %v told after %d msg calls; want one refusal told before any", told, sentBefore)
	}
	if msgCalls(r) != 1 {
		t.Errorf("%d msg calls, want the revoke sent to the server", msgCalls(r))
	}
	var refusal *store.ServerRefusal
	if !errors.As(err, &refusal) || refusal.Code != 1002 || !refusal.Expected ||
		err.Error() != "the server refused revoke of seq 12 of sg_g1: 1002 NoPermissionError (no permission), as chatlens expected" {
		t.Fatalf("err = %v, want the server's 1002, as chatlens expected", err)
	}
	e := r.last(t)
	if v := e.Verdicts; e.Result != store.ResultRefused || v == nil || !strings.HasPrefix(v.Chatlens, "refused: seq 12: u4 may not revoke") ||
		v.Server != "refused: 1002 NoPermissionError (no permission)" || v.Differ {
		t.Errorf("audit %+v (verdicts %+v), want refused with both verdicts, agreeing", e, e.Verdicts)
	}
}

// acceptAll is a server that accepts every call and writes nothing.
type acceptAll struct{ calls int }

func (a *acceptAll) Send(context.Context, store.APICall) store.APIAnswer {
	a.calls++
	return store.APIAnswer{Path: openimapi.PathRevoke}
}

func (a *acceptAll) Describe() string { return "a server that accepts everything" }

func (a *acceptAll) SessionNote(string, bool) string { return "" }

// TestAnAcceptedPredictedRefusalIsSaid: where chatlens expected a refusal
// and the server accepted, the write says so (Unexpected, for the line
// "chatlens expected a refusal; the server accepted") and the audit line's
// verdicts differ: a difference between chatlens's rules and the
// server's, to be reported.
func TestAnAcceptedPredictedRefusalIsSaid(t *testing.T) {
	api := &acceptAll{}
	var audit bytes.Buffer
	st := store.New(recordedBackend(t, before), store.Options{API: api, APISettle: time.Millisecond, Audit: store.NewAuditLog(&audit)})
	done, err := st.Do(context.Background(), store.WriteRequest{Action: store.ActionRevoke, Cid: "sg_g1", By: "u4", Seqs: []int64{10, 12}})
	if err != nil {
		t.Fatal(err)
	}
	if api.calls != 2 || done.API == nil || len(done.API.Unexpected) != 1 || done.API.Unexpected[0] != 12 {
		t.Errorf("%d calls, done %+v; want both sent and seq 12 accepted against the prediction", api.calls, done.API)
	}
	es := testkit.AuditEntries(t, audit.Bytes())
	if v := es[len(es)-1].Verdicts; v == nil || v.Server != "accepted" || !v.Differ || !strings.HasPrefix(v.Chatlens, "refused: seq 12") {
		t.Errorf("verdicts %+v, want chatlens's refusal and the server's acceptance, differing", v)
	}
}

// msgCalls counts the calls to the msg endpoints the stand-in answered.
func msgCalls(r *rig) int {
	n := 0
	for _, c := range r.srv.Calls() {
		if strings.HasPrefix(c.Path, "/msg/") {
			n++
		}
	}
	return n
}
