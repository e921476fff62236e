package main

import (
	"context"
	"fmt"
	"go.mongodb.org/mongo-driver/v2/bson"
	"os"
	"strings"
	"testing"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/demo"
	"github.com/chatlens/chatlens/store/embedded"
	"github.com/chatlens/chatlens/store/testkit"
)

// A seq list ending at the top of int64 once looped forever: it is bad
// usage, refused before the store is opened.
func TestSeqPastTheLastBucketIsAUsageError(t *testing.T) {
	t.Parallel()
	s := seeded(t)
	for _, seq := range []string{"9223372036854775807", "9223372036854775000-9223372036854775807"} {
		r := s.chatlens(t, "revoke", "--conversation", demo.ShowcaseSingleID, "--seq", seq, "--by", "alice")
		if r.code != 2 {
			t.Errorf("--seq %s: exit %d, want 2 (%s)", seq, r.code, r.stderr)
		}
		oneErrorLine(t, r.stderr)
	}
}

// The README promises every refusal is in the audit log: a scripted write
// refused by its target check ("no message there", "already revoked")
// leaves a "refused" line naming the seqs and why.
func TestRefusedWritesAreAudited(t *testing.T) {
	t.Parallel()
	s := seeded(t)
	cid := demo.ShowcaseSingleID
	r := s.chatlens(t, "revoke", "--conversation", cid, "--seq", "5000,5001", "--by", "alice")
	if r.code != 1 {
		t.Fatalf("revoke beyond the last message: exit %d, %s", r.code, r.stderr)
	}
	entries := auditEntries(t, s)
	if len(entries) != 1 {
		t.Fatalf("audit log holds %d lines after one refusal, want 1: %+v", len(entries), entries)
	}
	e := entries[0]
	if e.Action != "revoke" || e.Result != "refused" || store.FormatSeqs(e.Seqs) != "5000-5001" || e.As != "alice" ||
		!strings.Contains(e.Error, "beyond the last message") {
		t.Errorf("refusal audited as %+v", e)
	}
}

// auditEntries reads the sandbox's audit log.
func auditEntries(t *testing.T, s sandbox) []store.AuditEntry {
	t.Helper()
	b, err := os.ReadFile(s.audit)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return testkit.AuditEntries(t, b)
}

// A bucket stored at index 10,000,000 beside the first one once made dump
// walk ten million buckets and print a billion rows. Text dump now prints
// the run without buckets as one row; JSON still prints one hole per seq
// of the range asked for, as OpenIM's pull does.
func TestDumpOfAFarBucketPrintsOneRowForTheRunBetween(t *testing.T) {
	t.Parallel()
	s := seeded(t)
	const cid, far = "sg_far", 1_000_000_001
	b := testkit.Open(t, s.data, embedded.Options{NoSync: true})
	st := store.New(b, store.Options{})
	for _, first := range []int64{1, far} {
		msgs := make([]*bucket.MsgData, 10)
		for i := range msgs {
			msgs[i] = &bucket.MsgData{SendID: "alice", GroupID: "far", SessionType: bucket.SessionGroup, ContentType: 101,
				Content: `{"content":"hello"}`, SendTime: 1700000000000 + int64(i), Status: bucket.StatusSent,
				ClientMsgID: fmt.Sprintf("far-%d-%d", first, i), Options: map[string]bool{}, AtUserIDList: []string{}}
		}
		if _, err := st.InsertMessages(t.Context(), cid, first, msgs); err != nil {
			t.Fatal(err)
		}
	}
	_ = st.Close(context.Background())
	// alice's conversation document: without one, OpenIM pulls her nothing.
	s.storeDocs(t, bucket.CollConversation, bson.D{{Key: "owner_user_id", Value: "alice"}, {Key: "conversation_id", Value: cid},
		{Key: "conversation_type", Value: int32(3)}, {Key: "group_id", Value: "far"}})

	out := s.mustRun(t, "dump", "--conversation", cid, "--as", "alice")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	// Bucket 0's holes 11-100 and the buckets never written are one run.
	if len(lines) != 21 || !strings.Contains(out, fmt.Sprintf("· seqs 11–%d: no message", far-1)) {
		t.Errorf("dump printed %d lines; want the 20 messages and one row for seq 11-%d:\n%s", len(lines), far-1, out)
	}
	objs := s.dumpJSON(t, cid, "alice", "--from", "5", "--to", "1205")
	if len(objs) != 1201 || num(objs[0]["seq"]) != 5 || num(objs[1200]["seq"]) != 1205 || num(objs[600]["status"]) != int64(bucket.StatusDeleted) {
		t.Errorf("JSON dump of 5..1205: %d objects; want one per seq, holes past 10", len(objs))
	}
}

// check names a bucket standing far past the others, and a doc_id whose
// seqs would overflow (":92233720368547758" once printed negative seqs).
func TestCheckReportsFarAndOverflowingBuckets(t *testing.T) {
	t.Parallel()
	s := seeded(t)
	b := testkit.Open(t, s.data, embedded.Options{NoSync: true})
	st := store.New(b, store.Options{})
	for _, first := range []int64{1, 1_000_000_001} {
		if _, err := st.InsertMessages(t.Context(), "sg_far", first, []*bucket.MsgData{{SendID: "alice", GroupID: "far",
			SessionType: bucket.SessionGroup, ContentType: 101, Content: `{"content":"hi"}`, SendTime: 1700000000000,
			Status: bucket.StatusSent, Options: map[string]bool{}, AtUserIDList: []string{}}}); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.InsertBucket(t.Context(), bucket.NewDoc("sg_wrap:92233720368547758")); err != nil {
		t.Fatal(err)
	}
	_ = st.Close(context.Background())
	for cid, want := range map[string]string{
		"sg_far":  "bucket 10000000 stands 9999999 buckets past the one before it",
		"sg_wrap": "bucket index 92233720368547758 is past",
	} {
		r := s.chatlens(t, "check", "--conversation", cid)
		if !strings.Contains(r.stdout, want) || strings.Contains(r.stdout, "seq -") {
			t.Errorf("check --conversation %s: exit %d, want %q and no negative seq:\n%s%s", cid, r.code, want, r.stdout, r.stderr)
		}
	}
}

// read, delete and revoke take --stats as dump does: the round trips and
// the time on stderr. Marking a whole single chat read is one request per
// bucket (OpenIM's MarkSingleChatMsgsAsRead), not one per seq: the 123
// seqs of 2 buckets stay within a handful of round trips, the target
// checks' reads included.
func TestWriteStatsShowOneRoundTripPerBucket(t *testing.T) {
	t.Parallel()
	s := seeded(t)
	r := s.chatlens(t, "read", "--conversation", demo.ShowcaseSingleID, "--seq", "1-123", "--by", "alice", "--stats")
	if r.code != 0 {
		t.Fatalf("read --stats: exit %d, %s", r.code, r.stderr)
	}
	var trips int
	var took string
	for _, line := range strings.Split(r.stderr, "\n") {
		if _, err := fmt.Sscanf(line, "chatlens: %d round trips in %s", &trips, &took); err == nil {
			break
		}
	}
	if took == "" {
		t.Fatalf("read --stats printed no round trips and time: %q", r.stderr)
	}
	if trips > 10 {
		t.Errorf("marking 123 seqs (2 buckets) read took %d round trips, want at most 10", trips)
	}
}
