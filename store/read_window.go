package store

import (
	"context"
	"maps"

	"github.com/chatlens/chatlens/store/bucket"
)

// Windows computes uid's window in each conversation of cids. Conversation
// records are read from the backend unless given in convs (keyed by cid).
// Cost: one round trip per collection read (seq, seq_user, conversation) and
// one find for the newest buckets, whether max seqs come from the seq
// documents (trimmed to the last filled slot) or the cache (believed only
// up to the stored buckets); more only when those buckets are missing.
func (s *userReads) Windows(ctx context.Context, uid string, cids []string, convs map[string]bucket.Conversation) (map[string]*bucket.Window, error) {
	return s.windows(ctx, uid, cids, convs, nil, false)
}

// windows is Windows with uid's seq_user documents and cached read seqs
// already read when pre is not nil. cut: the newest buckets are read only
// as far as their last touched slot (a list of thousands of
// conversations), not whole for a timeline to reuse (Window.Last).
func (s *userReads) windows(ctx context.Context, uid string, cids []string, convs map[string]bucket.Conversation, pre *readSeqUsers, cut bool) (map[string]*bucket.Window, error) {
	out := make(map[string]*bucket.Window, len(cids))
	if len(cids) == 0 {
		return out, nil
	}
	var cacheMax map[string]int64
	read := pre
	if s.cache != nil {
		var err error
		cacheMax, err = s.cache.MaxSeqs(ctx, cids)
		s.cacheResult(err)
		if err == nil && pre == nil {
			read = &readSeqUsers{cached: s.cachedUserSeqs(ctx, uid, cids)}
		}
	}
	if read == nil {
		read = &readSeqUsers{}
	}
	seqs, err := s.backend.SeqRecords(ctx, cids)
	if err != nil {
		return nil, err
	}
	if pre == nil {
		if read.docs, err = s.backend.SeqUsers(ctx, uid, cids); err != nil {
			return nil, err
		}
	}
	if convs == nil {
		convs = map[string]bucket.Conversation{}
		list, err := s.backend.Conversations(ctx, uid)
		if err != nil {
			return nil, err
		}
		for _, c := range list {
			convs[c.ConversationID] = c
		}
	}
	seqByCid := map[string]bucket.SeqRecord{}
	for _, r := range seqs {
		seqByCid[r.ConversationID] = r
	}
	userByCid := map[string]userSeqs{}
	for _, cid := range cids {
		userByCid[cid] = userSeqsOf(uid, cid, read)
	}
	var needLast, fromCache []string
	for _, cid := range cids {
		w := newWindow(cid, seqByCid[cid].MinSeq, userByCid[cid])
		if m, ok := cacheMax[cid]; ok {
			w.MaxSeq = m
			fromCache = append(fromCache, cid)
		} else {
			// seq.max_seq is a reserved upper bound: the newest bucket says
			// where the messages really end.
			w.MaxSeq = seqByCid[cid].MaxSeq
			needLast = append(needLast, cid)
		}
		out[cid] = w
	}
	tails, err := s.trimToLastFilled(ctx, out, needLast, cut)
	if err != nil {
		return nil, err
	}
	cached, err := s.trustCachedMax(ctx, out, fromCache, cut)
	if err != nil {
		return nil, err
	}
	maps.Copy(tails, cached)
	for _, cid := range cids {
		capTo(out[cid], convs[cid], userByCid[cid].MaxSeq)
	}
	if err := s.setNewest(ctx, out, tails); err != nil {
		return nil, err
	}
	if err := s.markUnpulled(ctx, out, convs, len(convs) > 0); err != nil {
		return nil, err
	}
	return out, nil
}

// markUnpulled sets NoConversationDoc on the windows whose conversation uid
// owns no document of (what Window.PulledNothing and the mark-read refusal
// read). A store that keeps no conversation documents at all (a bare
// msg collection) cannot say, and flags nothing. ownsAny: uid owns some
// conversation document (so the store keeps them). Cost: one round trip,
// only when uid owns none.
func (s *userReads) markUnpulled(ctx context.Context, ws map[string]*bucket.Window, owned map[string]bucket.Conversation, ownsAny bool) error {
	var missing []*bucket.Window
	for cid, w := range ws {
		if _, ok := owned[cid]; !ok {
			missing = append(missing, w)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	kept := ownsAny
	if !kept {
		var err error
		if kept, err = s.holdsAny(ctx, bucket.CollConversation); err != nil {
			return err
		}
	}
	for _, w := range missing {
		w.NoConversationDoc = kept
	}
	return nil
}

// capTo ends window w at the user's own upper bound, if lower, as
// OpenIM's pull does (internal/rpc/msg/sync_msg.go PullMessageBySeqs): a
// notification conversation ("n_", msgprocessor.IsNotification) is read
// with GetMsgBySeqs, capped by seq_user.max_seq when positive; any other by
// GetMsgBySeqsRange with the owner's conversation.max_seq when non-zero.
func capTo(w *bucket.Window, conv bucket.Conversation, userMax int64) {
	w.EndSeq = w.MaxSeq
	w.CapSeq, w.CapField = 0, ""
	limit, field := conv.MaxSeq, "conversation.max_seq"
	if bucket.IsNotificationConversation(w.Cid) {
		limit, field = userMax, "seq_user.max_seq"
	}
	if limit > 0 && limit < w.MaxSeq {
		w.MaxSeq, w.CapSeq, w.CapField = limit, limit, field
	}
}

// newWindow starts a user's window of cid: from the higher of the
// conversation's seq.min_seq and the user's min seq (controller/msg.go
// GetMsgBySeqsRange; conversation.min_seq plays no part), with the user's
// seq_user values as the server reads them (userSeqsOf): the cache's key
// whenever it has one, even a lower value, else the document the server
// reads. mark_msgs_as_read writes Redis the last seq it was given while the
// transfer writes MongoDB the largest.
func newWindow(cid string, seqMin int64, su userSeqs) *bucket.Window {
	return &bucket.Window{Cid: cid, MinSeq: max(1, seqMin, su.MinSeq), ReadSeq: su.ReadSeq,
		SeqMinSeq: seqMin, UserMinSeq: su.MinSeq, UserMaxSeq: su.MaxSeq, UserMinCached: su.minCached,
		UnreadableMinKey: su.unreadableMin.Key, UnreadableMinErr: su.unreadableMin.Err,
		SeqUserDocs: su.docs, SeqUserNote: su.note()}
}

// readSeq is a user's read seq: the cache's (SEQ_USER_READ, under key in
// cached) whenever it has one, else seq_user.read_seq. Readers decides by
// it as windows do.
func readSeq(stored int64, cached map[string]int64, key string) int64 {
	if r, ok := cached[key]; ok {
		return r
	}
	return stored
}

// WindowAt is uid's window of the conversation of base, another user's
// window of it, whose EndSeq and SeqMinSeq hold for everyone: two round
// trips (seq_user, conversation) and no bucket read, so switching viewer
// re-reads nothing.
func (s *userReads) WindowAt(ctx context.Context, uid string, base bucket.Window) (*bucket.Window, error) {
	su, err := s.seqUsersOf(ctx, uid, []string{base.Cid})
	if err != nil {
		return nil, err
	}
	convs, err := s.backend.Conversations(ctx, uid)
	if err != nil {
		return nil, err
	}
	return s.windowAtFrom(ctx, uid, base, convs, su)
}

// windowAtFrom is WindowAt from uid's conversation documents and seq_user
// documents of base.Cid already read; it reads nothing more unless uid owns
// no conversation document at all (markUnpulled).
func (s *userReads) windowAtFrom(ctx context.Context, uid string, base bucket.Window, convs []bucket.Conversation, read *readSeqUsers) (*bucket.Window, error) {
	cid := base.Cid
	var conv bucket.Conversation
	owned := map[string]bucket.Conversation{}
	for _, c := range convs {
		if c.ConversationID == cid {
			conv, owned[cid] = c, c
		}
	}
	su := userSeqsOf(uid, cid, read)
	w := newWindow(cid, base.SeqMinSeq, su)
	w.MaxSeq = base.EndSeq
	capTo(w, conv, su.MaxSeq)
	if err := s.markUnpulled(ctx, map[string]*bucket.Window{cid: w}, owned, len(convs) > 0); err != nil {
		return nil, err
	}
	return w, nil
}

// trimToLastFilled lowers MaxSeq of the given windows to the last seq sent
// (Bucket.LastSentSeq: a message, a malformed slot or a physically deleted
// one), reading each conversation's newest bucket (cut: its last touched
// slot) in one find, and returns what it read by cid.
// A conversation without a seq document gets its newest bucket from BucketIDs.
func (s *userReads) trimToLastFilled(ctx context.Context, ws map[string]*bucket.Window, cids []string, cut bool) (map[string]*newestTail, error) {
	if len(cids) == 0 {
		return map[string]*newestTail{}, nil
	}
	for _, cid := range cids {
		ws[cid].MaxSeq = min(ws[cid].MaxSeq, bucket.MaxSeq) // past it, bucket ends overflow
		if ws[cid].MaxSeq == 0 {
			idx, err := s.lastBucketIndex(ctx, cid, -1)
			if err != nil {
				return nil, err
			}
			if idx >= 0 {
				ws[cid].MaxSeq = bucket.LastSeq(idx)
			}
		}
	}
	ends := map[string]int64{}
	for _, cid := range cids {
		if ws[cid].MaxSeq > 0 {
			ends[cid] = ws[cid].MaxSeq
		}
	}
	found, err := s.newestStored(ctx, ends, cut)
	if err != nil {
		return nil, err
	}
	for _, cid := range cids {
		w := ws[cid]
		if w.MaxSeq == 0 {
			continue
		}
		t := found[cid]
		if t == nil {
			w.MaxSeq = 0 // no bucket at or below the reserved bound: no message stored
			continue
		}
		w.Last = t.whole
		last, unreadable, _ := t.lastSent() // newestStored read whole what its slots cannot tell
		if last == 0 && unreadable {
			// Unreadable (msgs missing, not an array): end the window at the
			// end of it, so that the broken bucket is shown.
			last = bucket.LastSeq(t.index)
		} else if last == 0 {
			// An all-empty newest bucket (reserved, or revoke-created):
			// the messages end before it.
			last = bucket.FirstSeq(t.index) - 1
		}
		if last < w.MaxSeq {
			w.MaxSeq = last
		}
	}
	return found, nil
}

// cachedMaxSlack is how many buckets past the newest stored one a max seq
// from the cache is believed: Redis holds new messages before MongoDB does,
// so the newest of them may sit in a bucket not written yet.
const cachedMaxSlack = 1

// trustCachedMax lowers a max seq read from the cache (MALLOC_SEQ CURR) of
// the given windows to the end of the bucket after the newest stored one. A
// CURR of 9000000000000000000 over a conversation of 50 messages would
// otherwise have every reader walk 90 quadrillion empty buckets. Cost: one
// find when the bucket holding the cached max is stored (the usual case),
// as newestStoredBuckets otherwise. The bucket read is not kept as Last:
// the cache may hold newer slots of it. cut and the tails returned: as
// trimToLastFilled's.
func (s *userReads) trustCachedMax(ctx context.Context, ws map[string]*bucket.Window, cids []string, cut bool) (map[string]*newestTail, error) {
	ends := map[string]int64{}
	for _, cid := range cids {
		ws[cid].MaxSeq = min(ws[cid].MaxSeq, bucket.MaxSeq)
		if ws[cid].MaxSeq > 0 {
			ends[cid] = ws[cid].MaxSeq
		}
	}
	found, err := s.newestStored(ctx, ends, cut)
	if err != nil {
		return nil, err
	}
	for cid := range ends {
		newest := int64(-1)
		if t := found[cid]; t != nil {
			newest = t.index
		}
		limit := bucket.LastSeq(min(newest+cachedMaxSlack, bucket.MaxBucketIndex))
		ws[cid].MaxSeq = min(ws[cid].MaxSeq, limit)
		if t := found[cid]; t != nil && t.whole != nil && t.index == bucket.BucketIndex(ws[cid].MaxSeq) {
			ws[cid].StoredNewest = t.whole
		}
	}
	return found, nil
}

// newestStored finds, for each cid -> seq of ends, the newest stored
// bucket of cid at or below the one holding seq, whole or (cut) its last
// touched slot. seq.max_seq is a reserved
// bound (the server reserves ahead), so its bucket is often not written yet:
// the bucket holding it is read first, for every conversation in one find;
// for the ones missing, the bucket just below, again in one find; only a
// conversation missing both asks the doc_id index for its buckets.
func (s *userReads) newestStored(ctx context.Context, ends map[string]int64, cut bool) (map[string]*newestTail, error) {
	read := s.wholeTailsAt
	if cut {
		read = s.tailsAt
	}
	found, err := read(ctx, ends)
	if err != nil {
		return nil, err
	}
	below := map[string]int64{}
	for cid, seq := range ends {
		if found[cid] == nil && bucket.BucketIndex(seq) > 0 {
			below[cid] = bucket.FirstSeq(bucket.BucketIndex(seq)) - 1
		}
	}
	more, err := read(ctx, below)
	if err != nil {
		return nil, err
	}
	farther := map[string]int64{}
	for cid, seq := range below {
		if more[cid] != nil {
			found[cid] = more[cid]
			continue
		}
		idx, err := s.lastBucketIndex(ctx, cid, bucket.BucketIndex(seq))
		if err != nil {
			return nil, err
		}
		if idx >= 0 {
			farther[cid] = bucket.LastSeq(idx)
		}
	}
	more, err = read(ctx, farther)
	if err != nil {
		return nil, err
	}
	maps.Copy(found, more)
	return found, nil
}

// lastBucketIndex is the highest bucket index of cid below before (any
// index when before < 0), from the doc_id index alone; -1 when none.
func (s *userReads) lastBucketIndex(ctx context.Context, cid string, before int64) (int64, error) {
	ids, err := s.backend.BucketIDs(ctx, cid)
	if err != nil {
		return -1, err
	}
	last := int64(-1)
	for _, id := range ids {
		// A doc_id past MaxBucketIndex holds seqs that overflow int64:
		// it cannot end a window (check reports it).
		if c, idx, err := bucket.ParseDocID(id); err == nil && c == cid && idx <= bucket.MaxBucketIndex && (before < 0 || idx < before) {
			last = max(last, idx)
		}
	}
	return last, nil
}
