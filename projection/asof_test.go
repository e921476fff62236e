package projection

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/chatlens/chatlens/store/bucket"
)

// The moments of these tests: messages are sent at 1700000000000+seq.
const (
	sentAt    = 1700000000000
	beforeAll = sentAt - 1
	later     = sentAt + 1000
	evenLater = sentAt + 2000
)

func asOfBob(at int64, ev ...bucket.Evidence) AsOf {
	return AsOf{At: at, Viewer: "bob", Conv: Conv{ID: single, SessionType: bucket.SessionSingle},
		H: bucket.History{Viewer: "bob", Cid: single, Owned: true, Created: sentAt, Evidence: ev}}
}

// pullOf is the rows PullAt gives of slots, handed in order.
func pullOf(a AsOf, w bucket.Window, slots ...bucket.StoredSlot) []AsOfRow {
	p := &PullAt{AsOf: a, Window: w}
	var out []AsOfRow
	for _, st := range slots {
		rows, done := p.Add(st, func(then bucket.StoredSlot) Message { return View(then, "", a.Viewer, a.Conv, nil) })
		out = append(out, rows...)
		if done {
			break
		}
	}
	return out
}

// A delete for me told by its 2102 (sent with IsSyncSelf: delete.go
// DeleteMsgs sends MsgDeleteNotification to the user's own n_<u>_<u>) is
// undone before the 2102's time; one with no 2102 (IsSyncSelf false, or a
// storage-level write) keeps its state now and says its time is unknown.
func TestAsOfDeleteForMeIsDatedOnlyByIts2102(t *testing.T) {
	st := stored(3, message(3, Text, `{"content":"hi"}`), deletedBy("bob"))
	told := bucket.Evidence{Kind: bucket.EvidenceDelete, At: later, User: "bob", Seqs: []int64{3}, Source: "2102 in n_bob_bob seq 1"}

	then, sent, unknown := asOfBob(later-1, told).Slot(st)
	if m := View(then, "", "bob", Conv{ID: single}, nil); !sent || m.DeletedForViewer || unknown != nil {
		t.Errorf("before its 2102: deleted %v, unknown %v; want shown as sent, known", m.DeletedForViewer, unknown)
	}
	then, _, unknown = asOfBob(later, told).Slot(st)
	if m := View(then, "", "bob", Conv{ID: single}, nil); !m.DeletedForViewer || unknown != nil {
		t.Errorf("at its 2102: deleted %v, unknown %v; want deleted, known", m.DeletedForViewer, unknown)
	}
	// Another user's 2102 of the same seq dates nothing of bob's.
	alices := told
	alices.User = "alice"
	rows := pullOf(asOfBob(later-1, alices), bucket.Window{Cid: single, MinSeq: 1, MaxSeq: 3},
		stored(1, message(1, Text, `{"content":"a"}`)), stored(2, message(2, Text, `{"content":"b"}`)), st)
	if len(rows) != 3 || !rows[2].DeletedForViewer || len(rows[2].Unknown) != 1 || !strings.Contains(rows[2].Unknown[0], "no 2102") {
		t.Fatalf("a delete without IsSyncSelf: %+v; want seq 3 deleted as stored now, marked unknown for want of a 2102", rows)
	}
	if unknownRows(rows) != 1 {
		t.Errorf("%d rows marked unknown, want 1", unknownRows(rows))
	}
}

// A clear leaves the messages in the buckets and sets the clearer's
// seq_user.min_seq to the max seq then plus one (open-im-server
// internal/rpc/msg/delete.go:132-142, clearConversation), with no
// notification stored: nothing dates it, but the sends around it bound
// it. It came after the seq before the window's start was sent and before
// the start's own was: before the one, the pull gave the seqs before the
// start as they were; after the other, none of them; in between, each is
// shown marked. An invitee's later start, set when they got the
// conversation (after the seq before it was sent), is known.
func TestAsOfAClearIsBoundedByTheSendsAroundIt(t *testing.T) {
	w := bucket.Window{Cid: group, MinSeq: 3, MaxSeq: 4, UserMinSeq: 3}
	var slots []bucket.StoredSlot
	for seq := int64(1); seq <= 4; seq++ {
		slots = append(slots, stored(seq, groupMessage(seq, Text, `{"content":"m"}`)))
	}
	cleared := AsOf{Viewer: "bob", Conv: Conv{ID: group, SessionType: bucket.SessionGroup},
		H: bucket.History{Owned: true, Created: beforeAll}}
	at := func(a AsOf, ms int64) AsOf { a.At = ms; return a }
	if from := (&PullAt{Window: w}).ScanFrom(); from != 1 {
		t.Errorf("ScanFrom %d; want 1: the seqs before a clear are read too", from)
	}
	if rows := pullOf(at(cleared, sentAt+1), w, slots...); len(rows) != 1 || rows[0].Seq != 1 || unknownRows(rows) != 0 {
		t.Errorf("before seq 2 was sent (so before the clear): %+v; want seq 1 as pulled, known", rows)
	}
	rows := pullOf(at(cleared, sentAt+2), w, slots...)
	if len(rows) != 2 || unknownRows(rows) != 2 || !strings.Contains(rows[0].Unknown[0], "cleared at a time nothing stored gives") ||
		!strings.Contains(rows[1].Unknown[0], "after seq 2 was sent and before seq 3 was") {
		t.Fatalf("after seq 2 was sent, before seq 3 was: %+v; want seqs 1-2, each marked: the clear may have come", rows)
	}
	if rows := pullOf(at(cleared, later), w, slots...); len(rows) != 2 || rows[0].Seq != 3 || unknownRows(rows) != 0 {
		t.Errorf("after seq 3 was sent (so after the clear): %+v; want seqs 3-4, known", rows)
	}
	invited := cleared
	invited.H.Created = sentAt + 2 // got it after seq 2 was sent
	if rows := pullOf(at(invited, later), w, slots...); len(rows) != 2 || unknownRows(rows) != 0 {
		t.Errorf("an invitee's start: %+v; want seqs 3-4, none unknown", rows)
	}
	if rows := pullOf(at(invited, sentAt+2), w, slots...); len(rows) != 0 {
		t.Errorf("an invitee, before seq 3: %+v; want nothing: they got it after seq 2", rows)
	}
	// A start set by seq.min_seq (for everyone: cleared, or expired) is
	// not the viewer's: its seqs before are not read, and its first row
	// says its start is undated.
	all := bucket.Window{Cid: group, MinSeq: 3, MaxSeq: 4, SeqMinSeq: 3}
	if rows := pullOf(at(cleared, later), all, slots[1:]...); len(rows) != 2 || len(rows[0].Unknown) != 1 || !strings.Contains(rows[0].Unknown[0], "seq.min_seq = 3") {
		t.Errorf("a start for everyone: %+v; want seqs 3-4, the first marked", rows)
	}
}

// A clear came after the seq before the start was sent even when that
// seq was physically deleted since, its send time with it (the recorded
// run: t2u3 cleared si_t2u1_t2u3 at max seq 14, then seq 14 was deleted
// for everyone): the messages before it bound the clear, and with no
// seq after the start the clear is never known to have come.
func TestAsOfAClearAfterAnErasedSeqIsBoundedByTheMessagesBeforeIt(t *testing.T) {
	w := bucket.Window{Cid: single, MinSeq: 4, MaxSeq: 3, UserMinSeq: 4, ReadSeq: 3}
	slots := []bucket.StoredSlot{
		stored(1, message(1, Text, `{"content":"a"}`)),
		stored(2, message(2, Text, `{"content":"b"}`)),
		{Seq: 3, Slot: &bucket.Slot{}, Erased: true},
	}
	erase := bucket.Evidence{Kind: bucket.EvidenceErase, At: later, User: "bob", Seqs: []int64{3}, Source: "2102 in n_alice_bob seq 1"}
	flushed := func(at int64) []AsOfRow {
		a := asOfBob(at, erase)
		p := &PullAt{AsOf: a, Window: w}
		var rows []AsOfRow
		for _, st := range slots {
			got, _ := p.Add(st, func(then bucket.StoredSlot) Message { return View(then, "", "bob", a.Conv, nil) })
			rows = append(rows, got...)
		}
		return append(rows, p.Flush()...)
	}
	if rows := flushed(sentAt + 1); len(rows) != 1 || unknownRows(rows) != 0 {
		t.Errorf("before seq 2 was sent: %+v; want seq 1, known", rows)
	}
	rows := flushed(sentAt + 2)
	if len(rows) != 3 || unknownRows(rows) != 3 || !strings.Contains(rows[2].Unknown[0], "whether seq 3 was sent by then is unknown") {
		t.Errorf("after seq 2 was sent: %+v; want seqs 1-3 marked, seq 3 maybe not sent yet", rows)
	}
	if rows := flushed(evenLater); len(rows) != 3 || unknownRows(rows) != 3 || !rows[2].Hole {
		t.Errorf("after the 2102: %+v; want seqs 1-3 marked (the clear's time is not known), seq 3 a stand-in", rows)
	}
}

// A group's read state is its read seq (a pull carries no flag there).
// mark_conversation_as_read and set_conversation_has_read_seq in a group
// left no notification on the recorded server, so a read seq above every
// own send and dated read mark is known then only as a bound.
func TestAsOfGroupMarkedReadIsABound(t *testing.T) {
	bobs := groupMessage(2, Text, `{"content":"mine"}`)
	bobs.SendID = "bob"
	tally := &ListTally{AsOf: AsOf{At: later, Viewer: "bob",
		H: bucket.History{Owned: true, Created: beforeAll, Evidence: []bucket.Evidence{
			{Kind: bucket.EvidenceRead, At: sentAt + 4, User: "bob", Seqs: []int64{3}, ReadSeq: 3},
			{Kind: bucket.EvidenceRead, At: evenLater, User: "bob", Seqs: []int64{4}, ReadSeq: 4},
		}}}}
	for seq := int64(1); seq <= 5; seq++ {
		m := groupMessage(seq, Text, `{"content":"x"}`)
		if seq == 2 {
			m = bobs
		}
		tally.Add(stored(seq, m))
	}
	dated := tally.Listed(bucket.Window{Cid: group, MinSeq: 1, MaxSeq: 5, ReadSeq: 4})
	if dated.MaxSeq != 5 || dated.ReadSeq != 3 || dated.ReadAtLeast || dated.Unread() != 2 || dated.Unknown != nil {
		t.Errorf("read marks dated by their 2200s: %+v; want max 5, read 3 (the mark after the moment undone), unread 2", dated)
	}
	marked := tally.Listed(bucket.Window{Cid: group, MinSeq: 1, MaxSeq: 5, ReadSeq: 5})
	if !marked.ReadAtLeast || marked.ReadSeq != 3 || marked.ReadWords() != "≥ 3" || len(marked.Unknown) != 1 ||
		!strings.Contains(marked.Unknown[0], "read seq ≥ 3 then") {
		t.Errorf("a group marked read with no notification: %+v; want read seq ≥ 3, marked unknown", marked)
	}
	before := &ListTally{AsOf: AsOf{At: beforeAll, Viewer: "bob", H: bucket.History{Owned: true, Created: beforeAll}}}
	before.Add(stored(1, groupMessage(1, Text, `{"content":"x"}`)))
	if l := before.Listed(bucket.Window{MaxSeq: 1}); l.MaxSeq != 0 || l.Latest != 0 {
		t.Errorf("before any message: %+v; want max seq 0", l)
	}
}

// A revoke is undone before its record's time; a single chat's read flag
// before its 2200, and kept (marked unknown) with none; a message sent
// after the moment, and a hole after the last one sent by then, are not
// in the pull.
func TestAsOfRevokeReadAndTheEndOfThePull(t *testing.T) {
	bobs := message(1, Text, `{"content":"to alice"}`)
	bobs.SendID, bobs.RecvID = "bob", "alice"
	slots := []bucket.StoredSlot{
		stored(1, bobs, read),
		stored(2, message(2, Text, `{"content":"revoked later"}`), revokedBy("alice", "Alice", 0, later)),
		stored(3, message(3, Text, `{"content":"read"}`), read),
		{Seq: 4},
		stored(5, message(5, Text, `{"content":"sent later"}`)),
	}
	slots[4].Slot.Msg.SendTime = evenLater
	readMark := bucket.Evidence{Kind: bucket.EvidenceRead, At: later, User: "bob", Seqs: []int64{1, 3}, ReadSeq: 3}
	w := bucket.Window{Cid: single, MinSeq: 1, MaxSeq: 5}
	rows := pullOf(asOfBob(later-1, readMark), w, slots...)
	if len(rows) != 3 {
		t.Fatalf("pull before the revoke: %d rows (%+v); want seqs 1-3: the hole at 4 is past the last message sent then", len(rows), rows)
	}
	if rows[1].Revoked || rows[1].ContentType != Text || rows[2].IsRead || unknownRows(rows) != 1 || !strings.Contains(rows[0].Unknown[0], "no 2200") {
		t.Errorf("before the revoke and the 2200: %+v; want seq 2 as sent, seq 3 unread, seq 1 (bob's own, read by no dated mark of alice's) unknown", rows)
	}
	rows = pullOf(asOfBob(evenLater, readMark), w, slots...)
	if len(rows) != 5 || !rows[1].Revoked || !rows[2].IsRead || !rows[3].Hole {
		t.Errorf("after all: %+v; want every seq, seq 2 revoked, seq 3 read", rows)
	}
}

// unknownRows counts the rows marked unknown.
func unknownRows(rows []AsOfRow) int {
	n := 0
	for _, r := range rows {
		if len(r.Unknown) > 0 {
			n++
		}
	}
	return n
}

// A physically deleted slot's content is gone for good: at any moment it
// is a hole, marked so.
func TestAsOfPhysicallyDeletedSaysItsContentIsGone(t *testing.T) {
	erased := bucket.StoredSlot{Seq: 2, Slot: &bucket.Slot{}, Erased: true}
	rows := pullOf(asOfBob(later), bucket.Window{Cid: single, MinSeq: 1, MaxSeq: 3},
		stored(1, message(1, Text, `{"content":"a"}`)), erased, stored(3, message(3, Text, `{"content":"c"}`)))
	if len(rows) != 3 || !rows[1].Hole || len(rows[1].Unknown) != 1 || !strings.Contains(rows[1].Unknown[0], "cannot be recovered") {
		t.Errorf("an erased slot: %+v; want a hole marked: its content cannot be recovered", rows)
	}
}

// A single chat has no late joiner, and OpenIM writes its conversation
// documents after its first messages (a timed run on the real server:
// create_time 37 ms after seq 6 was sent), so a window cleared later (no
// 1703 is stored for a clear: pkg/notification/msg.go has no entry for
// ClearConversationNotification) is bounded by the sends around it only,
// whatever create_time says; and where the moment's pull held no row,
// what is not known is still said (StartUnsaid).
func TestAsOfASingleChatsCreateTimeDatesNoStart(t *testing.T) {
	w := bucket.Window{Cid: single, MinSeq: 3, MaxSeq: 4, UserMinSeq: 3}
	var slots []bucket.StoredSlot
	for seq := int64(2); seq <= 4; seq++ {
		slots = append(slots, stored(seq, message(seq, Text, `{"content":"x"}`)))
	}
	early := asOfBob(sentAt + 2) // seq 2 sent, seq 3 not yet
	early.H.Created = sentAt + 3 // written after seq 2 was sent
	rows := pullOf(early, w, slots...)
	if len(rows) != 1 || rows[0].Seq != 2 || len(rows[0].Unknown) != 1 || !strings.Contains(rows[0].Unknown[0], "starts at seq 3 now") {
		t.Fatalf("a single chat cleared later, before seq 3: %+v; want seq 2 marked: the clear may have come", rows)
	}
	p := &PullAt{AsOf: early, Window: w}
	if why := p.StartUnsaid(); len(why) != 1 || !strings.Contains(why[0], "seqs before it may have been pulled then") {
		t.Errorf("nothing read: unsaid %q; want the undated start said", why)
	}
	holes := []bucket.StoredSlot{{Seq: 1}, {Seq: 2}, slots[1], slots[2]}
	for _, st := range holes {
		if rows, _ := p.Add(st, func(then bucket.StoredSlot) Message { return View(then, "", "bob", early.Conv, nil) }); len(rows) > 0 {
			t.Fatalf("no message before the start, before seq 3 was sent: rows %+v; want none", rows)
		}
	}
	if rows := p.Flush(); len(rows) > 0 {
		t.Fatalf("flushed %+v; want none", rows)
	}
	if why := p.StartUnsaid(); len(why) != 1 || !strings.Contains(why[0], "cleared at a time nothing stored gives") {
		t.Errorf("no row pulled then: unsaid %q; want the undated clear said", why)
	}
	known := asOfBob(later)
	if why := (&PullAt{AsOf: known, Window: bucket.Window{Cid: single, MinSeq: 1, MaxSeq: 4}}).StartUnsaid(); why != nil {
		t.Errorf("a window never cleared: unsaid %q; want nothing", why)
	}
}

// A clear sets the clearer's seq_user.min_seq (and conversation.min_seq)
// to the max seq then plus one and their read seq to that max seq
// (open-im-server internal/rpc/msg/delete.go:132-142 and :157,
// clearConversation), and OpenIM stores no notification of it
// (pkg/notification/msg.go:35-81 has no ClearConversationNotification, so
// it goes out without IsHistory; the recorded run's clear of sg_g1 by u5
// left no 1703). After the seq before the window's start was sent, the
// clear may have come: the read seq then is a bound, said so, until an
// own send or a dated mark passes it; before, the clear had not come.
func TestAsOfAnUndatedClearMakesTheReadSeqABound(t *testing.T) {
	var slots []bucket.StoredSlot
	for seq := int64(1); seq <= 6; seq++ {
		m := message(seq, Text, `{"content":"x"}`)
		if seq == 2 || seq == 6 {
			m.SendID, m.RecvID = "bob", "alice"
		}
		slots = append(slots, stored(seq, m))
	}
	// bob cleared after seq 4 was sent: the window starts at 5, his read
	// seq went to 4, then his own send at 6 raised it to 6.
	w := bucket.Window{Cid: single, MinSeq: 5, MaxSeq: 6, UserMinSeq: 5, ReadSeq: 6}
	listed := func(at int64) ListedAt {
		tally := &ListTally{AsOf: asOfBob(at), Before: w.MinSeq - 1}
		for _, st := range slots {
			tally.Add(st)
		}
		return tally.Listed(w)
	}
	l := listed(sentAt + 4)
	if !l.ReadAtLeast || l.ReadWords() != "≥ 2" || len(l.ReadWhy) != 1 || !strings.Contains(l.ReadWhy[0], "cleared at a time nothing stored gives") ||
		!slices.Equal(l.ReadWhy, l.Unknown) {
		t.Errorf("after seq 4 was sent: %+v; want read seq ≥ 2 (bob's own send), marked: the clear may have raised it to 4", l)
	}
	if l := listed(sentAt + 3); l.ReadAtLeast || l.ReadSeq != 2 || l.Unknown != nil {
		t.Errorf("before seq 4 was sent (so before the clear): %+v; want read seq 2, known", l)
	}
	if l := listed(later); l.ReadAtLeast || l.ReadSeq != 6 || l.Unknown != nil {
		t.Errorf("after bob's send at seq 6: %+v; want read seq 6, known", l)
	}
	a := asOfBob(sentAt + 4)
	then := thenOf(asOfBob(sentAt+5), w, slots...)
	if !then.ReadAtLeast || then.ReadWords() != "≥ 2" || len(then.ReadWhy) != 1 || !strings.Contains(then.ReadWhy[0], "cleared at a time") {
		t.Errorf("the UI's window then: read seq %s (why %q); want ≥ 2 with why", then.ReadWords(), then.ReadWhy)
	}
	if why := (&PullAt{AsOf: a, Window: w}).StartUnsaid(); len(why) != 1 || !strings.Contains(why[0], "cleared at a time nothing stored gives (OpenIM stores no notification of a clear)") ||
		strings.Contains(why[0], "IsSyncSelf") {
		t.Errorf("the start's unknown: %q; want it said that OpenIM stores no notification of a clear", why)
	}
}

// A user's own send raises their read seq (open-im-server
// pkg/common/storage/controller/msg_transfer.go:221, userSeqMap[m.SendID]
// = m.Seq); a physical delete (delete.go:73 and :99,
// DeleteMsgsPhysicalBySeqs) leaves {msg: null}, its sender gone. So a seq
// physically deleted above the read seq the evidence gives, and sent by
// the moment, makes that read seq a bound.
func TestAsOfAPhysicallyDeletedSeqMakesTheReadSeqABound(t *testing.T) {
	bobs := message(2, Text, `{"content":"mine"}`)
	bobs.SendID, bobs.RecvID = "bob", "alice"
	slots := []bucket.StoredSlot{
		stored(1, message(1, Text, `{"content":"a"}`)),
		stored(2, bobs),
		stored(3, message(3, Text, `{"content":"c"}`)),
		{Seq: 4, Slot: &bucket.Slot{}, Erased: true}, // bob's own, once
		stored(5, message(5, Text, `{"content":"e"}`)),
	}
	w := bucket.Window{Cid: single, MinSeq: 1, MaxSeq: 5, ReadSeq: 4}
	listed := func(at int64) ListedAt {
		tally := &ListTally{AsOf: asOfBob(at)}
		for _, st := range slots {
			tally.Add(st)
		}
		return tally.Listed(w)
	}
	if l := listed(sentAt + 5); !l.ReadAtLeast || l.ReadWords() != "≥ 2" || len(l.ReadWhy) != 1 ||
		!strings.Contains(l.ReadWhy[0], "seq 4 was physically deleted: an own send there would have raised the read seq") {
		t.Errorf("after seq 5 was sent: %+v; want read seq ≥ 2, marked: seq 4 may have been bob's", l)
	}
	if l := listed(sentAt + 2); l.ReadAtLeast || l.ReadSeq != 2 || l.Unknown != nil {
		t.Errorf("before seq 4 could have been sent: %+v; want read seq 2, known", l)
	}
	if then := thenOf(asOfBob(sentAt+5), w, slots...); !then.ReadAtLeast || len(then.ReadWhy) != 1 {
		t.Errorf("the UI's window then: read seq %s (why %q); want ≥ 2 with why", then.ReadWords(), then.ReadWhy)
	}
}

// A delete for everyone (delete.go:72-82, DeleteMsgs with IsSyncOther)
// erases the slot and stores a 2102 naming its seqs in the chat's
// notification conversation (pkg/notification/msg.go:79: reliable, so
// kept; the recorded run's u1 IsSyncOther delete of si_u1_u2 seq 5 is
// n_u1_u2 seq 3). Its send time dates the erase: before it the pull gave
// the message as sent (its content now lost), after it a hole, known.
func TestAsOfAPhysicalDeleteIsDatedByIts2102(t *testing.T) {
	erased := bucket.StoredSlot{Seq: 2, Slot: &bucket.Slot{}, Erased: true}
	slots := []bucket.StoredSlot{stored(1, message(1, Text, `{"content":"a"}`)), erased, stored(3, message(3, Text, `{"content":"c"}`))}
	w := bucket.Window{Cid: single, MinSeq: 1, MaxSeq: 3}
	told := bucket.Evidence{Kind: bucket.EvidenceErase, At: later, User: "alice", Seqs: []int64{2}, Source: "2102 in n_alice_bob seq 1"}
	rows := pullOf(asOfBob(later-1, told), w, slots...)
	if len(rows) != 3 || !rows[1].Hole || len(rows[1].Unknown) != 1 || !strings.Contains(rows[1].Unknown[0], "physically deleted at") ||
		!strings.Contains(rows[1].Unknown[0], "pulled then as sent") || strings.Contains(rows[1].Unknown[0], "nor when") {
		t.Errorf("before its 2102: %+v; want seq 2 marked: there then, its content lost", rows)
	}
	if rows := pullOf(asOfBob(later, told), w, slots...); len(rows) != 3 || !rows[1].Hole || unknownRows(rows) != 0 {
		t.Errorf("at its 2102: %+v; want seq 2 a hole, known", rows)
	}
	if rows := pullOf(asOfBob(later), w, slots...); len(rows) != 3 || len(rows[1].Unknown) != 1 || !strings.Contains(rows[1].Unknown[0], "nor when it went") {
		t.Errorf("no 2102: %+v; want seq 2 marked: nor when it went", rows)
	}
}

// A delete for everyone (delete.go:72-82, DeleteMsgs with IsSyncOther)
// of the last message takes its send time with it; its 2102 says when it
// went, so it was sent by then. At a moment after the 2102 the pull gave
// its stand-in (known); between the last message before it and the 2102,
// whether it was sent yet is unknown: shown, marked; before that message,
// not pulled. The list's max seq says the same.
func TestAsOfATrailingPhysicalDeleteIsPulledByIts2102(t *testing.T) {
	slots := []bucket.StoredSlot{stored(1, message(1, Text, `{"content":"a"}`)), {Seq: 2, Slot: &bucket.Slot{}, Erased: true}}
	w := bucket.Window{Cid: single, MinSeq: 1, MaxSeq: 2}
	told := bucket.Evidence{Kind: bucket.EvidenceErase, At: later, User: "alice", Seqs: []int64{2}, Source: "2102 in n_alice_bob seq 1"}
	pulled := func(at int64) ([]AsOfRow, ListedAt, Then) {
		a := asOfBob(at, told)
		p := &PullAt{AsOf: a, Window: w}
		l := &ListTally{AsOf: a}
		var rows []AsOfRow
		for _, st := range slots {
			got, _ := p.Add(st, func(then bucket.StoredSlot) Message { return View(then, "", "bob", a.Conv, nil) })
			rows = append(rows, got...)
			l.Add(st)
		}
		return append(rows, p.Flush()...), l.Listed(w), thenOf(a, w, slots...)
	}
	rows, l, then := pulled(later)
	if len(rows) != 2 || !rows[1].Hole || unknownRows(rows) != 0 || l.MaxSeq != 2 || l.Unknown != nil || then.Window.MaxSeq != 2 {
		t.Errorf("at its 2102: %+v, list %+v, UI window to %d; want seq 2 a stand-in, known, max seq 2", rows, l, then.Window.MaxSeq)
	}
	rows, l, then = pulled(sentAt + 1)
	if len(rows) != 2 || len(rows[1].Unknown) != 2 || !strings.Contains(rows[1].Unknown[0], "whether seq 2 was sent by then is unknown") ||
		!strings.Contains(rows[1].Unknown[1], "pulled then as sent") {
		t.Errorf("after seq 1, before the 2102: %+v; want seq 2 shown, marked: maybe not sent yet, and its content lost", rows)
	}
	if l.MaxSeq != 1 || len(l.Unknown) != 1 || !strings.Contains(l.Unknown[0], "max seq 1 then, or up to 2") {
		t.Errorf("the list then: %+v; want max seq 1, marked: or 2", l)
	}
	if _, unknown := then.View(slots[1], "", nil); then.Window.MaxSeq != 2 || !reflect.DeepEqual(unknown, rows[1].Unknown) {
		t.Errorf("the UI then: window to %d, seq 2 unknown %q; want the pull's row and marks", then.Window.MaxSeq, unknown)
	}
	if rows, l, _ := pulled(beforeAll); len(rows) != 0 || l.MaxSeq != 0 || l.Unknown != nil {
		t.Errorf("before seq 1: %+v, list %+v; want nothing", rows, l)
	}
}
