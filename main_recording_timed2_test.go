package main

import (
	"encoding/base64"
	"fmt"
	"reflect"
	"regexp"
	"strconv"
	"testing"

	"github.com/chatlens/chatlens/store/recordingtest"
)

// The second timed recording of the real OpenIM Server (store/recordingtest
// OpenIMTimed2): clears, physical deletes (an admin's by seq, with no
// notification; delete_msgs with IsSyncOther, with a 2102), deletes for
// me without IsSyncSelf, a group's mark_conversation_as_read (no 2200
// stored), a quit, a kick, an invite. Some of these no stored evidence
// dates, so a row may differ from the pull then only if it says so: for
// every user, conversation and moment, each row of dump --at is the
// pull's (every field) or is marked unknown; no pulled row is missing; no
// row the pull did not give is printed unless marked; and each chat of
// conversations --at gives has-read's maxSeq and hasReadSeq, or is marked
// (a read seq given as a bound holds the server's).
func TestAtHoldsToTheSecondTimedRecordingOrSaysItCannot(t *testing.T) {
	t.Parallel()
	rec, r := loadTimedRecording(t, recordingtest.OpenIMTimed2)
	atHoldsOrSays(t, rec, r)
}

// With the recorded Redis keys as the first read layer (read seqs, min
// seqs and max seqs from the cache, as the server reads them), the same.
func TestAtHoldsToTheSecondTimedRecordingWithRedis(t *testing.T) {
	t.Parallel()
	rec, r := loadTimedRecording(t, recordingtest.OpenIMTimed2)
	r.conn = append(r.conn, "--redis", recordedRedis(t, recordingtest.Dir(t, recordingtest.OpenIMTimed2)))
	atHoldsOrSays(t, rec, r)
}

// atHoldsOrSays holds dump --at and conversations --at to every moment of
// rec, a difference allowed only where marked, and logs the tally.
func atHoldsOrSays(t *testing.T, rec timedRecording, r recordedStore) {
	t.Helper()
	cids := rec.conversations()
	var rows, equal, equalMarked, marked, extra int
	for _, snap := range rec.Snapshots {
		at := fmt.Sprint(snap.AtMs)
		for _, user := range rec.Users {
			for _, cid := range cids {
				where := fmt.Sprintf("%s %s at %q (%s)", user, cid, snap.Label, at)
				res := r.chatlens(t, "dump", "--conversation", cid, "--as", user, "--at", at, "--format", "json")
				if res.code != 0 {
					t.Errorf("%s: dump --at exit %d: %s", where, res.code, res.stderr)
					continue
				}
				got := map[int64]map[string]any{}
				for _, o := range jsonLines(t, where, res.stdout) {
					got[num(o["seq"])] = o
				}
				for _, w := range snap.Pulls[user][cid] {
					rows++
					asDumped(t, where, w)
					seq := num(w["seq"])
					o, ok := got[seq]
					delete(got, seq)
					unknown := unknownOf(o)
					switch {
					case !ok:
						t.Errorf("%s seq %d: not in the dump; the pull gave it", where, seq)
					case reflect.DeepEqual(o, w):
						equal++
						if len(unknown) > 0 {
							equalMarked++
						}
					case len(unknown) > 0:
						marked++
					default:
						t.Errorf("%s seq %d: %s, and not marked unknown", where, seq, fieldDiff(o, w))
					}
				}
				for seq, o := range got {
					if len(unknownOf(o)) == 0 {
						t.Errorf("%s seq %d: printed, not marked unknown; the pull gave no such row: %v", where, seq, o)
					}
					extra++
				}
			}
		}
	}
	t.Logf("dump --at: %d pulled rows: %d equal (%d of them marked unknown), %d different and marked unknown; %d more rows printed, marked",
		rows, equal, equalMarked, marked, extra)
	chats, chatsEqual, chatsMarked := conversationsAtHoldOrSay(t, rec, r)
	t.Logf("conversations --at: %d chats: %d equal, %d different and marked unknown", chats, chatsEqual, chatsMarked)
}

// asDumped turns a recorded pull's object into dump's form: content as text.
func asDumped(t *testing.T, where string, m map[string]any) {
	t.Helper()
	if c, ok := m["content"].(string); ok {
		raw, err := base64.StdEncoding.DecodeString(c)
		if err != nil {
			t.Fatalf("%s seq %v: content is not base64: %v", where, m["seq"], err)
		}
		m["content"] = string(raw)
	}
}

// unknownOf takes dump's own fields out of o and returns its unknown list.
func unknownOf(o map[string]any) []any {
	u, _ := o["unknown"].([]any)
	for _, k := range append(chatlensOwn, "unknown") {
		delete(o, k)
	}
	return u
}

// readBound is the read seq a row of conversations --at says is only a
// lower bound ("read seq ≥ N then").
var readBound = regexp.MustCompile(`read seq ≥ (\d+) then`)

// conversationsAtHoldOrSay holds conversations --at to each has-read, a
// difference allowed only where marked; it returns the chats checked,
// equal and marked.
func conversationsAtHoldOrSay(t *testing.T, rec timedRecording, r recordedStore) (chats, equal, marked int) {
	t.Helper()
	for _, snap := range rec.Snapshots {
		at := fmt.Sprint(snap.AtMs)
		for _, user := range rec.Users {
			where := fmt.Sprintf("%s at %q (%s)", user, snap.Label, at)
			got, ok := r.listAt(t, user, at, where)
			if !ok {
				continue
			}
			for cid, hr := range snap.HasRead[user] {
				if cid[:2] == "n_" {
					continue
				}
				chats++
				o, ok := got[cid]
				delete(got, cid)
				u, _ := o["unknown"].([]any)
				switch {
				case !ok:
					t.Errorf("%s %s: not listed; the server: maxSeq %d, hasReadSeq %d", where, cid, hr.MaxSeq, hr.HasReadSeq)
				case num(o["maxSeq"]) == hr.MaxSeq && num(o["hasReadSeq"]) == hr.HasReadSeq:
					equal++
				case len(u) == 0:
					t.Errorf("%s %s: maxSeq %v, hasReadSeq %v, not marked; the server: %d, %d", where, cid, o["maxSeq"], o["hasReadSeq"], hr.MaxSeq, hr.HasReadSeq)
				default:
					marked++
				}
				for _, why := range u {
					if m := readBound.FindStringSubmatch(fmt.Sprint(why)); m != nil {
						if n, _ := strconv.ParseInt(m[1], 10, 64); n > hr.HasReadSeq {
							t.Errorf("%s %s: read seq said ≥ %d; the server's was %d", where, cid, n, hr.HasReadSeq)
						}
					}
				}
			}
			for cid, o := range got {
				t.Errorf("%s %s: listed (%v); the server's has-read had no such chat", where, cid, o)
			}
		}
	}
	return chats, equal, marked
}
