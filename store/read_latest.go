package store

import "context"

// LatestSeq is where cid's messages end now, for following a conversation
// as it grows: the cache's MALLOC_SEQ:<cid> CURR when the cache knows it,
// else the seq document's max_seq (a reserved upper bound: it may run
// ahead of the last written message, and moves in steps where seqs are
// reserved in blocks). One round trip, never a bucket read.
func (s *messageReads) LatestSeq(ctx context.Context, cid string) (seq int64, from string, err error) {
	if s.cache != nil {
		m, err := s.cache.MaxSeqs(ctx, []string{cid})
		s.cacheResult(err)
		if v, ok := m[cid]; ok && err == nil {
			return v, "MALLOC_SEQ:" + cid, nil
		}
	}
	recs, err := s.backend.SeqRecords(ctx, []string{cid})
	if err != nil {
		return 0, "", err
	}
	for _, r := range recs {
		if r.ConversationID == cid {
			return r.MaxSeq, "seq.max_seq", nil
		}
	}
	return 0, "seq.max_seq", nil
}
