package main

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestFindLocatesAMessageByItsIDs: a support engineer holding only a
// message ID gets the conversation, seq and bucket slot, by client or by
// server message ID; an ID nobody stored is one error line and exit 1.
func TestFindLocatesAMessageByItsIDs(t *testing.T) {
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
// zone is set here, so the test does not depend on the machine's.
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
