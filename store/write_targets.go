package store

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/chatlens/chatlens/store/bucket"
)

// RefusedSeqs are the seqs a write may not touch for one reason.
// StorageOnly: chatlens's own refusal of a write in storage; the server
// accepts those seqs.
type RefusedSeqs struct {
	Reason      string
	Seqs        []int64
	StorageOnly bool
}

// TargetError says which seqs of a scripted write the server would refuse,
// and why; nothing was written.
type TargetError struct {
	Action, Cid, UserID string
	Refused             []RefusedSeqs
}

func (e *TargetError) Error() string {
	return fmt.Sprintf("%s in %s by %s refused, nothing written: %s", e.Action, e.Cid, e.UserID, e.reasons())
}

// reasons are the refusals, "seq 7: why; seq 9: why".
func (e *TargetError) reasons() string {
	parts := make([]string, len(e.Refused))
	for i, r := range e.Refused {
		parts[i] = "seq " + FormatSeqs(r.Seqs) + ": " + r.Reason
	}
	return strings.Join(parts, "; ")
}

// CheckTargets refuses, before anything is written, the targets the server
// would refuse when uid does action on seqs of cid: a revoke of a hole (no
// message: "msg not found"), of a seq outside uid's pull window (also "msg
// not found": controller/msg.go GetMsgBySeqs returns nothing there), or of
// a message already revoked (the original revoker stays); a read past the
// last message (as_read.go: "hasReadSeq must not be bigger than maxSeq")
// or by a user who owns no conversation document for cid (the server
// refuses it). Those the server accepts pass, as it writes them: a delete
// for me or a read of seqs before uid's window (delete.go DeleteMsgs and
// as_read.go MarkMsgsAsRead look at no window), a delete over a hole (a
// physically deleted message: DeleteUserMsgsBySeqs adds to its del_list
// all the same). chatlens refuses two more for a write in storage: a
// delete past the last message (its del_list would hide a message not
// sent yet), and a delete or a read of a message only in the Redis cache
// so far (the write would find no stored slot). Revoke, DeleteForMe and
// MarkRead stay the raw state machine; a caller acting for a person checks
// first (Do). Cost: the window (as Windows) and one find per FindBatch
// target buckets; a read reads no bucket unless a cache is configured.
func (s *planning) CheckTargets(ctx context.Context, cid, uid string, seqs []int64, action string) error {
	_, err := (&planner{s: s}).checkTargets(ctx, cid, uid, seqs, action, nil)
	return err
}

// SeqNote says what a write did, or will do, to some seqs that are not
// plain messages in the user's window, the server writing them all the
// same: "seq 28: no message there (physically deleted): ...".
type SeqNote struct {
	Seqs []int64
	Note string
}

func (n SeqNote) String() string { return "seq " + FormatSeqs(n.Seqs) + ": " + n.Note }

// checked is what checkTargets read: the actor's window, the target slots
// it read, and what the write does to the targets it accepts that are not
// plain messages in the window.
type checked struct {
	w     *bucket.Window
	slots map[int64]bucket.StoredSlot
	notes []SeqNote
}

func addNote(notes []SeqNote, note string, seq int64) []SeqNote {
	for i := range notes {
		if notes[i].Note == note {
			notes[i].Seqs = append(notes[i].Seqs, seq)
			return notes
		}
	}
	return append(notes, SeqNote{Seqs: []int64{seq}, Note: note})
}

// checkTargets is CheckTargets; also, for each target holding a message,
// judge may add a refusal ("" for none).
func (pl *planner) checkTargets(ctx context.Context, cid, uid string, seqs []int64, action string,
	judge func(bucket.StoredSlot) string) (checked, error) {
	s := pl.s
	switch action {
	case ActionRevoke, ActionDelete, ActionRead:
	default:
		return checked{}, fmt.Errorf("check targets: unknown action %q", action)
	}
	w := pl.w
	if w == nil {
		ws, err := s.Windows(ctx, uid, []string{cid}, nil)
		if err != nil {
			return checked{}, err
		}
		w = ws[cid]
	}
	c := checked{w: w}
	var err error
	refused := &TargetError{Action: action, Cid: cid, UserID: uid}
	var visible []int64
	for _, seq := range seqs {
		switch {
		case action == ActionRead && w.NoConversationDoc:
			// as_read.go MarkMsgsAsRead: GetConversation fails first (and
			// OpenIM keeps no conversation document for an n_* conversation).
			refused.add(fmt.Sprintf("%s has no conversation document for %s (not a member, the app admin, or a notification conversation): OpenIM refuses their mark read", uid, cid), seq)
		case action == ActionRevoke && w.UserMaxSeq > 0 && seq > w.UserMaxSeq:
			// revoke.go looks the message up with GetMsgBySeqs, which caps
			// every conversation by seq_user.max_seq (controller/msg.go).
			refused.add(fmt.Sprintf("msg not found: past %s's seq_user.max_seq %d", uid, w.UserMaxSeq), seq)
		case action == ActionRevoke && seq < w.MinSeq:
			refused.add(fmt.Sprintf("msg not found: before %s's first visible seq %d (history cleared)", uid, w.MinSeq), seq)
		case seq > w.MaxSeq && action == ActionDelete:
			// delete.go accepts it; a del_list there would hide the
			// message the seq is given later.
			refused.addStorage(fmt.Sprintf("beyond the last message (max seq %d)", w.MaxSeq), seq)
		case seq > w.MaxSeq:
			refused.add(fmt.Sprintf("beyond the last message (max seq %d)", w.MaxSeq), seq)
		case seq < w.MinSeq:
			// delete.go DeleteMsgs and as_read.go MarkMsgsAsRead write
			// these slots as any other: shared/openim-recorded's server
			// answered 0 and the other side saw them read.
			c.notes = addNote(c.notes, fmt.Sprintf("before %s's first visible seq %d (history cleared): %s", uid, w.MinSeq, beforeWindowDone(action, uid)), seq)
			visible = append(visible, seq)
		default:
			visible = append(visible, seq)
		}
	}
	cacheOnly := s.cache != nil && (action == ActionDelete || action == ActionRead)
	if (action != ActionRead || cacheOnly) && len(visible) > 0 {
		if c.slots, err = s.slotsOf(ctx, cid, visible, w); err != nil {
			return checked{}, err
		}
		var cached []int64
		for _, seq := range visible {
			st := c.slots[seq]
			switch {
			case st.IsHole() && action == ActionRevoke:
				refused.add("no message there (msg not found)", seq)
			case st.IsHole() && action == ActionDelete && seq >= w.MinSeq:
				c.notes = addNote(c.notes, holeDeleteDone(st, uid), seq)
			case st.IsHole():
			case action == ActionRevoke && st.Slot.Revoke != nil:
				refused.add("already revoked by "+st.Slot.Revoke.UserID, seq)
			case action == ActionRevoke && st.Slot.Msg.ContentType == bucket.ContentRevoked:
				// revoke.go RevokeMsg refuses any message shown as 2101.
				refused.add("msg already revoke: it is a revoke notice (content type 2101)", seq)
			case cacheOnly && st.Cached:
				cached = append(cached, seq)
			case judge != nil:
				if why := judge(st); why != "" {
					refused.add(why, seq)
				}
			}
		}
		if err := pl.refuseCacheOnly(ctx, cid, cached, refused); err != nil {
			return checked{}, err
		}
	}
	if len(refused.Refused) > 0 {
		for _, r := range refused.Refused {
			slices.Sort(r.Seqs)
		}
		slices.SortStableFunc(refused.Refused, func(a, b RefusedSeqs) int { return cmp.Compare(a.Seqs[0], b.Seqs[0]) })
		return c, refused
	}
	return c, nil
}

// beforeWindowDone is what a delete or a read of a seq before uid's window
// does, as the server does it.
func beforeWindowDone(action, uid string) string {
	if action == ActionDelete {
		return uid + " is added to its del_list, as the server adds it (" + uid + " is pulled nothing there anyway)"
	}
	return "marked as the server marks it: is_read on a message " + uid + " did not send, so the other side sees it read"
}

// holeDeleteDone is what a delete for me does to a seq with no message
// in uid's window, as the server's DeleteUserMsgsBySeqs does it.
func holeDeleteDone(st bucket.StoredSlot, uid string) string {
	switch {
	case st.Slot == nil:
		return "no message there and no bucket holds it: nothing is written, as the server's update matches nothing"
	case st.Erased:
		return "no message there (physically deleted): " + uid + " is added to its del_list, as the server adds it; nothing changes on screen"
	}
	return "no message there (an empty slot): " + uid + " is added to its del_list, as the server adds it; nothing changes on screen"
}

// refuseCacheOnly refuses the seqs, read from the cache, whose stored slot
// holds no message: Redis has them before MongoDB does, and a delete or
// mark read there would match no stored message (the stored slots of those
// seqs only, read only when some target came from the cache).
func (pl planner) refuseCacheOnly(ctx context.Context, cid string, seqs []int64, refused *TargetError) error {
	if len(seqs) == 0 {
		return nil
	}
	stored, err := pl.s.storedSlots(ctx, cid, seqs, nil)
	if err != nil {
		return err
	}
	for _, seq := range seqs {
		if st, ok := stored[seq]; !ok || st.IsHole() {
			refused.addStorage("only in the Redis cache (MSG_CACHE), not in the store yet: nothing to write to; try again once it is stored", seq)
		}
	}
	return nil
}

func (e *TargetError) add(reason string, seq int64) { e.addRefusal(reason, seq, false) }

// serverRefusals is e without chatlens's own refusals of a write in
// storage (StorageOnly): what the server refuses; nil when that is nothing.
func (e *TargetError) serverRefusals() error {
	out := &TargetError{Action: e.Action, Cid: e.Cid, UserID: e.UserID}
	for _, r := range e.Refused {
		if !r.StorageOnly {
			out.Refused = append(out.Refused, r)
		}
	}
	if len(out.Refused) == 0 {
		return nil
	}
	return out
}

// addStorage adds a refusal of chatlens's own, for a write in storage: the
// server accepts those seqs.
func (e *TargetError) addStorage(reason string, seq int64) { e.addRefusal(reason, seq, true) }

func (e *TargetError) addRefusal(reason string, seq int64, storageOnly bool) {
	for i := range e.Refused {
		if e.Refused[i].Reason == reason {
			e.Refused[i].Seqs = append(e.Refused[i].Seqs, seq)
			return
		}
	}
	e.Refused = append(e.Refused, RefusedSeqs{Reason: reason, Seqs: []int64{seq}, StorageOnly: storageOnly})
}

// slotsOf reads the slots of seqs and no others, reusing the newest
// bucket the window read already.
func (s *planning) slotsOf(ctx context.Context, cid string, seqs []int64, w *bucket.Window) (map[int64]bucket.StoredSlot, error) {
	out := make(map[int64]bucket.StoredSlot, len(seqs))
	var rest []int64
	for _, seq := range seqs {
		if w.Last != nil && w.Last.Index == bucket.BucketIndex(seq) {
			out[seq] = w.Last.Slots[bucket.SlotIndex(seq)]
		} else {
			rest = append(rest, seq)
		}
	}
	read, err := s.Slots(ctx, cid, rest, w.MaxSeq)
	if err != nil {
		return nil, err
	}
	maps.Copy(out, read)
	return out, nil
}
