package store

import (
	"context"
	"fmt"

	"github.com/chatlens/chatlens/store/bucket"
)

// A user's seq_user values as the server reads them. OpenIM caches each in
// Redis (SEQ_USER_MIN, SEQ_USER_MAX, SEQ_USER_READ) and reads the key
// first; on a miss it reads the document (pkg/common/storage/cache/redis/
// seq_user.go). Its index on (user_id, conversation_id) is not unique and
// it leaves two documents for one pair itself, so which document a read
// takes decides what the user sees: min_seq and max_seq come from a
// FindOne, the first document in natural order (database/mgo/seq_user.go
// getSeq); read_seq from a find over the user's conversations whose
// results fill a map, so the last one stands (GetUserReadSeqs, what
// has_read and the conversation list show). Backends return a pair's
// documents in the order they were stored.

// readSeqUsers is what a window reads of uid's seq_user values: the
// documents, and the cache's keys when configured.
type readSeqUsers struct {
	docs   []bucket.SeqUser
	cached CachedUserSeqs
}

// seqUsersOf reads uid's seq_user documents of cids and the cache's keys:
// one round trip, and one to the cache when configured.
func (s *messageReads) seqUsersOf(ctx context.Context, uid string, cids []string) (*readSeqUsers, error) {
	r := &readSeqUsers{cached: s.cachedUserSeqs(ctx, uid, cids)}
	var err error
	r.docs, err = s.backend.SeqUsers(ctx, uid, cids)
	return r, err
}

// cachedUserSeqs reads uid's cached seq_user values of cids: all three keys
// from a cache that has them (UserSeqsCache), the read seq alone from
// another; nothing without a cache or when it fails (seq_user answers).
func (s *messageReads) cachedUserSeqs(ctx context.Context, uid string, cids []string) CachedUserSeqs {
	if s.cache == nil {
		return CachedUserSeqs{}
	}
	if c, ok := s.cache.(UserSeqsCache); ok {
		got, err := c.UserSeqs(ctx, uid, cids)
		s.cacheResult(err)
		return got
	}
	read, err := s.cache.ReadSeqs(ctx, uid, cids)
	s.cacheResult(err)
	return CachedUserSeqs{Read: read}
}

// userSeqs is what the server reads of one user's seq_user values in one
// conversation, and where from.
type userSeqs struct {
	bucket.SeqUser           // min_seq, max_seq and read_seq as read
	docs                 int // how many seq_user documents the pair has
	first, last          *bucket.SeqUser
	minCached, maxCached bool
	readCached           bool
	unreadableMin        KeyError // SEQ_USER_MIN answered an error
}

// userSeqsOf reads uid's values of cid from read as the server does.
func userSeqsOf(uid, cid string, read *readSeqUsers) userSeqs {
	u := userSeqs{SeqUser: bucket.SeqUser{UserID: uid, ConversationID: cid}}
	for i := range read.docs {
		d := &read.docs[i]
		if d.ConversationID != cid || d.UserID != uid && d.UserID != "" {
			continue
		}
		if u.first == nil {
			u.first = d
		}
		u.last = d
		u.docs++
	}
	if u.first != nil {
		u.MinSeq, u.MaxSeq, u.ReadSeq = u.first.MinSeq, u.first.MaxSeq, u.last.ReadSeq
	}
	if v, ok := read.cached.Min[cid]; ok {
		u.MinSeq, u.minCached = v, true
	}
	if v, ok := read.cached.Max[cid]; ok {
		u.MaxSeq, u.maxCached = v, true
	}
	if v, ok := read.cached.Read[cid]; ok {
		u.ReadSeq, u.readCached = v, true
	}
	u.unreadableMin = read.cached.UnreadableMin[cid]
	return u
}

// note says, when the pair has more than one seq_user document, which one
// the server reads each value from; "" when it has one or none.
func (u userSeqs) note() string {
	if u.docs < 2 {
		return ""
	}
	from := func(field string, cached bool, key string, v int64, doc string, dv int64) string {
		if cached {
			return fmt.Sprintf("%s %d from Redis %s (the %s document says %d)", field, v, key, doc, dv)
		}
		return fmt.Sprintf("%s %d from the %s document", field, v, doc)
	}
	return fmt.Sprintf("%s has %d seq_user documents for %s (OpenIM's index on the pair is not unique): the server reads %s, %s and %s; chatlens shows the same and deletes none of them (check lists them)",
		u.UserID, u.docs, u.ConversationID,
		from("min_seq", u.minCached, "SEQ_USER_MIN", u.MinSeq, "first stored", u.first.MinSeq),
		from("max_seq", u.maxCached, "SEQ_USER_MAX", u.MaxSeq, "first stored", u.first.MaxSeq),
		from("read_seq", u.readCached, "SEQ_USER_READ", u.ReadSeq, "last stored", u.last.ReadSeq))
}
