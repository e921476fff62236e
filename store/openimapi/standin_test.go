package openimapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/openimapi"
	"github.com/chatlens/chatlens/store/openimapi/openimtest"
)

// TestStandInAnswersAsTheRecordedServer holds the stand-in to the recorded
// run call by call: every auth, revoke, delete-for-me and mark-read request
// of api-calls.jsonl, replayed in order on the collections rewound to before
// the scenario, with the token revoke_verdicts.json says it carried, gets
// the recorded HTTP status and answer field by field (errCode, errMsg,
// errDlt, data, tokens aside); and afterwards every slot holds the revoke
// record (role, user_id, nickname), del_list and is_read the server left.
func TestStandInAnswersAsTheRecordedServer(t *testing.T) {
	b := &leaving{Backend: recordedBackend(t, before), left: map[string]bool{}}
	st := store.New(b, store.Options{})
	srv := openimtest.Start(st, recordedSecret)
	defer srv.Close()
	verdicts := recordedVerdicts(t)
	tokens := map[string]string{}
	replayed := 0
	for _, c := range recordedCalls(t) {
		var req struct {
			UserID        string          `json:"userID"`
			DeleteSyncOpt map[string]bool `json:"deleteSyncOpt"`
		}
		if err := json.Unmarshal(c.Req, &req); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(c.Label, " ext ") {
			b.left["u4"] = true // the extended part ran after u4 quit g1
		}
		if req.DeleteSyncOpt["IsSyncOther"] {
			continue // a physical delete for everyone: chatlens never asks for one
		}
		var who string
		switch c.Path {
		case openimapi.PathAdminToken:
		case openimapi.PathUserToken:
			who = "imAdmin"
		case openimapi.PathRevoke:
			v, ok := verdicts[c.Label]
			if !ok {
				t.Fatalf("%s: no verdict recorded", c.Label)
			}
			who = v.Token
		default:
			who = req.UserID // deletes and reads went with the user's own token
		}
		status, got := post(t, srv.URL+c.Path, c.OperationID, tokens[who], c.Req)
		if data, _ := got["data"].(map[string]any); data["token"] != nil {
			user := req.UserID
			tokens[user] = data["token"].(string)
			data["token"] = "<token>" // as the recording writes every token
		}
		var want map[string]any
		if err := json.Unmarshal(c.Resp, &want); err != nil {
			t.Fatal(err)
		}
		if status != c.HTTP {
			t.Errorf("%s: HTTP %d, the server answered %d", c.Label, status, c.HTTP)
		}
		for _, field := range []string{"errCode", "errMsg", "errDlt", "data"} {
			if !reflect.DeepEqual(got[field], want[field]) {
				t.Errorf("%s: %s = %v, the server answered %v", c.Label, field, got[field], want[field])
			}
		}
		if len(got) != len(want) {
			t.Errorf("%s: answer has fields %v, the server's %v", c.Label, keys(got), keys(want))
		}
		replayed++
	}
	if replayed != 40 {
		t.Fatalf("replayed %d calls, want the recording's 40 (41 less the physical delete)", replayed)
	}
	compareSlots(t, st)
	compareNotifications(t, st)
}

// compareNotifications requires the notification messages the stand-in
// stored after the recorded ones, in each notification conversation, to be
// the server's of the same calls, in order and field for field (times
// aside): shared/openim-recorded msg.json's n_g1, n_u1_u2 and n_u2_u2, less
// the one of the physical delete, which is not replayed.
func compareNotifications(t *testing.T, st *store.Store) {
	t.Helper()
	want := recordedStore(t, final, store.Options{})
	ctx := context.Background()
	notes := func(s *store.Store, cid string, from int64) []string {
		seqs := make([]int64, 40)
		for i := range seqs {
			seqs[i] = from + int64(i)
		}
		got, err := s.Slots(ctx, cid, seqs, 0)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, seq := range seqs {
			sl := got[seq].Slot
			if sl == nil || sl.Msg == nil {
				continue
			}
			m := *sl.Msg
			var content struct{ Detail string }
			var detail map[string]any
			if json.Unmarshal([]byte(m.Content), &content) != nil || json.Unmarshal([]byte(content.Detail), &detail) != nil {
				t.Fatalf("%s seq %d: content %q is no notification", cid, seq, m.Content)
			}
			if detail["userID"] == "u1" && cid == "n_u1_u2" {
				continue // the physical delete's
			}
			delete(detail, "revokeTime")
			d, _ := json.Marshal(detail)
			out = append(out, fmt.Sprintf("%s->%s group %q session %d from %d type %d options %v detail %s",
				m.SendID, m.RecvID, m.GroupID, m.SessionType, m.MsgFrom, m.ContentType, m.Options, d))
		}
		return out
	}
	for cid, recorded := range map[string]int64{"n_g1": 16, "n_u1_u2": 5, "n_u2_u2": 1} {
		got, exp := notes(st, cid, recorded+1), notes(want, cid, 1)
		if len(exp) == 0 || !reflect.DeepEqual(got, exp) {
			t.Errorf("%s: the stand-in stored\n%s\nthe server\n%s", cid, strings.Join(got, "\n"), strings.Join(exp, "\n"))
		}
	}
}

// compareSlots requires every slot of st to hold what the recorded msg
// collection holds: the revoke record but its time, del_list, is_read.
func compareSlots(t *testing.T, st *store.Store) {
	t.Helper()
	want := recordedStore(t, final, store.Options{})
	ctx := context.Background()
	for _, cid := range []string{"si_u1_u2", "sg_g1"} {
		seqs := make([]int64, 300)
		for i := range seqs {
			seqs[i] = int64(i + 1)
		}
		got, err := st.Slots(ctx, cid, seqs, 0)
		if err != nil {
			t.Fatal(err)
		}
		exp, err := want.Slots(ctx, cid, seqs, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, seq := range seqs {
			g, e := summary(got[seq].Slot), summary(exp[seq].Slot)
			if !reflect.DeepEqual(g, e) {
				t.Errorf("%s seq %d: the stand-in left %+v, the server %+v", cid, seq, g, e)
			}
		}
	}
}

type slotSummary struct {
	Revoke  *bucket.Revoke
	DelList []string
	IsRead  bool
}

func summary(s *bucket.Slot) slotSummary {
	if s == nil {
		return slotSummary{}
	}
	out := slotSummary{DelList: slices.Sorted(slices.Values(s.DelList)), IsRead: s.IsRead}
	if len(out.DelList) == 0 {
		out.DelList = nil
	}
	if s.Revoke != nil {
		r := *s.Revoke
		r.Time = 0
		out.Revoke = &r
	}
	return out
}

// post sends body as the API's clients do and decodes the answer.
func post(t *testing.T, url, op, token string, body []byte) (int, map[string]any) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("operationID", op)
	if token != "" {
		req.Header.Set("token", token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	var out map[string]any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("%s: %v in %q", url, err, b)
	}
	return resp.StatusCode, out
}

func keys(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
