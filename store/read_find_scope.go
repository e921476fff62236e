package store

import (
	"context"
	"slices"

	"github.com/chatlens/chatlens/store/bucket"
)

// FindScanBatch is the most buckets one query of a scoped find names.
const FindScanBatch = 256

// scopeBuckets is one conversation's buckets a scoped find may search,
// newest first.
type scopeBuckets struct {
	cid     string
	indexes []int64
}

// scanScope searches the buckets of o.Scope, newest first, FindScanBatch
// a query: the conversations (the one named, the user's, or every one),
// their bucket ranges from their seq documents in one round trip (a
// conversation without one lists its doc_ids), then per batch, with a
// date, the first slot of each bucket (where a conversation's buckets get
// older than the date), and the query by doc_id and field. It stops after
// the batch of the first hit unless o.Scope.All.
func (s *lookupReads) scanScope(ctx context.Context, field, value string, plan *FindPlan, o FindOptions) ([]string, error) {
	convs, err := s.scopeConversations(ctx, o.Scope)
	if err != nil {
		return nil, err
	}
	queue, err := s.scopeBucketRanges(ctx, convs)
	if err != nil {
		return nil, err
	}
	plan.Scoped, plan.Conversations = true, len(queue)
	for _, q := range queue {
		plan.Buckets += len(q.indexes)
	}
	plan.EveryShard = plan.ShardKey != "" && !routedByDocID(plan.ShardKey, false)
	if o.Plan != nil {
		o.Plan(*plan)
	}
	var ids []string
	done := 0
	for len(queue) > 0 {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		var batch []string
		batch, queue, err = s.nextScopeBatch(ctx, queue, o.Scope)
		if err != nil {
			return nil, err
		}
		if len(batch) > 0 {
			got, err := s.backend.FindMsgDocIDsIn(ctx, batch, field, value)
			if err != nil {
				return nil, err
			}
			if !o.Scope.All {
				got = firstOf(batch, got)
			}
			ids = append(ids, got...)
		}
		done = plan.Buckets - remaining(queue)
		if o.Progress != nil {
			o.Progress(done, plan.Buckets)
		}
		if len(ids) > 0 && !o.Scope.All {
			break
		}
	}
	return ids, nil
}

// firstOf is the first of order that got holds (none when it holds none):
// the newest bucket of the first conversation with a hit.
func firstOf(order, got []string) []string {
	hit := map[string]bool{}
	for _, id := range got {
		hit[id] = true
	}
	for _, id := range order {
		if hit[id] {
			return []string{id}
		}
	}
	return nil
}

func remaining(queue []scopeBuckets) int {
	n := 0
	for _, q := range queue {
		n += len(q.indexes)
	}
	return n
}

// scopeConversations are the conversations a scope names: the one given,
// else the user's (their conversation documents: one round trip), else
// every conversation of the msg collection.
func (s *lookupReads) scopeConversations(ctx context.Context, f FindScope) ([]string, error) {
	switch {
	case f.Conversation != "":
		return []string{f.Conversation}, nil
	case f.As != "":
		convs, err := s.backend.Conversations(ctx, f.As)
		if err != nil {
			return nil, err
		}
		out := make([]string, len(convs))
		for i, c := range convs {
			out[i] = c.ConversationID
		}
		return out, nil
	}
	return s.AllConversationIDs(ctx)
}

// scopeBucketRanges lists each conversation's buckets newest first: the
// ones up to the bucket of its seq.max_seq (a reserved bound: the buckets
// past the last written are not stored, and a query by doc_id skips them
// at no cost), or, without a seq document, its stored doc_ids.
func (s *lookupReads) scopeBucketRanges(ctx context.Context, cids []string) ([]scopeBuckets, error) {
	if len(cids) == 0 {
		return nil, nil
	}
	recs, err := s.backend.SeqRecords(ctx, cids)
	if err != nil {
		return nil, err
	}
	maxSeq := map[string]int64{}
	for _, r := range recs {
		maxSeq[r.ConversationID] = max(maxSeq[r.ConversationID], min(r.MaxSeq, bucket.MaxSeq))
	}
	out := make([]scopeBuckets, 0, len(cids))
	for _, cid := range cids {
		var idx []int64
		if m := maxSeq[cid]; m > 0 {
			for i := bucket.BucketIndex(m); i >= 0; i-- {
				idx = append(idx, i)
			}
		} else if idx, err = s.storedBucketIndexes(ctx, cid); err != nil {
			return nil, err
		}
		if len(idx) > 0 {
			out = append(out, scopeBuckets{cid: cid, indexes: idx})
		}
	}
	return out, nil
}

// storedBucketIndexes are cid's stored bucket indexes, newest first, from
// the doc_id index alone.
func (s *lookupReads) storedBucketIndexes(ctx context.Context, cid string) ([]int64, error) {
	ids, err := s.backend.BucketIDs(ctx, cid)
	if err != nil {
		return nil, err
	}
	var out []int64
	for _, id := range ids {
		if c, idx, err := bucket.ParseDocID(id); err == nil && c == cid && idx <= bucket.MaxBucketIndex {
			out = append(out, idx)
		}
	}
	slices.Sort(out)
	slices.Reverse(out)
	return out, nil
}

// nextScopeBatch takes up to FindScanBatch buckets off queue, newest of
// each conversation first, and returns their doc_ids and what is left.
// With a date, the first slot of each is read (one round trip): a bucket
// whose first message is older than the date is the last of its
// conversation searched (the messages it holds may straddle the date; the
// older buckets cannot).
func (s *lookupReads) nextScopeBatch(ctx context.Context, queue []scopeBuckets, f FindScope) ([]string, []scopeBuckets, error) {
	type pick struct {
		conv int
		idx  int64
	}
	var picks []pick
	for ci := 0; ci < len(queue) && len(picks) < FindScanBatch; ci++ {
		q := &queue[ci]
		n := min(len(q.indexes), FindScanBatch-len(picks))
		for _, idx := range q.indexes[:n] {
			picks = append(picks, pick{ci, idx})
		}
		q.indexes = q.indexes[n:]
	}
	ids := make([]string, len(picks))
	for i, p := range picks {
		ids[i] = bucket.DocID(queue[p.conv].cid, p.idx)
	}
	if !f.Since.IsZero() && len(picks) > 0 {
		firsts, err := s.firstSendTimes(ctx, ids)
		if err != nil {
			return nil, nil, err
		}
		var kept []string
		stopped := map[int]bool{}
		for i, p := range picks {
			if stopped[p.conv] {
				continue
			}
			t, stored := firsts[ids[i]]
			if !stored {
				continue
			}
			kept = append(kept, ids[i])
			if t > 0 && t < f.Since.UnixMilli() {
				stopped[p.conv] = true
				queue[p.conv].indexes = nil // older buckets: all before the date
			}
		}
		ids = kept
	}
	rest := queue[:0]
	for _, q := range queue {
		if len(q.indexes) > 0 {
			rest = append(rest, q)
		}
	}
	return ids, rest, nil
}

// firstSendTimes reads the first slot of each bucket of ids (one round
// trip) and gives, for each stored one, its message's send time (0: no
// message there, a hole).
func (s *lookupReads) firstSendTimes(ctx context.Context, ids []string) (map[string]int64, error) {
	ranges := make([]SlotRange, len(ids))
	for i, id := range ids {
		ranges[i] = SlotRange{DocID: id, First: 0, N: 1}
	}
	reads, err := s.backend.FindSlotRanges(ctx, ranges)
	if err != nil {
		return nil, err
	}
	out := make(map[string]int64, len(ids))
	for i, r := range reads {
		if r.Raw == nil {
			continue
		}
		_, idx, _ := bucket.ParseDocID(ids[i])
		slot := bucket.DecodeSlots(r.Raw, r.Sliced, idx, 0, 1)[0]
		out[ids[i]] = 0
		if !slot.IsHole() {
			out[ids[i]] = slot.Slot.Msg.SendTime
		}
	}
	return out, nil
}

// inScope keeps the hits an index lookup found that lie in the scope: in
// its conversations (the user's: one round trip) and sent at or after its
// date. An index answers every hit at once, so All changes nothing.
func (s *lookupReads) inScope(ctx context.Context, found []Found, f FindScope) ([]Found, error) {
	if !f.scoped() {
		return found, nil
	}
	var keep map[string]bool
	if f.Conversation != "" || f.As != "" {
		cids, err := s.scopeConversations(ctx, f)
		if err != nil {
			return nil, err
		}
		keep = map[string]bool{}
		for _, c := range cids {
			keep[c] = true
		}
	}
	out := found[:0]
	for _, h := range found {
		if keep != nil && !keep[h.ConversationID] || !f.Since.IsZero() && h.SendTime > 0 && h.SendTime < f.Since.UnixMilli() {
			continue
		}
		out = append(out, h)
	}
	return out, nil
}
