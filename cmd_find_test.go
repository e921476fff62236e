package main

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chatlens/chatlens/projection"
	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/embedded"
	"github.com/chatlens/chatlens/store/testkit"
)

// TestFindLocatesAMessageByItsIDs: a support engineer holding only a
// message ID gets the conversation, seq and bucket slot, by client or by
// server message ID; an ID nobody stored is one error line and exit 1.
func TestFindLocatesAMessageByItsIDs(t *testing.T) {
	t.Parallel()
	s := seeded(t)
	st := s.stored(t)
	slots := slotsOf(t, st, "si_alice_bob", 60)
	seq := int64(20)
	for slots[seq].Slot == nil || slots[seq].Slot.Msg == nil {
		seq++
	}
	msg := slots[seq].Slot.Msg
	want := fmt.Sprintf("si_alice_bob  seq %d  bucket si_alice_bob:0 slot %d\n", seq, seq-1)
	_ = st.Close(t.Context())
	for _, args := range [][]string{{"--client-msg-id", msg.ClientMsgID}, {"--server-msg-id", msg.ServerMsgID}} {
		r := s.chatlens(t, append([]string{"find"}, args...)...)
		if r.code != 0 || r.stdout != want {
			t.Errorf("find %v: exit %d, stdout %q, stderr %q", args, r.code, r.stdout, r.stderr)
		}
		// The embedded store has no such index: the scan says its size first.
		if !strings.Contains(r.stderr, "no index on msgs.msg.") || !strings.Contains(r.stderr, " buckets in ") {
			t.Errorf("find %v without an index should say how much it scans, stderr %q", args, r.stderr)
		}
	}
	r := s.chatlens(t, "find", "--client-msg-id", "no-such-id")
	if r.code != 1 || !strings.Contains(r.stderr, "no stored message has client_msg_id no-such-id") {
		t.Errorf("find of an unknown ID: exit %d, stderr %q", r.code, r.stderr)
	}
	if r := s.chatlens(t, "find"); r.code != 2 {
		t.Errorf("find without an ID: exit %d, want 2 (bad usage)", r.code)
	}
}

// TestCheckSuggestsTheFindIndexes: check names the index find would use
// and how to create it, and creates nothing.
func TestCheckSuggestsTheFindIndexes(t *testing.T) {
	t.Parallel()
	s := seeded(t)
	out := s.mustRun(t, "check")
	for _, f := range []string{"client_msg_id", "server_msg_id"} {
		if !strings.Contains(out, `db.msg.createIndex({"msgs.msg.`+f+`": 1})`) {
			t.Errorf("check does not suggest the %s index:\n%s", f, out)
		}
	}
}

// TestDumpTimesFollowTheZone: dump writes times in the local zone, named on
// each line, and --utc forces UTC (the UI takes the same zone). The local
// zone is set here, so the test does not depend on the machine's; it sets
// time.Local, which every test reads, so it does not run in parallel.
func TestDumpTimesFollowTheZone(t *testing.T) {
	s := seeded(t)
	saved := time.Local
	time.Local = time.FixedZone("JST", 9*3600)
	defer func() { time.Local = saved }()
	local := s.mustRun(t, "dump", "--conversation", "si_alice_bob", "--as", "alice", "--to", "1")
	utc := s.mustRun(t, "dump", "--conversation", "si_alice_bob", "--as", "alice", "--to", "1", "--utc")
	if !strings.Contains(local, " JST ") || !strings.Contains(utc, " UTC ") || local == utc {
		t.Errorf("dump in JST then with --utc:\n%s%s", local, utc)
	}
}

// TestDumpTextCollapsesHoleRuns: seqs 2..300 hold nothing (bucket 0 holes,
// buckets 1 and 2 never written): dump --format text prints them as one
// line, JSON keeps one object per seq.
func TestDumpTextCollapsesHoleRuns(t *testing.T) {
	t.Parallel()
	s := empty(t)
	b := testkit.Open(t, s.data, embedded.Options{NoSync: true})
	st := store.New(b, store.Options{})
	msg := func(seq int64) *bucket.MsgData {
		return &bucket.MsgData{SendID: "x", RecvID: "y", SessionType: bucket.SessionSingle, ContentType: 101,
			Content: fmt.Sprintf(`{"content":"m%d"}`, seq), SendTime: 1700000000000 + seq, Status: bucket.StatusSent}
	}
	for _, seq := range []int64{1, 301} {
		if _, err := st.InsertMessages(t.Context(), "si_x_y", seq, []*bucket.MsgData{msg(seq)}); err != nil {
			t.Fatal(err)
		}
	}
	_ = st.Close(t.Context())
	out := s.mustRun(t, "dump", "--conversation", "si_x_y", "--as", "x", "--utc")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3 || !strings.HasSuffix(lines[1], "· seqs 2–300: no message (299)") {
		t.Errorf("dump text of 1, a 299-seq gap and 301:\n%s", out)
	}
	if n := len(s.dumpJSON(t, "si_x_y", "x")); n != 301 {
		t.Errorf("dump json printed %d objects, want one per seq (301)", n)
	}
}

// TestDumpPrinterTreatsSkippedSeqsAsHoles: seqs a scan never hands over
// (buckets that do not exist) join the run of holes around them, at the
// end too; a lone hole keeps its own line.
func TestDumpPrinterTreatsSkippedSeqsAsHoles(t *testing.T) {
	t.Parallel()
	var buf strings.Builder
	s := &session{process: process{stdout: &buf}, conn: &connection{UTC: true}}
	p := &dumpPrinter{s: s, c: &dumpCmd{Format: "text"}, w: &bucket.Window{}, next: 1}
	msg := func(seq int64) projection.Message {
		return projection.Message{MsgData: bucket.MsgData{Seq: seq, SendID: "x", ContentType: 101, Content: `{"content":"hi"}`, SendTime: 1}}
	}
	for _, m := range []projection.Message{msg(1), {MsgData: bucket.MsgData{Seq: 2}, Hole: true}, msg(3), {MsgData: bucket.MsgData{Seq: 4}, Hole: true}, msg(9000)} {
		if err := p.add(m); err != nil {
			t.Fatal(err)
		}
	}
	if err := p.end(10085); err != nil {
		t.Fatal(err)
	}
	got := buf.String()
	for _, want := range []string{"      2  ", "· seqs 4–8999: no message (8,996)", "· seqs 9001–10085: no message (1,085)"} {
		if !strings.Contains(got, want) {
			t.Errorf("dump lacks %q:\n%s", want, got)
		}
	}
	if strings.Count(got, "\n") != 6 {
		t.Errorf("want 6 lines (1, 2, 3, run, 9000, run):\n%s", got)
	}
}

// TestFindScopedToATicket: --as, --conversation and --since scope the
// scan to a user's conversations, newest buckets first, and the plan line
// says how many buckets at most and that it stops at the first hit; a
// --since that is no date is bad usage.
func TestFindScopedToATicket(t *testing.T) {
	t.Parallel()
	s := seeded(t)
	st := s.stored(t)
	slots := slotsOf(t, st, "si_alice_bob", 60)
	seq := int64(20)
	for slots[seq].Slot == nil || slots[seq].Slot.Msg == nil {
		seq++
	}
	msg := slots[seq].Slot.Msg
	_ = st.Close(t.Context())
	want := fmt.Sprintf("si_alice_bob  seq %d  bucket si_alice_bob:0 slot %d\n", seq, seq-1)
	for _, args := range [][]string{
		{"--as", "alice"},
		{"--conversation", "si_alice_bob"},
		{"--as", "alice", "--since", time.UnixMilli(msg.SendTime).UTC().Format("2006-01-02"), "--utc"},
	} {
		r := s.chatlens(t, append([]string{"find", "--client-msg-id", msg.ClientMsgID}, args...)...)
		if r.code != 0 || r.stdout != want {
			t.Errorf("find %v: exit %d, stdout %q, stderr %q", args, r.code, r.stdout, r.stderr)
		}
		if !strings.Contains(r.stderr, "scanning at most ") || !strings.Contains(r.stderr, "newest first") ||
			!strings.Contains(r.stderr, "stopping at the first hit") {
			t.Errorf("find %v: the plan line does not say the scope: %q", args, r.stderr)
		}
	}
	if r := s.chatlens(t, "find", "--client-msg-id", msg.ClientMsgID, "--since", "last tuesday"); r.code != 2 {
		t.Errorf("find --since \"last tuesday\": exit %d, want 2 (bad usage): %s", r.code, r.stderr)
	}
}

// TestFindAsAUserWhoHasNoneOfItSaysWhereItIs: a message stored in a group
// the user is not a member of (alice, the demo's sg_family) is not found among their conversations; the
// line says where it is stored and why they have none of it, never that no
// stored message has the ID.
func TestFindAsAUserWhoHasNoneOfItSaysWhereItIs(t *testing.T) {
	t.Parallel()
	s := seeded(t)
	st := s.stored(t)
	cid := "sg_family"
	slots := slotsOf(t, st, cid, 60)
	seq := int64(1)
	for ; slots[seq].Slot == nil || slots[seq].Slot.Msg == nil; seq++ {
		if seq == 60 {
			t.Fatalf("no message in %s seq 1-60", cid)
		}
	}
	id := slots[seq].Slot.Msg.ClientMsgID
	ws, err := st.Windows(t.Context(), "alice", []string{cid}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !ws[cid].PulledNothing() {
		t.Fatalf("alice has a conversation document for %s: the case needs one she has not", cid)
	}
	_ = st.Close(t.Context())
	r := s.chatlens(t, "find", "--client-msg-id", id, "--as", "alice")
	where := fmt.Sprintf("is stored in %s seq %d (bucket %s:0 slot %d)", cid, seq, cid, seq-1)
	if r.code != 1 || strings.Contains(r.stderr, "no stored message") || !strings.Contains(r.stderr, where) ||
		!strings.Contains(r.stderr, "alice has none of it: alice owns no conversation document for it") {
		t.Errorf("find --as alice of a %s message: exit %d, stderr %q; want 1, where it is and why alice has none of it", cid, r.code, r.stderr)
	}
	if r := s.chatlens(t, "find", "--client-msg-id", "no-such-id", "--as", "alice"); r.code != 1 ||
		!strings.Contains(r.stderr, "no stored message has client_msg_id no-such-id") {
		t.Errorf("find --as alice of an unknown ID: exit %d, stderr %q", r.code, r.stderr)
	}
}
