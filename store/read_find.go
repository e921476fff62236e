package store

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/chatlens/chatlens/store/bucket"
)

// The message IDs a find looks up, as stored in msgs.<i>.msg.
const (
	FieldClientMsgID = "client_msg_id"
	FieldServerMsgID = "server_msg_id"
)

// Found is one stored slot holding the message looked for.
type Found struct {
	ConversationID string
	Seq            int64 // the seq the slot's position gives (OPENIM.md addressing)
	DocID          string
	Slot           int
	SendTime       int64 // the message's send time (unix ms), 0 when it has none
}

// FindPlan is how a find will go, told before the work starts: with an index
// on msgs.msg.<field> one query; without, a scan of every bucket, one
// conversation at a time, or of the buckets of a scope (FindScope), newest
// first, FindScanBatch a query.
type FindPlan struct {
	Index         string // the index used; "" for a scan
	Conversations int    // scan only
	Buckets       int    // scan only: what the scan will read on the server (a scope's: at most)
	Scoped        bool   // the scan is of a scope's buckets, newest first
	// ShardKey is msg's shard key where the server says msg is sharded
	// ("" otherwise); EveryShard: the queries carry no doc_id a shard key
	// on doc_id could route by, so every shard answers each of them.
	ShardKey   string
	EveryShard bool
}

// FindOptions are the callbacks and the scope of a find; all may be zero.
type FindOptions struct {
	Plan     func(FindPlan)
	Progress func(done, total int) // buckets scanned of the plan's
	Scope    FindScope
}

// FindScope narrows a find the way a store sharded by one key answers a
// lookup by another: one small lookup (a user's conversation documents,
// the seq documents) names the buckets, and only those are searched,
// newest first.
type FindScope struct {
	As           string    // only the conversations this user owns a document of
	Conversation string    // only this conversation
	Since        time.Time // stop at the first bucket all older than this (zero: no bound)
	All          bool      // every hit; otherwise the scan stops at the first
}

// scoped says the scope narrows the scan.
func (f FindScope) scoped() bool { return f.As != "" || f.Conversation != "" || !f.Since.IsZero() }

// IndexFor is the name of the msg index whose first key is
// msgs.msg.<field>, "" when there is none.
func IndexFor(indexes map[string][]IndexInfo, field string) string {
	for _, ix := range indexes[bucket.CollMsg] {
		if len(ix.Keys) > 0 && ix.Keys[0] == "msgs.msg."+field {
			return ix.Name
		}
	}
	return ""
}

// FindMessage finds the slots whose message has field (FieldClientMsgID or
// FieldServerMsgID) equal to value, across every conversation. The scan
// stops between conversations when ctx ends. Messages only in the Redis
// layer are not found: the search is of the msg collection.
func (s *lookupReads) FindMessage(ctx context.Context, field, value string, o FindOptions) ([]Found, FindPlan, error) {
	if field != FieldClientMsgID && field != FieldServerMsgID {
		return nil, FindPlan{}, fmt.Errorf("find: unknown field %q", field)
	}
	indexes, err := s.backend.Indexes(ctx)
	if err != nil {
		return nil, FindPlan{}, err
	}
	plan := FindPlan{Index: IndexFor(indexes, field), ShardKey: s.msgShardKey(ctx)}
	var ids []string
	switch {
	case plan.Index != "":
		plan.EveryShard = plan.ShardKey != "" // a lookup by the field alone
		if o.Plan != nil {
			o.Plan(plan)
		}
		if ids, err = s.backend.FindMsgDocIDs(ctx, "", field, value); err != nil {
			return nil, plan, err
		}
	case o.Scope.scoped():
		ids, err = s.scanScope(ctx, field, value, &plan, o)
	default:
		ids, err = s.scanFor(ctx, field, value, &plan, o)
	}
	if err != nil {
		return nil, plan, err
	}
	found, err := s.locate(ctx, ids, field, value)
	if err == nil && plan.Index != "" {
		found, err = s.inScope(ctx, found, o.Scope)
	}
	return found, plan, err
}

// msgShardKey is msg's shard key where the backend can tell ("" when it
// cannot, or msg is not sharded): one round trip. Not knowing it stops no
// find.
func (s *lookupReads) msgShardKey(ctx context.Context) string {
	key, ok, err := s.backend.MsgShardKey(ctx)
	if !ok || err != nil {
		return ""
	}
	return key
}

// routedByDocID says a shard key lets a query by doc_id go to the shards
// holding those buckets only: a range key starting with doc_id (a hashed
// one routes $in lists too, but not the prefix ranges of a scan).
func routedByDocID(key string, prefixRanges bool) bool {
	if !strings.HasPrefix(key, "doc_id:") {
		return false
	}
	return !prefixRanges || !strings.Contains(key, "hashed")
}

// scanFor counts the buckets first (the doc_id index alone), so the plan
// can say how long the scan will take, then asks each conversation in turn.
func (s *lookupReads) scanFor(ctx context.Context, field, value string, plan *FindPlan, o FindOptions) ([]string, error) {
	type conv struct {
		id      string
		buckets int
	}
	var convs []conv
	for after := ""; ; {
		cid, ok, err := s.NextConversationID(ctx, after)
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		bucketIDs, err := s.backend.BucketIDs(ctx, cid)
		if err != nil {
			return nil, err
		}
		convs = append(convs, conv{cid, len(bucketIDs)})
		plan.Buckets += len(bucketIDs)
		after = cid
	}
	plan.Conversations = len(convs)
	plan.EveryShard = plan.ShardKey != "" && !routedByDocID(plan.ShardKey, true)
	if o.Plan != nil {
		o.Plan(*plan)
	}
	var ids []string
	done := 0
	for _, c := range convs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		got, err := s.backend.FindMsgDocIDs(ctx, c.id, field, value)
		if err != nil {
			return nil, err
		}
		ids = append(ids, got...)
		done += c.buckets
		if o.Progress != nil {
			o.Progress(done, plan.Buckets)
		}
		if len(ids) > 0 && !o.Scope.All {
			break // the first hit is what was asked
		}
	}
	return ids, nil
}

// locate reads the matching buckets and names each slot that holds value.
func (s *lookupReads) locate(ctx context.Context, ids []string, field, value string) ([]Found, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	raws, err := s.backend.FindBuckets(ctx, ids)
	if err != nil {
		return nil, err
	}
	var out []Found
	for _, raw := range raws {
		docID, _ := raw.Lookup("doc_id").StringValueOK()
		cid, index, perr := bucket.ParseDocID(docID)
		arr, _ := raw.Lookup("msgs").ArrayOK()
		vals, _ := arr.Values()
		for i, v := range vals {
			slot, ok := v.DocumentOK()
			if !ok {
				continue
			}
			if got, ok := slot.Lookup("msg", field).StringValueOK(); !ok || got != value {
				continue
			}
			f := Found{ConversationID: cid, DocID: docID, Slot: i}
			f.SendTime, _ = slot.Lookup("msg", "send_time").AsInt64OK()
			if perr == nil {
				f.Seq = bucket.FirstSeq(index) + int64(i)
			} else if seq, ok := slot.Lookup("msg", "seq").AsInt64OK(); ok {
				f.Seq = seq // an odd doc_id: the message's own seq is all there is
			}
			out = append(out, f)
		}
	}
	slices.SortFunc(out, func(a, b Found) int {
		return cmp.Or(cmp.Compare(a.ConversationID, b.ConversationID), cmp.Compare(a.Seq, b.Seq))
	})
	return out, nil
}
