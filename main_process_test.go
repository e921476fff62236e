package main

import (
	"bytes"
	"context"
	"fmt"
	"go.mongodb.org/mongo-driver/v2/bson"
	"os"
	"os/exec"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/embedded"
	"github.com/chatlens/chatlens/store/testkit"
)

// Process tests: a real chatlens process, signalled part way through a
// batch write, and the store and audit log it leaves behind.

// batchCid is a chat of batchMsgs plain messages, all alice's, no holes: a
// batch over it passes every target check.
const batchCid = "si_alice_olga"

// withLongChat adds batchCid with n messages to a seeded sandbox.
func withLongChat(t *testing.T, n int) sandbox {
	t.Helper()
	s := seeded(t)
	b := testkit.Open(t, s.data, embedded.Options{NoSync: true})
	st := store.New(b, store.Options{})
	msgs := make([]*bucket.MsgData, n)
	for i := range msgs {
		msgs[i] = &bucket.MsgData{SendID: "alice", RecvID: "olga", ClientMsgID: fmt.Sprintf("batch-%d", i+1),
			SessionType: bucket.SessionSingle, ContentType: 101, Content: fmt.Sprintf(`{"content":"m%d"}`, i+1),
			SendTime: 1700000000000 + int64(i), Status: bucket.StatusSent, Options: map[string]bool{}, AtUserIDList: []string{}}
	}
	if _, err := st.InsertMessages(t.Context(), batchCid, 1, msgs); err != nil {
		t.Fatal(err)
	}
	if err := st.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	return s
}

// startWrite starts a chatlens write as a process and returns once its
// intent line is in the audit log: the batch has begun.
func startWrite(t *testing.T, s sandbox, args ...string) (*exec.Cmd, *bytes.Buffer) {
	t.Helper()
	full := append([]string{args[0], "--data", s.data, "--audit-log", s.audit}, args[1:]...)
	cmd := exec.Command(chatlensBinary(t), full...)
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stderr, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	for {
		for _, e := range auditEntries(t, s) {
			if e.Result == store.ResultIntent {
				return cmd, &stderr
			}
			if e.Result != "" {
				t.Fatalf("the write logged %q before any intent line: %+v", e.Result, e)
			}
		}
		time.Sleep(time.Millisecond)
	}
}

// countSlots counts the slots of batchCid for which pred holds.
func countSlots(t *testing.T, s sandbox, n int, pred func(bucket.StoredSlot) bool) []int64 {
	t.Helper()
	st := s.stored(t)
	var out []int64
	for seq, slot := range slotsOf(t, st, batchCid, int64(n)) {
		if !slot.IsHole() && pred(slot) {
			out = append(out, seq)
		}
	}
	return out
}

// SIGKILL part way through a revoke of 2,000 seqs: whatever landed is
// covered by the intent line written before the batch.
func TestKilledBatchLeavesItsIntentInTheAuditLog(t *testing.T) {
	t.Parallel()
	const n = 2000
	s := withLongChat(t, n)
	cmd, _ := startWrite(t, s, "revoke", "--conversation", batchCid, "--seq", "1-2000", "--by", "alice")
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	revoked := countSlots(t, s, n, func(sl bucket.StoredSlot) bool { return sl.Slot.Revoke != nil })
	entries := auditEntries(t, s)
	if len(entries) == 0 || entries[0].Result != store.ResultIntent || store.FormatSeqs(entries[0].Seqs) != "1-2000" ||
		entries[0].Action != "revoke" || entries[0].Conversation != batchCid {
		t.Fatalf("audit log after the kill: %+v; want an intent line for revoke of 1-2000", entries)
	}
	t.Logf("killed with %d of %d seqs revoked; audit: %d lines", len(revoked), n, len(entries))
}

// SIGINT part way through a delete of 20,000 seqs: the process stops early,
// says on one line what it did, and the audit log agrees with the store.
func TestInterruptedBatchStopsAndSaysWhatWasDone(t *testing.T) {
	t.Parallel()
	const n = 20000
	s := withLongChat(t, n)
	cmd, out := startWrite(t, s, "delete", "--conversation", batchCid, "--seq", "1-20000", "--by", "olga")
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	code := cmd.ProcessState.ExitCode()
	deleted := countSlots(t, s, n, func(sl bucket.StoredSlot) bool { return len(sl.Slot.DelList) > 0 })
	if code != 1 || len(deleted) == n {
		t.Fatalf("exit %d (%v) with %d of %d seqs deleted: the interrupt did not stop the batch; output %q", code, err, len(deleted), n, out)
	}
	done := store.FormatSeqs(sortedSeqs(deleted))
	if strings.Count(out.String(), "\n") != 1 || !strings.Contains(out.String(), "interrupted") ||
		(len(deleted) > 0 && !strings.Contains(out.String(), "done for seq "+done+" only")) {
		t.Errorf("output %q; want one line saying it was interrupted after seq %s", out, done)
	}
	entries := auditEntries(t, s)
	last := entries[len(entries)-1]
	if len(entries) != 2 || store.FormatSeqs(last.Applied) != done || last.Result == store.ResultOK {
		t.Errorf("audit log %+v; want the intent, then the outcome with applied %s", entries, done)
	}
	t.Logf("interrupted after %d of %d seqs: %s", len(deleted), n, strings.TrimSpace(out.String()))
}

func sortedSeqs(seqs []int64) []int64 {
	out := slices.Clone(seqs)
	slices.Sort(out)
	return out
}

// SIGINT part way through a mark read of 20,000 seqs: the read seq is raised
// to the highest seq marked, and the one line says so, so the unread count
// follows what was done (it stayed at 0: the read seq was raised at the end).
func TestInterruptedMarkReadRaisesTheReadSeq(t *testing.T) {
	t.Parallel()
	const n = 20000
	s := withLongChat(t, n)
	// olga's conversation document: OpenIM refuses a mark read without one.
	s.storeDocs(t, bucket.CollConversation, bson.D{{Key: "owner_user_id", Value: "olga"}, {Key: "conversation_id", Value: batchCid},
		{Key: "conversation_type", Value: int32(1)}, {Key: "user_id", Value: "alice"}})
	cmd, out := startWrite(t, s, "read", "--conversation", batchCid, "--seq", "1-20000", "--by", "olga")
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	read := sortedSeqs(countSlots(t, s, n, func(sl bucket.StoredSlot) bool { return sl.Slot.IsRead }))
	if cmd.ProcessState.ExitCode() != 1 || len(read) == n {
		t.Fatalf("exit %d with %d of %d seqs read: the interrupt did not stop the batch; output %q", cmd.ProcessState.ExitCode(), len(read), n, out)
	}
	ws, err := s.stored(t).Windows(t.Context(), "olga", []string{batchCid}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := int64(0)
	if len(read) > 0 {
		want = read[len(read)-1]
	}
	if ws[batchCid].ReadSeq != want {
		t.Errorf("read seq %d after marking seq %s; want %d", ws[batchCid].ReadSeq, store.FormatSeqs(read), want)
	}
	if len(read) > 0 && !strings.Contains(out.String(), fmt.Sprintf("read seq raised to %d", want)) {
		t.Errorf("output %q; want it to say the read seq was raised to %d", out, want)
	}
	t.Logf("interrupted after %d of %d seqs: %s", len(read), n, strings.TrimSpace(out.String()))
}

// A write whose store file is cut short under it (a backup copied over it
// part way through a delete of 20,000 seqs) said "the store is damaged" on
// stderr and left nothing in the audit log after its intent: bbolt's fault
// escaped the write. It fails as a write does, and the audit log says so.
func TestWriteThatMeetsADamagedStoreIsAudited(t *testing.T) {
	t.Parallel()
	const n = 20000
	s := withLongChat(t, n)
	cmd, out := startWrite(t, s, "delete", "--conversation", batchCid, "--seq", "1-20000", "--by", "olga")
	fi, err := os.Stat(s.data)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(s.data, fi.Size()/2); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	if code := cmd.ProcessState.ExitCode(); code != 1 || !strings.Contains(out.String(), "the store is damaged: cut short") {
		t.Fatalf("exit %d, output %.1000q; want 1 and the store damaged, cut short", code, out)
	}
	oneErrorLine(t, out.String())
	entries := auditEntries(t, s)
	if len(entries) != 2 || entries[0].Result != store.ResultIntent || entries[1].Result == store.ResultOK ||
		!strings.Contains(entries[1].Error, "the store is damaged") {
		t.Errorf("audit log %+v; want the intent, then the write failed on the damaged store", entries)
	}
	t.Logf("%s", strings.TrimSpace(out.String()))
}
