package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"

	"github.com/chatlens/chatlens/store/mongotest"
	"github.com/chatlens/chatlens/store/recordingtest"
)

// The recording of the real OpenIM Server's own work (its collections, what
// it pulled to each user, its Redis keys; store/recordingtest): these tests
// hold chatlens's reads to it, seq by seq and field by field.

// recordedCollections are the collections the recording exports, in an
// order that lets each import stand alone.
var recordedCollections = []string{"msg", "seq", "seq_user", "conversation", "user", "group", "group_member"}

var recordedUsers = []string{"u1", "u2", "u3", "u4", "u5", "u6"}

// recording returns the recording's directory, the test's own copy.
func recording(t *testing.T) string {
	t.Helper()
	return recordingtest.Dir(t, recordingtest.OpenIM)
}

// recordedStore is a store holding the recording's collections, and the
// connection flags that reach it.
type recordedStore struct {
	conn  []string // --data or --mongo-uri/--db, and --redis when loaded
	audit string
}

func (r recordedStore) chatlens(t *testing.T, args ...string) result {
	t.Helper()
	full := append(append([]string{args[0], "--audit-log", r.audit}, r.conn...), args[1:]...)
	var out, errs bytes.Buffer
	return result{runArgs(full, &out, &errs), out.String(), errs.String()}
}

// importRecording loads every recorded collection with `chatlens import`.
func importRecording(t *testing.T, dir string, conn []string) recordedStore {
	t.Helper()
	r := recordedStore{conn: conn, audit: filepath.Join(t.TempDir(), "audit.log")}
	for _, coll := range recordedCollections {
		if res := r.chatlens(t, "import", "--collection", coll, filepath.Join(dir, coll+".json")); res.code != 0 {
			t.Fatalf("import %s: exit %d: %s", coll, res.code, res.stderr)
		}
	}
	return r
}

// recordedRedisDBs are the databases of CHATLENS_TEST_REDIS the recording
// is loaded into, one per test at a time (the rest of chatlens's tests
// use database 0).
var recordedRedisDBs = func() chan int {
	dbs := make(chan int, 3)
	for db := 13; db <= 15; db++ {
		dbs <- db
	}
	return dbs
}()

// recordedRedis loads redis_keys.json into a Redis (CHATLENS_TEST_REDIS's,
// in a database of its own that is emptied first, else an in-process one)
// and returns the --redis value that reaches it. TTLs are left out: the
// recording was read at once, and the keys about to expire are the
// lockUntil markers, misses either way.
func recordedRedis(t *testing.T, dir string) string {
	t.Helper()
	var keys map[string]struct {
		Type  string          `json:"type"`
		Value json.RawMessage `json:"value"`
	}
	b, err := os.ReadFile(filepath.Join(dir, "redis_keys.json"))
	if err == nil {
		err = json.Unmarshal(b, &keys)
	}
	if err != nil {
		t.Fatalf("redis_keys.json: %v", err)
	}
	addr, db := os.Getenv("CHATLENS_TEST_REDIS"), 0
	if addr == "" {
		addr = miniredis.RunT(t).Addr()
	} else {
		// The recording's keys have no prefix: a test holds a database
		// of its own until it ends, so parallel tests never flush each
		// other's.
		db = <-recordedRedisDBs
		t.Cleanup(func() { recordedRedisDBs <- db })
	}
	rdb := redis.NewClient(&redis.Options{Addr: addr, DB: db, Protocol: 2, DisableIdentity: true})
	t.Cleanup(func() { rdb.FlushDB(context.Background()); _ = rdb.Close() })
	ctx := context.Background()
	if err := rdb.FlushDB(ctx).Err(); err != nil {
		t.Fatalf("redis at %s: %v", addr, err)
	}
	for key, k := range keys {
		switch k.Type {
		case "hash":
			var fields map[string]string
			if err := json.Unmarshal(k.Value, &fields); err != nil {
				t.Fatalf("%s: %v", key, err)
			}
			err = rdb.HSet(ctx, key, fields).Err()
		case "string":
			var v string
			if err := json.Unmarshal(k.Value, &v); err != nil {
				t.Fatalf("%s: %v", key, err)
			}
			err = rdb.Set(ctx, key, v, 0).Err()
		default:
			t.Fatalf("%s: a %s key; the recording had only hashes and strings", key, k.Type)
		}
		if err != nil {
			t.Fatalf("loading %s: %v", key, err)
		}
	}
	return fmt.Sprintf("redis://%s/%d", addr, db)
}

// recordedPull is pull_<user>.json: newest_seq's max seqs and, per
// conversation, the objects pull_msg_by_seq returned.
type recordedPull struct {
	MaxSeqs map[string]int64 `json:"maxSeqs"`
	Pulls   map[string]struct {
		Msgs             map[string]struct{ Msgs []map[string]any } `json:"msgs"`
		NotificationMsgs map[string]struct{ Msgs []map[string]any } `json:"notificationMsgs"`
	} `json:"pulls"`
}

func readJSONFile(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err == nil {
		err = json.Unmarshal(b, v)
	}
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// pulled is what the server gave user of each conversation, content
// decoded (Go's JSON of []byte is base64).
func pulled(t *testing.T, dir, user string) map[string][]map[string]any {
	t.Helper()
	var p recordedPull
	readJSONFile(t, filepath.Join(dir, "pull_"+user+".json"), &p)
	out := map[string][]map[string]any{}
	for cid, pull := range p.Pulls {
		msgs := append(pull.Msgs[cid].Msgs, pull.NotificationMsgs[cid].Msgs...)
		for _, m := range msgs {
			if c, ok := m["content"].(string); ok {
				raw, err := base64.StdEncoding.DecodeString(c)
				if err != nil {
					t.Fatalf("%s %s seq %v: content is not base64: %v", user, cid, m["seq"], err)
				}
				m["content"] = string(raw)
			}
		}
		out[cid] = msgs
		if last := p.MaxSeqs[cid]; len(msgs) == 0 || num(msgs[len(msgs)-1]["seq"]) > last {
			t.Fatalf("%s %s: the recording pulls %d objects, past newest_seq's %d", user, cid, len(msgs), last)
		}
	}
	return out
}

// chatlensOwn are the fields dump adds to the server's MsgData.
var chatlensOwn = []string{"docID", "index", "explain"}

// samePull compares dump's objects of one conversation with the server's,
// object for object and field for field, and reports at most a few.
func samePull(t *testing.T, where string, got, want []map[string]any) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: dump printed %d objects (%s), the server pulled %d (%s)", where, len(got), seqSpan(got), len(want), seqSpan(want))
	}
	bySeq := map[int64]map[string]any{}
	for _, o := range got {
		for _, k := range chatlensOwn {
			delete(o, k)
		}
		bySeq[num(o["seq"])] = o
	}
	reported := 0
	for _, w := range want {
		seq := num(w["seq"])
		g, ok := bySeq[seq]
		if !ok {
			t.Errorf("%s seq %d: not in the dump", where, seq)
			reported++
		} else if !reflect.DeepEqual(g, w) {
			t.Errorf("%s seq %d: %s", where, seq, fieldDiff(g, w))
			reported++
		}
		if reported == 8 {
			t.Errorf("%s: more differences not shown", where)
			return
		}
	}
}

// linesBut is out's lines but those holding note.
func linesBut(out, note string) []string {
	var keep []string
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if !strings.Contains(l, note) {
			keep = append(keep, l)
		}
	}
	return keep
}

func seqSpan(objs []map[string]any) string {
	if len(objs) == 0 {
		return "none"
	}
	return fmt.Sprintf("seqs %d-%d", num(objs[0]["seq"]), num(objs[len(objs)-1]["seq"]))
}

// fieldDiff names the fields two objects disagree on, with both values.
func fieldDiff(got, want map[string]any) string {
	var keys []string
	for k := range want {
		keys = append(keys, k)
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	var diffs []string
	for _, k := range keys {
		g, gok := got[k]
		w, wok := want[k]
		switch {
		case !gok:
			diffs = append(diffs, fmt.Sprintf("%s missing (server: %v)", k, w))
		case !wok:
			diffs = append(diffs, fmt.Sprintf("%s not in the pull (dump: %v)", k, g))
		case !reflect.DeepEqual(g, w):
			diffs = append(diffs, fmt.Sprintf("%s = %#v, server %#v", k, g, w))
		}
	}
	return strings.Join(diffs, "; ")
}

func jsonLines(t *testing.T, where, out string) []map[string]any {
	t.Helper()
	var objs []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if line == "" {
			continue
		}
		var o map[string]any
		if err := json.Unmarshal([]byte(line), &o); err != nil {
			t.Fatalf("%s: not JSON: %q: %v", where, line, err)
		}
		objs = append(objs, o)
	}
	return objs
}

// recordedConversations are the non-notification conversations of the
// scenario, pulled only to the users who own a conversation document.
var recordedConversations = []string{"sg_g1", "si_u1_u2"}

// holdsToRecording runs every check against one store holding the
// recording, for each of users.
func holdsToRecording(t *testing.T, dir string, r recordedStore, users []string) {
	for _, user := range users {
		pulls := pulled(t, dir, user)
		for cid, want := range pulls {
			res := r.chatlens(t, "dump", "--conversation", cid, "--as", user, "--format", "json")
			where := user + " " + cid
			if res.code != 0 {
				t.Errorf("%s: dump exit %d: %s", where, res.code, res.stderr)
				continue
			}
			samePull(t, where, jsonLines(t, where, res.stdout), want)
		}
		// The server pulls nothing of a conversation the user owns no
		// conversation document for (internal/rpc/msg/sync_msg.go
		// PullMessageBySeqs), and neither does dump; it says so.
		for _, cid := range append(slices.Clone(recordedConversations), "") {
			if _, ok := pulls[cid]; ok || cid == "" {
				continue
			}
			res := r.chatlens(t, "dump", "--conversation", cid, "--as", user, "--format", "json")
			if res.code != 0 || res.stdout != "" || !strings.Contains(res.stderr, "no conversation document") || len(linesBut(res.stderr, noRedisNote)) != 1 {
				t.Errorf("%s %s (no conversation document): exit %d, stdout %q, stderr %q; want no rows and one line why", user, cid, res.code, res.stdout, res.stderr)
			}
		}
		checkHasRead(t, dir, r, user)
		checkNotifications(t, dir, r, user)
	}
	// The app admin revoked in sg_g1 and owns no conversation document.
	if res := r.chatlens(t, "dump", "--conversation", "sg_g1", "--as", "imAdmin"); res.stdout != "" || !strings.Contains(res.stderr, "no conversation document") {
		t.Errorf("imAdmin sg_g1: stdout %q stderr %q; want nothing and why", res.stdout, res.stderr)
	}
}

// checkHasRead holds `conversations --format json` to the server's
// get_conversations_has_read_and_max_seq for user, and the unread count to
// what a client computes from it: maxSeq - hasReadSeq, never below 0.
func checkHasRead(t *testing.T, dir string, r recordedStore, user string) {
	t.Helper()
	var hr struct {
		Seqs map[string]struct {
			MaxSeq     int64 `json:"maxSeq"`
			HasReadSeq int64 `json:"hasReadSeq"`
		} `json:"seqs"`
	}
	readJSONFile(t, filepath.Join(dir, "has_read_"+user+".json"), &hr)
	res := r.chatlens(t, "conversations", "--as", user, "--format", "json")
	if res.code != 0 {
		t.Fatalf("conversations --as %s: exit %d: %s", user, res.code, res.stderr)
	}
	got := map[string]map[string]any{}
	for _, o := range jsonLines(t, "conversations", res.stdout) {
		got[o["conversationID"].(string)] = o
	}
	for cid, want := range hr.Seqs {
		o, ok := got[cid]
		unread := max(0, want.MaxSeq-want.HasReadSeq)
		if !ok || num(o["maxSeq"]) != want.MaxSeq || num(o["hasReadSeq"]) != want.HasReadSeq || num(o["unread"]) != unread {
			t.Errorf("%s %s: conversations gives %v; the server: maxSeq %d, hasReadSeq %d, so unread %d", user, cid, o, want.MaxSeq, want.HasReadSeq, unread)
		}
	}
	if len(got) != len(hr.Seqs) {
		t.Errorf("%s: conversations lists %d, the server %d", user, len(got), len(hr.Seqs))
	}
}

// countedUnread is a count in the text of conversations: "16 unread".
var countedUnread = regexp.MustCompile(`\d unread`)

// checkNotifications holds `conversations --notifications` to the n_*
// conversations the server pulled user: the same set, each window the
// seqs pulled, its max seq newest_seq's. None has an unread count: the
// server's get_conversations_has_read_and_max_seq gives none for them, so
// the text says so where a chat's count is and the json's unread is 0
// (it said n_g1 had 16 unread, which the list did not show).
func checkNotifications(t *testing.T, dir string, r recordedStore, user string) {
	t.Helper()
	var p recordedPull
	readJSONFile(t, filepath.Join(dir, "pull_"+user+".json"), &p)
	var hr struct {
		Seqs map[string]json.RawMessage `json:"seqs"`
	}
	readJSONFile(t, filepath.Join(dir, "has_read_"+user+".json"), &hr)
	text := r.chatlens(t, "conversations", "--as", user, "--notifications")
	for _, line := range strings.Split(strings.TrimSpace(text.stdout), "\n") {
		cid := strings.Fields(line)[0]
		if _, counted := hr.Seqs[cid]; counted || !strings.Contains(line, " no unread count ") || countedUnread.MatchString(line) {
			t.Errorf("%s: conversations --notifications says %q; the server gives %s no unread count", user, line, cid)
		}
	}
	res := r.chatlens(t, "conversations", "--as", user, "--notifications", "--format", "json")
	if res.code != 0 {
		t.Fatalf("conversations --as %s --notifications: exit %d: %s", user, res.code, res.stderr)
	}
	got := map[string]map[string]any{}
	for _, o := range jsonLines(t, "conversations --notifications", res.stdout) {
		got[o["conversationID"].(string)] = o
	}
	want := 0
	for cid, max := range p.MaxSeqs {
		if !strings.HasPrefix(cid, "n_") {
			continue
		}
		want++
		msgs := p.Pulls[cid].NotificationMsgs[cid].Msgs
		o, ok := got[cid]
		if !ok || len(msgs) == 0 || num(o["maxSeq"]) != max || num(o["minSeq"]) != num(msgs[0]["seq"]) || num(o["maxSeq"]) != num(msgs[len(msgs)-1]["seq"]) || num(o["unread"]) != 0 {
			t.Errorf("%s %s: conversations --notifications gives %v; the server pulled %d objects, newest_seq %d", user, cid, o, len(msgs), max)
		}
	}
	if len(got) != want {
		t.Errorf("%s: conversations --notifications lists %d, the server pulled %d", user, len(got), want)
	}
}

func TestRecordedPullsOnTheEmbeddedStore(t *testing.T) {
	t.Parallel()
	dir := recording(t)
	data := filepath.Join(t.TempDir(), "recorded.db")
	holdsToRecording(t, dir, importRecording(t, dir, []string{"--data", data}), recordedUsers)
}

func TestRecordedPullsWithRedis(t *testing.T) {
	t.Parallel()
	dir := recording(t)
	data := filepath.Join(t.TempDir(), "recorded.db")
	r := importRecording(t, dir, []string{"--data", data})
	r.conn = append(r.conn, "--redis", recordedRedis(t, dir))
	holdsToRecording(t, dir, r, recordedUsers)
}

// On the MongoDB backend: the in-process MongoDB-wire server, or the real
// MongoDB of CHATLENS_TEST_MONGO_URI. Its reads are the plain finds
// FerretDB answers, so the recording is checked there too: all of it on a
// real MongoDB; on the in-process server, which scans the whole collection
// on every find, the users who between them were pulled every conversation
// and own no document of one (the embedded store's tests hold every user).
func TestRecordedPullsOnMongoDB(t *testing.T) {
	t.Parallel()
	dir := recording(t)
	uri, real := mongotest.URI(t)
	r := importRecording(t, dir, []string{"--mongo-uri", uri, "--db", mongotest.Database(t, uri)})
	users := recordedUsers
	if !real {
		users = []string{"u1", "u2", "u3"}
	}
	holdsToRecording(t, dir, r, users)
	// Without --redis a deployment's newest seqs and read seqs may lag what
	// devices show (Redis is written first): a reader is told so, once.
	for _, args := range [][]string{{"dump", "--conversation", "sg_g1", "--as", "u1"}, {"conversations", "--as", "u1"}} {
		if res := r.chatlens(t, args...); strings.Count(res.stderr, noRedisNote) != 1 {
			t.Errorf("%s without --redis: stderr %q; want the note that read positions may lag, once", args[0], res.stderr)
		}
	}
}
