package main

import (
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/chatlens/chatlens/store/mongotest"
	"github.com/chatlens/chatlens/store/recordingtest"
)

// The timed recording of the real OpenIM Server (store/recordingtest
// OpenIMTimed): every user's pull and has-read taken between the phases of a
// scenario. Reading only the final store, `dump --at` must give what each
// pull gave at its moment, and `conversations --at` what each has-read
// said, for every user, conversation and moment. The scenario's changes
// all left evidence (the revokes' records, 2102s sent with IsSyncSelf,
// 2200s of mark_msgs_as_read, conversation.create_time), so no row may be
// marked unknown.

// timedRecording is snapshots.json.
type timedRecording struct {
	Users     []string `json:"users"`
	Snapshots []struct {
		Label string `json:"label"`
		AtMs  int64  `json:"at_ms"`
		// user -> conversation -> the objects pull_msg_by_seq gave.
		Pulls map[string]map[string][]map[string]any `json:"pulls"`
		// user -> conversation -> get_conversations_has_read_and_max_seq's.
		HasRead map[string]map[string]struct {
			MaxSeq     int64 `json:"maxSeq"`
			HasReadSeq int64 `json:"hasReadSeq"`
		} `json:"has_read"`
	} `json:"snapshots"`
	// held, when set, says which user is checked at which snapshot (their
	// indexes); unset, every user at every snapshot.
	held func(snap, user int) bool
}

// checks says whether the user of index u is held to snapshot s.
func (rec timedRecording) checks(s, u int) bool { return rec.held == nil || rec.held(s, u) }

// conversations is every conversation anyone was pulled at any moment,
// sorted: a user not pulled one at a moment must get no row of it then.
func (rec timedRecording) conversations() []string {
	var cids []string
	for _, snap := range rec.Snapshots {
		for _, convs := range snap.Pulls {
			for cid := range convs {
				if !slices.Contains(cids, cid) {
					cids = append(cids, cid)
				}
			}
		}
	}
	sort.Strings(cids)
	return cids
}

func loadTimed(t *testing.T) (timedRecording, recordedStore) {
	t.Helper()
	return loadTimedRecording(t, recordingtest.OpenIMTimed)
}

// loadTimedRecording reads the snapshots of the timed recording name and
// imports its collections into an embedded store.
func loadTimedRecording(t *testing.T, name string) (timedRecording, recordedStore) {
	t.Helper()
	dir := recordingtest.Dir(t, name)
	var rec timedRecording
	readJSONFile(t, filepath.Join(dir, "snapshots.json"), &rec)
	if len(rec.Snapshots) == 0 || len(rec.Users) == 0 {
		t.Fatal("snapshots.json holds no snapshot")
	}
	data := filepath.Join(t.TempDir(), "timed.db")
	return rec, importRecording(t, dir, []string{"--data", data})
}

func TestDumpAtEqualsEachRecordedPull(t *testing.T) {
	t.Parallel()
	rec, r := loadTimed(t)
	dumpAtHoldsToRecording(t, rec, r)
}

// With the recorded Redis keys as the first read layer (read seqs and max
// seqs from the cache, as the server reads them), the same.
func TestAtEqualsEachRecordedMomentWithRedis(t *testing.T) {
	t.Parallel()
	rec, r := loadTimed(t)
	r.conn = append(r.conn, "--redis", recordedRedis(t, recordingtest.Dir(t, recordingtest.OpenIMTimed)))
	dumpAtHoldsToRecording(t, rec, r)
	conversationsAtHoldToRecording(t, rec, r)
}

func dumpAtHoldsToRecording(t *testing.T, rec timedRecording, r recordedStore) {
	t.Helper()
	cids := rec.conversations()
	checked, rows := 0, 0
	for si, snap := range rec.Snapshots {
		at := fmt.Sprint(snap.AtMs)
		for ui, user := range rec.Users {
			if !rec.checks(si, ui) {
				continue
			}
			for _, cid := range cids {
				want := snap.Pulls[user][cid]
				for _, m := range want {
					if c, ok := m["content"].(string); ok {
						raw, err := base64.StdEncoding.DecodeString(c)
						if err != nil {
							t.Fatalf("%s %s seq %v: content is not base64: %v", user, cid, m["seq"], err)
						}
						m["content"] = string(raw)
					}
				}
				where := fmt.Sprintf("%s %s at %q (%s)", user, cid, snap.Label, at)
				res := r.chatlens(t, "dump", "--conversation", cid, "--as", user, "--at", at, "--format", "json")
				if res.code != 0 {
					t.Errorf("%s: dump --at exit %d: %s", where, res.code, res.stderr)
					continue
				}
				got := jsonLines(t, where, res.stdout)
				for _, o := range got {
					if u, ok := o["unknown"].([]any); !ok || len(u) > 0 {
						t.Errorf("%s seq %v: unknown %v; every change of this run left its evidence", where, o["seq"], o["unknown"])
					}
					delete(o, "unknown")
				}
				samePull(t, where, got, want)
				checked++
				rows += len(want)
			}
		}
	}
	t.Logf("dump --at: %d users × %d conversations × %d moments: %d pulls, %d rows, held to the recording",
		len(rec.Users), len(cids), len(rec.Snapshots), checked, rows)
}

func TestConversationsAtEqualsEachRecordedHasRead(t *testing.T) {
	t.Parallel()
	rec, r := loadTimed(t)
	conversationsAtHoldToRecording(t, rec, r)
}

// listAt is conversations --at as json, each row by its conversation ID;
// false (and a test error) when the command fails.
func (r recordedStore) listAt(t *testing.T, user, at, where string) (map[string]map[string]any, bool) {
	t.Helper()
	res := r.chatlens(t, "conversations", "--as", user, "--at", at, "--format", "json")
	if res.code != 0 {
		t.Errorf("%s: conversations --at exit %d: %s", where, res.code, res.stderr)
		return nil, false
	}
	got := map[string]map[string]any{}
	for _, o := range jsonLines(t, where, res.stdout) {
		got[o["conversationID"].(string)] = o
	}
	return got, true
}

func conversationsAtHoldToRecording(t *testing.T, rec timedRecording, r recordedStore) {
	t.Helper()
	checked := 0
	for si, snap := range rec.Snapshots {
		at := fmt.Sprint(snap.AtMs)
		for ui, user := range rec.Users {
			if !rec.checks(si, ui) {
				continue
			}
			where := fmt.Sprintf("%s at %q (%s)", user, snap.Label, at)
			got, ok := r.listAt(t, user, at, where)
			if !ok {
				continue
			}
			// The server's answer lists the user's conversation documents;
			// the chats of them are what the list shows.
			want := 0
			for cid, hr := range snap.HasRead[user] {
				if cid[:2] == "n_" {
					continue
				}
				want++
				checked++
				o, ok := got[cid]
				unread := max(0, hr.MaxSeq-hr.HasReadSeq)
				if !ok || num(o["maxSeq"]) != hr.MaxSeq || num(o["hasReadSeq"]) != hr.HasReadSeq || num(o["unread"]) != unread {
					t.Errorf("%s %s: conversations --at gives %v; the server: maxSeq %d, hasReadSeq %d, so unread %d", where, cid, o, hr.MaxSeq, hr.HasReadSeq, unread)
				} else if u, _ := o["unknown"].([]any); u == nil || len(u) > 0 {
					t.Errorf("%s %s: unknown %v; every read of this run left its evidence", where, cid, o["unknown"])
				}
			}
			if len(got) != want {
				t.Errorf("%s: conversations --at lists %d (%v), the server %d", where, len(got), got, want)
			}
		}
	}
	t.Logf("conversations --at: %d users × %d moments, %d conversations held to the recording", len(rec.Users), len(rec.Snapshots), checked)
}

// A delete for me chatlens made is dated by its audit line: before it the
// row is as sent, and known so. Read with another audit log (as another
// operator's tool would leave it: a storage-level write sends no 2102),
// the same row keeps its state now and is marked unknown, in json and in
// text, whose last line counts it.
func TestDumpAtDatesAWriteByTheAuditLogAndOnlyByIt(t *testing.T) {
	t.Parallel()
	rec, r := loadTimed(t)
	last := fmt.Sprint(rec.Snapshots[len(rec.Snapshots)-1].AtMs)
	if res := r.chatlens(t, "delete", "--conversation", "sg_tg37595", "--seq", "5", "--by", "t37595a2"); res.code != 0 {
		t.Fatalf("delete: exit %d: %s", res.code, res.stderr)
	}
	seq5 := func(r recordedStore, at string) map[string]any {
		t.Helper()
		res := r.chatlens(t, "dump", "--conversation", "sg_tg37595", "--as", "t37595a2", "--at", at, "--from", "5", "--to", "5", "--format", "json")
		objs := jsonLines(t, "dump --at", res.stdout)
		if res.code != 0 || len(objs) != 1 {
			t.Fatalf("dump --at %s: exit %d, %d rows: %s", at, res.code, len(objs), res.stderr)
		}
		return objs[0]
	}
	if o := seq5(r, last); num(o["status"]) != 0 || o["content"] == nil || len(o["unknown"].([]any)) != 0 {
		t.Errorf("before the delete its audit line dates: %v; want seq 5 as sent, nothing unknown", o)
	}
	if o := seq5(r, fmt.Sprint(time.Now().Add(time.Minute).UnixMilli())); num(o["status"]) != 4 || len(o["unknown"].([]any)) != 0 {
		t.Errorf("after it: %v; want seq 5 deleted for t37595a2, nothing unknown", o)
	}
	other := r
	other.audit = filepath.Join(t.TempDir(), "other.log")
	o := seq5(other, last)
	if u, _ := o["unknown"].([]any); num(o["status"]) != 4 || len(u) != 1 || !strings.Contains(fmt.Sprint(u[0]), "deleted for t37595a2, time unknown: no 2102") {
		t.Errorf("with no evidence of the delete: %v; want seq 5 as stored now (deleted) and why its time is unknown", o)
	}
	res := other.chatlens(t, "dump", "--conversation", "sg_tg37595", "--as", "t37595a2", "--at", last, "--from", "5", "--to", "5", "--format", "json", "--explain")
	if objs := jsonLines(t, "--explain", res.stdout); len(objs) != 1 || objs[0]["explain"] == nil || len(objs[0]["unknown"].([]any)) != 1 {
		t.Errorf("json --explain --at: %s; want one object with both its explain and its unknown list", res.stdout)
	}
	res = other.chatlens(t, "dump", "--conversation", "sg_tg37595", "--as", "t37595a2", "--at", last, "--to", "10")
	lines := strings.Split(strings.TrimSpace(res.stdout), "\n")
	if res.code != 0 || len(lines) != 11 || !strings.Contains(lines[4], "unknown: deleted for t37595a2") ||
		!strings.Contains(lines[10], ": 1 row marked unknown") {
		t.Errorf("text dump --at: exit %d\n%s\nwant seqs 1-10, seq 5 marked, then a line counting 1 row marked unknown", res.code, res.stdout)
	}
}

// A transcript of a pull then says so in its header, with the count of
// rows marked unknown, and each such row says why in its rule.
func TestDumpAtTranscriptsSayTheMomentAndTheUnknownRows(t *testing.T) {
	t.Parallel()
	rec, r := loadTimed(t)
	if res := r.chatlens(t, "delete", "--conversation", "sg_tg37595", "--seq", "5,7", "--by", "t37595a2"); res.code != 0 {
		t.Fatalf("delete: exit %d: %s", res.code, res.stderr)
	}
	r.audit = filepath.Join(t.TempDir(), "other.log") // no evidence of that delete
	at := rec.Snapshots[1].AtMs
	for _, format := range []string{"markdown", "html"} {
		res := r.chatlens(t, "dump", "--conversation", "sg_tg37595", "--as", "t37595a2", "--at", fmt.Sprint(at), "--to", "8", "--format", format)
		head, _, _ := strings.Cut(res.stdout, "Seqs")
		if res.code != 0 || !strings.Contains(head, "As of "+time.UnixMilli(at).UTC().Format(time.RFC3339Nano)) ||
			!strings.Contains(head, "2 rows are marked unknown") || strings.Count(res.stdout, "time unknown: no 2102") != 2 {
			t.Errorf("%s: exit %d\n%s\nwant a header naming the moment and 2 rows marked unknown, each saying why", format, res.code, res.stdout)
		}
	}
}

// A conversation document without create_time (a synthetic store, the
// demo's) is dated by the member's group_member.join_time; with neither,
// the rows say when the viewer got it is unknown.
func TestDumpAtDatesAJoinByJoinTimeWhenCreateTimeIsMissing(t *testing.T) {
	t.Parallel()
	dir := recordingtest.Dir(t, recordingtest.OpenIMTimed)
	var rec timedRecording
	readJSONFile(t, filepath.Join(dir, "snapshots.json"), &rec)
	strip := func(file string, match string, field *regexp.Regexp) {
		t.Helper()
		path := filepath.Join(dir, file)
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(b), "\n")
		n := 0
		for i, l := range lines {
			if strings.Contains(l, match) {
				lines[i], n = field.ReplaceAllString(l, ""), n+1
			}
		}
		if n == 0 {
			t.Fatalf("%s: no line holds %s", file, match)
		}
		if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	strip("conversation.json", `"owner_user_id":"t37595a5"`, regexp.MustCompile(`,"create_time":\{"\$date":\{"\$numberLong":"\d+"\}\}`))
	r := importRecording(t, dir, []string{"--data", filepath.Join(t.TempDir(), "timed.db")})
	dump := func(r recordedStore, snap int) result {
		return r.chatlens(t, "dump", "--conversation", "sg_tg37595", "--as", "t37595a5", "--at", fmt.Sprint(rec.Snapshots[snap].AtMs), "--format", "json")
	}
	if res := dump(r, 1); res.code != 0 || res.stdout != "" || !strings.Contains(res.stderr, "(group_member.join_time)") {
		t.Errorf("before the invite: exit %d, stdout %q, stderr %q; want nothing pulled, dated by join_time", res.code, res.stdout, res.stderr)
	}
	res := dump(r, 2)
	rows := jsonLines(t, "after the invite", res.stdout)
	if len(rows) != 35 || len(rows[0]["unknown"].([]any)) != 0 {
		t.Errorf("after the invite: %d rows, the first unknown %v; want seqs 1-35 as pulled, dated", len(rows), rows[0]["unknown"])
	}
	strip("group_member.json", `"user_id":"t37595a5"`, regexp.MustCompile(`,"join_time":\{"\$date":\{"\$numberLong":"\d+"\}\}`))
	r = importRecording(t, dir, []string{"--data", filepath.Join(t.TempDir(), "timed2.db")})
	rows = jsonLines(t, "with neither", dump(r, 1).stdout)
	if u, _ := rows[0]["unknown"].([]any); len(rows) != 25 || len(u) != 1 || !strings.Contains(fmt.Sprint(u[0]), "not stored (no create_time)") {
		t.Errorf("with neither time: %d rows, the first unknown %v; want seqs 1-25 as stored, the first saying when a5 got it is not stored", len(rows), rows[0]["unknown"])
	}
}

// On the MongoDB backend (the in-process MongoDB-wire server, or the real
// MongoDB of CHATLENS_TEST_MONGO_URI): the same, from plain finds. The
// in-process server scans the whole collection on every find, so there each
// user is held to one moment, the moments taken in turn so that every one is
// checked; the embedded store's tests above hold every user to every moment,
// and a real MongoDB is held to all of them too.
func TestAtEqualsEachRecordedMomentOnMongoDB(t *testing.T) {
	t.Parallel()
	dir := recordingtest.Dir(t, recordingtest.OpenIMTimed)
	var rec timedRecording
	readJSONFile(t, filepath.Join(dir, "snapshots.json"), &rec)
	uri, real := mongotest.URI(t)
	if !real {
		if len(rec.Users) < len(rec.Snapshots) {
			t.Fatalf("%d users for %d moments: one moment a user leaves some unchecked", len(rec.Users), len(rec.Snapshots))
		}
		rec.held = func(snap, user int) bool { return user%len(rec.Snapshots) == snap }
	}
	r := importRecording(t, dir, []string{"--mongo-uri", uri, "--db", mongotest.Database(t, uri)})
	dumpAtHoldsToRecording(t, rec, r)
	conversationsAtHoldToRecording(t, rec, r)
}

// The first recording (../shared/openim-recorded) holds what a timed run
// of the real server cannot date: u5 cleared sg_g1 (api-calls.jsonl,
// clear_conversation_msg at 1796133234689, no deleteSyncOpt) after seq 262
// was sent and before seq 263 was: seq_user.min_seq 263 and
// conversation.min_seq 263, read seq raised to 262 (open-im-server
// internal/rpc/msg/delete.go:132-142 and :157), and no 1703 anywhere
// (pkg/notification/msg.go:35-81 has no ClearConversationNotification).
// At 1796133234700 u5's last own send was seq 261, so the read seq then
// is only known to be at least 261; and the pull then held no row of the
// window now but may have held seqs 1-262 (a clear leaves them in the
// buckets), each shown marked, in every format of dump --at.
func TestAtAnUndatedClearIsSaidInEveryFormat(t *testing.T) {
	t.Parallel()
	r := importRecording(t, recording(t), []string{"--data", filepath.Join(t.TempDir(), "rec.db")})
	const at = "1796133234700"
	res := r.chatlens(t, "conversations", "--as", "u5", "--at", at, "--format", "json")
	var g1 map[string]any
	for _, o := range jsonLines(t, "conversations --at", res.stdout) {
		if o["conversationID"] == "sg_g1" {
			g1 = o
		}
	}
	if u, _ := g1["unknown"].([]any); res.code != 0 || num(g1["hasReadSeq"]) != 261 || len(u) != 1 ||
		!strings.Contains(fmt.Sprint(u[0]), "cleared at a time nothing stored gives") || !strings.Contains(fmt.Sprint(u[0]), "read seq ≥ 261 then") {
		t.Errorf("conversations --at json: exit %d, sg_g1 %v; want hasReadSeq 261 marked a bound: the clear may have raised it to 262", res.code, g1)
	}
	res = r.chatlens(t, "conversations", "--as", "u5", "--at", at)
	if !regexp.MustCompile(`sg_g1 .*\(seq 262, read ≥ 261\)  ← unknown: .*cleared at a time`).MatchString(res.stdout) {
		t.Errorf("conversations --at text:\n%s\nwant sg_g1's read seq shown as ≥ 261, saying why", res.stdout)
	}
	dump := func(format string) result {
		return r.chatlens(t, "dump", "--conversation", "sg_g1", "--as", "u5", "--at", at, "--format", format)
	}
	// The clear left seqs 1-262 in the buckets, and came after seq 262 was
	// sent and before seq 263 was: each may have been pulled then.
	const why = "cleared at a time nothing stored gives (OpenIM stores no notification of a clear), after seq 262 was sent and before seq 263 was"
	if res := dump("text"); res.code != 0 || !strings.Contains(res.stdout, ": 262 rows marked unknown") || strings.Count(res.stdout, why) != 262 {
		t.Errorf("dump --at text: exit %d\n%s\nwant seqs 1-262, each saying the clear may have come, and its last line counting them", res.code, res.stdout)
	}
	rows := jsonLines(t, "dump --at json", dump("json").stdout)
	if len(rows) != 262 || num(rows[0]["seq"]) != 1 || num(rows[261]["seq"]) != 262 {
		t.Fatalf("dump --at json: %d rows; want seqs 1-262", len(rows))
	}
	for _, o := range rows {
		if u, _ := o["unknown"].([]any); len(u) == 0 || !strings.Contains(fmt.Sprint(u[0]), why) {
			t.Errorf("dump --at json seq %v: unknown %v; want it said the clear may have come", o["seq"], o["unknown"])
			break
		}
	}
	for _, format := range []string{"markdown", "html"} {
		res := dump(format)
		head, _, _ := strings.Cut(res.stdout, "Seqs")
		if res.code != 0 || !strings.Contains(head, "262 rows are marked unknown") || strings.Count(res.stdout, "cleared at a time nothing stored gives") != 262 {
			t.Errorf("dump --at %s: exit %d\n%s\nwant the header to count 262 rows marked unknown, each saying why", format, res.code, res.stdout)
		}
	}
	// Before seq 262 was sent the clear had not come: the rows are known.
	before := r.chatlens(t, "dump", "--conversation", "sg_g1", "--as", "u5", "--at", "1796133234000", "--format", "json")
	for _, o := range jsonLines(t, "before seq 262", before.stdout) {
		if u, _ := o["unknown"].([]any); len(u) > 0 && strings.Contains(fmt.Sprint(u), "cleared") {
			t.Errorf("before seq 262 was sent, seq %v: unknown %v; want the clear known not to have come", o["seq"], u)
			break
		}
	}
}

// u1 deleted si_u1_u2 seq 5 for everyone with IsSyncOther (api-calls.jsonl):
// delete.go:72-82 erases the slot and sends a 2102 into n_u1_u2, stored
// (pkg/notification/msg.go:79, ReliableNotificationNoMsg): n_u1_u2 seq 3,
// send_time 1796133234431, naming seq 5. Before it the pull gave seq 5 as
// sent (its content now lost); from it on, a hole, known.
func TestDumpAtDatesAPhysicalDeleteByIts2102(t *testing.T) {
	t.Parallel()
	r := importRecording(t, recording(t), []string{"--data", filepath.Join(t.TempDir(), "rec.db")})
	seq5 := func(at string) map[string]any {
		t.Helper()
		res := r.chatlens(t, "dump", "--conversation", "si_u1_u2", "--as", "u2", "--at", at, "--from", "5", "--to", "5", "--format", "json")
		objs := jsonLines(t, "dump --at", res.stdout)
		if res.code != 0 || len(objs) != 1 {
			t.Fatalf("dump --at %s: exit %d, %d rows: %s", at, res.code, len(objs), res.stderr)
		}
		return objs[0]
	}
	if u, _ := seq5("1796133234430")["unknown"].([]any); len(u) != 1 || !strings.Contains(fmt.Sprint(u[0]), "physically deleted at 2026-12-01T") ||
		!strings.Contains(fmt.Sprint(u[0]), "by u1 (2102 in n_u1_u2 seq 3): pulled then as sent") {
		t.Errorf("before the 2102: unknown %v; want seq 5 said to be there then, erased at the 2102's time", u)
	}
	if o := seq5("1796133234431"); len(o["unknown"].([]any)) != 0 {
		t.Errorf("at the 2102: %v; want seq 5 a hole, nothing unknown", o)
	}
}
