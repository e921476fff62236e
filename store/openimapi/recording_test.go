package openimapi_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/recordingtest"
	"github.com/chatlens/chatlens/store/testkit"
	"github.com/chatlens/chatlens/store/transfer"
)

// recorded is the folder holding what the recorded run of OpenIM Server
// v3.8 left and answered (store/recordingtest): the seven collections,
// revoke_verdicts.json and api-calls.jsonl, the test's own copy.
func recorded(t *testing.T) string {
	t.Helper()
	return recordingtest.Dir(t, recordingtest.OpenIM)
}

// recordedSecret is the share.yml secret the recorded server ran with.
const recordedSecret = "openIM123"

// state picks the store a test starts from.
type state int

const (
	// final: the collections as the server left them after the scenario.
	final state = iota
	// before: the same, rewound to before the scenario's writes: no slot
	// revoked, deleted for anyone or read, u4 still a member of g1 (they
	// quit later) and u5's history not cleared yet.
	before
)

// recordedStore is a fresh embedded store holding the recorded collections
// in state s; opts configure the Store over it.
func recordedStore(t *testing.T, s state, opts store.Options) *store.Store {
	t.Helper()
	return store.New(recordedBackend(t, s), opts)
}

// recordedBackend is recordedStore's backend.
func recordedBackend(t *testing.T, s state) store.Backend {
	t.Helper()
	return renamedBackend(t, s, strings.NewReplacer())
}

// renamedBackend is recordedBackend with the recording's text passed
// through names (user IDs renamed, say, in every ID that holds them).
func renamedBackend(t *testing.T, s state, names *strings.Replacer) store.Backend {
	t.Helper()
	b := testkit.TempBackend(t)
	ctx := context.Background()
	for _, coll := range bucket.Collections {
		data, err := os.ReadFile(filepath.Join(recorded(t), coll+".json"))
		if err != nil {
			t.Fatal(err)
		}
		if s == before && coll == bucket.CollMsg {
			data = rewind(t, data)
		}
		data = []byte(names.Replace(string(data)))
		if _, err := transfer.Import(ctx, b, coll, bytes.NewReader(data), store.RawUpsert, transfer.Hooks{}); err != nil {
			t.Fatalf("import %s: %v", coll, err)
		}
	}
	if s == before {
		put := func(coll, line string) {
			if _, err := transfer.Import(ctx, b, coll, strings.NewReader(names.Replace(line)), store.RawUpsert, transfer.Hooks{}); err != nil {
				t.Fatal(err)
			}
		}
		put(bucket.CollGroupMember, `{"group_id":"g1","user_id":"u4","nickname":"","role_level":20,"join_time":{"$date":"2026-12-01T13:53:50.381Z"}}`)
		put(bucket.CollSeqUser, `{"user_id":"u5","conversation_id":"sg_g1","min_seq":0,"max_seq":0,"read_seq":0}`)
	}
	return b
}

// leaving is a backend on which members of a group can leave as a test
// goes on (the backend contract has no delete).
// It serves store.Directory's GroupMembers; every other call goes to
// the Backend it wraps.
type leaving struct {
	store.Backend
	left map[string]bool
}

func (l *leaving) GroupMembers(ctx context.Context, groupID string) ([]bucket.GroupMember, error) {
	ms, err := l.Backend.GroupMembers(ctx, groupID)
	return slices.DeleteFunc(ms, func(m bucket.GroupMember) bool { return l.left[m.UserID] }), err
}

// rewind clears every slot's revoke, del_list and is_read, keeping the
// fields a slot has (a physically deleted slot stays {msg: null}).
func rewind(t *testing.T, data []byte) []byte {
	t.Helper()
	var out bytes.Buffer
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		dec := json.NewDecoder(bytes.NewReader(sc.Bytes()))
		dec.UseNumber()
		var doc map[string]any
		if err := dec.Decode(&doc); err != nil {
			t.Fatal(err)
		}
		for _, s := range doc["msgs"].([]any) {
			slot := s.(map[string]any)
			for field, empty := range map[string]any{"revoke": nil, "del_list": []any{}, "is_read": false} {
				if _, has := slot[field]; has {
					slot[field] = empty
				}
			}
		}
		line, err := json.Marshal(doc)
		if err != nil {
			t.Fatal(err)
		}
		out.Write(append(line, '\n'))
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// writeCalls are the paths of the recorded calls the stand-in answers:
// tokens, revokes, deletes and read marks.
var writeCalls = map[string]bool{"/auth/get_admin_token": true, "/auth/get_user_token": true,
	"/msg/revoke_msg": true, "/msg/delete_msgs": true, "/msg/mark_msgs_as_read": true}

// recordedCall is one line of api-calls.jsonl.
type recordedCall struct {
	HTTP        int             `json:"http"`
	Label       string          `json:"label"`
	OperationID string          `json:"operationID"`
	Path        string          `json:"path"`
	Req         json.RawMessage `json:"req"`
	Resp        json.RawMessage `json:"resp"`
}

func recordedCalls(t *testing.T) []recordedCall {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(recorded(t), "api-calls.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var out []recordedCall
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var c recordedCall
		if err := json.Unmarshal([]byte(line), &c); err != nil {
			t.Fatal(err)
		}
		if writeCalls[c.Path] {
			out = append(out, c)
		}
	}
	return out
}

// verdict is one entry of revoke_verdicts.json.
type verdict struct {
	Case    string `json:"case"`
	Actor   string `json:"actor"`
	Token   string `json:"token"` // whose token the call carried
	Seq     int64  `json:"seq"`
	Cid     string `json:"conversationID"`
	Sender  string `json:"msgSender"`
	ErrCode int    `json:"errCode"`
	ErrMsg  string `json:"errMsg"`
}

func recordedVerdicts(t *testing.T) map[string]verdict {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(recorded(t), "revoke_verdicts.json"))
	if err != nil {
		t.Fatal(err)
	}
	var list []verdict
	if err := json.Unmarshal(data, &list); err != nil {
		t.Fatal(err)
	}
	out := map[string]verdict{}
	for _, v := range list {
		out["revoke "+v.Case] = v // api-calls.jsonl labels each revoke so
	}
	return out
}
