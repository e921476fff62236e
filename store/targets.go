package store

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
)

// Write actions CheckTargets knows, named as in the audit log.
const (
	ActionRevoke = "revoke"
	ActionDelete = "delete"
	ActionRead   = "read"
)

// RefusedSeqs are the seqs a write may not touch for one reason.
type RefusedSeqs struct {
	Reason string
	Seqs   []int64
}

// TargetError says which seqs of a scripted write the server would refuse,
// and why; nothing was written.
type TargetError struct {
	Action, Cid, UserID string
	Refused             []RefusedSeqs
}

func (e *TargetError) Error() string {
	parts := make([]string, len(e.Refused))
	for i, r := range e.Refused {
		parts[i] = "seq " + FormatSeqs(r.Seqs) + ": " + r.Reason
	}
	return fmt.Sprintf("%s in %s by %s refused, nothing written: %s", e.Action, e.Cid, e.UserID, strings.Join(parts, "; "))
}

// CheckTargets refuses, before anything is written, the targets the server
// would refuse when uid does action on seqs of cid: a revoke of a hole (no
// message: "msg not found"), of a seq outside uid's window, or of a message
// already revoked (the original revoker stays); a delete of a hole or of a
// seq outside uid's window; a read above the window's max seq (the server
// never raises a read seq past max seq). Revoke, DeleteForMe and MarkRead
// stay the raw state machine; a caller acting for a person checks first.
// Cost: the window (as Windows) and one find per FindBatch target buckets;
// a read reads no bucket.
func (s *Store) CheckTargets(ctx context.Context, cid, uid string, seqs []int64, action string) error {
	switch action {
	case ActionRevoke, ActionDelete, ActionRead:
	default:
		return fmt.Errorf("check targets: unknown action %q", action)
	}
	ws, err := s.Windows(ctx, uid, []string{cid}, nil)
	if err != nil {
		return err
	}
	w := ws[cid]
	refused := &TargetError{Action: action, Cid: cid, UserID: uid}
	var visible []int64
	for _, seq := range seqs {
		switch {
		case seq > w.MaxSeq:
			refused.add(fmt.Sprintf("beyond the last message (max seq %d)", w.MaxSeq), seq)
		case seq < w.MinSeq && action != ActionRead:
			refused.add(fmt.Sprintf("before %s's first visible seq %d", uid, w.MinSeq), seq)
		default:
			visible = append(visible, seq)
		}
	}
	if action != ActionRead && len(visible) > 0 {
		slots, err := s.slotsOf(ctx, cid, visible, w)
		if err != nil {
			return err
		}
		for _, seq := range visible {
			st := slots[seq]
			switch {
			case st.IsHole():
				refused.add("no message there (msg not found)", seq)
			case action == ActionRevoke && st.Slot.Revoke != nil:
				refused.add("already revoked by "+st.Slot.Revoke.UserID, seq)
			}
		}
	}
	if len(refused.Refused) > 0 {
		for _, r := range refused.Refused {
			slices.Sort(r.Seqs)
		}
		slices.SortStableFunc(refused.Refused, func(a, b RefusedSeqs) int { return cmp.Compare(a.Seqs[0], b.Seqs[0]) })
		return refused
	}
	return nil
}

func (e *TargetError) add(reason string, seq int64) {
	for i := range e.Refused {
		if e.Refused[i].Reason == reason {
			e.Refused[i].Seqs = append(e.Refused[i].Seqs, seq)
			return
		}
	}
	e.Refused = append(e.Refused, RefusedSeqs{Reason: reason, Seqs: []int64{seq}})
}

// slotsOf reads the stored slots of seqs, reusing the newest bucket the
// window read already.
func (s *Store) slotsOf(ctx context.Context, cid string, seqs []int64, w *Window) (map[int64]StoredSlot, error) {
	var indexes []int64
	seen := map[int64]bool{}
	for _, seq := range seqs {
		idx := BucketIndex(seq)
		if !seen[idx] && (w.Last == nil || w.Last.Index != idx) {
			seen[idx] = true
			indexes = append(indexes, idx)
		}
	}
	bs, err := s.Buckets(ctx, cid, indexes, w.MaxSeq)
	if err != nil {
		return nil, err
	}
	if w.Last != nil {
		bs = append(bs, w.Last)
	}
	out := make(map[int64]StoredSlot, len(seqs))
	for _, b := range bs {
		for _, st := range b.Slots {
			out[st.Seq] = st
		}
	}
	return out, nil
}
