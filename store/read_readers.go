package store

import "context"

// Reader is a member of a conversation with their read seq: they have
// read seq S when ReadSeq >= S. MinSeq is their seq_user.min_seq, where
// their window starts (0: from the start): a seq before it was never
// theirs to read.
type Reader struct {
	Member
	ReadSeq int64
	MinSeq  int64
}

// Readers returns the read seq of each of members in cid, in their order:
// one round trip to the cache (SEQ_USER_READ, when configured) and one to
// seq_user, decided by the same rule as a viewer's window (readSeq; of a
// member's several seq_user documents the last stored stands, as in the
// server's GetUserReadSeqs). A cache that fails is passed over, as
// everywhere: seq_user answers.
func (s *userReads) Readers(ctx context.Context, cid string, members []Member) ([]Reader, error) {
	if len(members) == 0 {
		return nil, nil
	}
	uids := make([]string, len(members))
	for i, m := range members {
		uids[i] = m.UserID
	}
	var cached map[string]int64
	if s.cache != nil {
		var err error
		cached, err = s.cache.ReadSeqsOf(ctx, cid, uids)
		s.cacheResult(err)
	}
	docs, err := s.backend.SeqUsersOf(ctx, cid, uids)
	if err != nil {
		return nil, err
	}
	// As the server reads them (userSeqsOf): the min seq of the first
	// document of a member, the read seq of the last.
	stored, mins := make(map[string]int64, len(docs)), make(map[string]int64, len(docs))
	for _, d := range docs {
		if d.ConversationID == cid {
			stored[d.UserID] = d.ReadSeq
			if _, ok := mins[d.UserID]; !ok {
				mins[d.UserID] = d.MinSeq
			}
		}
	}
	out := make([]Reader, len(members))
	for i, m := range members {
		out[i] = Reader{Member: m, ReadSeq: readSeq(stored[m.UserID], cached, m.UserID), MinSeq: mins[m.UserID]}
	}
	return out, nil
}

// ReadSeqOf is uid's read seq of cid as a window of theirs would have it
// (readSeq): one round trip to the cache when configured and one to
// seq_user, nothing else. What a mark read changes, read back alone.
func (s *userReads) ReadSeqOf(ctx context.Context, uid, cid string) (int64, error) {
	read, err := s.seqUsersOf(ctx, uid, []string{cid})
	if err != nil {
		return 0, err
	}
	return userSeqsOf(uid, cid, read).ReadSeq, nil
}
