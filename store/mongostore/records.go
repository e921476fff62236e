package mongostore

import (
	"context"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/chatlens/chatlens/store/bucket"
)

// SeqRecords: find seq {conversation_id: {$in: cids}}.
func (b *seqs) SeqRecords(ctx context.Context, cids []string) ([]bucket.SeqRecord, error) {
	if len(cids) == 0 {
		return nil, nil
	}
	return findAll(ctx, b.conn, seqRecords(cids), bucket.DecodeSeqRecord)
}

// RaiseMaxSeq: updateOne seq {conversation_id}, {$max: {max_seq},
// $setOnInsert: {_id: bucket.SeqID, min_seq: 0}}, upsert.
func (b *seqs) RaiseMaxSeq(ctx context.Context, cid string, maxSeq int64) error {
	return b.raise(ctx, raiseMaxSeq(cid, maxSeq))
}

// SeqUsers: find seq_user {user_id: uid, conversation_id: {$in: cids}}.
func (b *seqs) SeqUsers(ctx context.Context, uid string, cids []string) ([]bucket.SeqUser, error) {
	if len(cids) == 0 {
		return nil, nil
	}
	return findAll(ctx, b.conn, seqUsers(uid, cids), bucket.DecodeSeqUser)
}

// SeqUsersOf: find seq_user {conversation_id: cid, user_id: {$in: uids}}.
func (b *seqs) SeqUsersOf(ctx context.Context, cid string, uids []string) ([]bucket.SeqUser, error) {
	if len(uids) == 0 {
		return nil, nil
	}
	return findAll(ctx, b.conn, seqUsersOf(cid, uids), bucket.DecodeSeqUser)
}

// RaiseReadSeq: updateOne seq_user {user_id, conversation_id}, {$max:
// {read_seq}, $setOnInsert: {_id: bucket.SeqUserID, max_seq: 0, min_seq:
// 0}}, upsert. It changes the pair's first document, as OpenIM's own
// update does.
func (b *seqs) RaiseReadSeq(ctx context.Context, uid, cid string, seq int64) error {
	return b.raise(ctx, raiseReadSeq(uid, cid, seq))
}

// raise runs a $max upsert (raise). OpenIM's index on its filter is not
// unique (pkg/common/storage/database/mgo seq_conversation.go
// NewSeqConversationMongo, seq_user.go NewSeqUserMongo), but the _id the
// upsert inserts under is derived from the filter's key: of two first
// upserts racing, the unique _id index refuses the second, which retries
// once and then updates the first's document.
func (b *seqs) raise(ctx context.Context, q updateQuery) error {
	opts := options.UpdateOne().SetUpsert(q.upsert)
	var err error
	for range 2 {
		err = b.run(ctx, func(ctx context.Context) error {
			_, err := b.coll(q.coll).UpdateOne(ctx, q.filter, q.update, opts)
			return err
		})
		if !mongo.IsDuplicateKeyError(err) {
			break
		}
	}
	return b.wrapWrite("update", q.coll, err) // a failover's "not primary" is retried like a bucket's
}

// Conversations: find conversation {owner_user_id: owner}.
func (b *directory) Conversations(ctx context.Context, owner string) ([]bucket.Conversation, error) {
	return findAll(ctx, b.conn, conversationsOf(owner), bucket.DecodeConversation)
}

// ConversationsByID: find conversation {conversation_id: cid}.
func (b *directory) ConversationsByID(ctx context.Context, cid string) ([]bucket.Conversation, error) {
	return findAll(ctx, b.conn, conversationsWithID(cid), bucket.DecodeConversation)
}

// Users: find user {user_id: {$in: ids}}.
func (b *directory) Users(ctx context.Context, ids []string) ([]bucket.User, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	return findAll(ctx, b.conn, users(ids), bucket.DecodeUser)
}

// Groups: find group {group_id: {$in: ids}}.
func (b *directory) Groups(ctx context.Context, ids []string) ([]bucket.Group, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	return findAll(ctx, b.conn, groups(ids), bucket.DecodeGroup)
}

// GroupMembers: find group_member {group_id}.
func (b *directory) GroupMembers(ctx context.Context, groupID string) ([]bucket.GroupMember, error) {
	return findAll(ctx, b.conn, groupMembers(groupID), bucket.DecodeGroupMember)
}

// findAll runs one find and decodes every document leniently.
func findAll[T any](ctx context.Context, b *conn, q findQuery, decode func(bson.Raw) T) ([]T, error) {
	var out []T
	err := b.find(ctx, q, func(raw bson.Raw) error {
		out = append(out, decode(raw))
		return nil
	})
	return out, err
}
