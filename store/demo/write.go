package demo

import (
	"context"
	"fmt"
	"math/rand/v2"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store"
)

// batchSize is how many consecutive seqs one InsertMessages call writes.
// A multiple of the bucket size, so batches start on bucket edges and the
// state machine inserts whole buckets instead of updating slot by slot.
const batchSize = 5 * store.BucketSize

// pcgStream is the fixed second word of the PCG state; the seed is the first.
const pcgStream = 0x636861746c656e73 // "chatlens"

// Seed writes the demo dataset into st. Messages, revokes, deletes and reads
// go through the store's state machine; the naming and window collections
// are written raw, as documents of the store model. progress (may be nil) is
// called with messages written so far and the total. It stops between
// conversations and between batches once ctx ends, returning an error that
// wraps ctx.Err(); what was written by then stays written.
func Seed(ctx context.Context, st *store.Store, opts Options, progress func(done, total int)) (Summary, error) {
	opts = opts.withDefaults()
	rng := rand.New(rand.NewPCG(uint64(opts.Seed), pcgStream))
	specs := layout(opts, rng)
	w := &writer{st: st, progress: progress}
	for _, s := range specs {
		w.total += s.n
	}
	var sum Summary
	var users []any
	for _, p := range people {
		users = append(users, store.User{UserID: p.ID, Nickname: p.Nickname, FaceURL: faceURL(p.ID)})
	}
	if err := w.raw(ctx, store.CollUser, users); err != nil {
		return sum, err
	}
	sum.Users = len(users)
	p := &planner{rng: rng}
	for i, s := range specs {
		if err := ctx.Err(); err != nil {
			return sum, w.interrupted(err)
		}
		p.clock = baseTime + int64(i)*37*60*1000 // staggered starts
		c := s.plan(p, s.n)
		if err := w.conversation(ctx, c); err != nil {
			return sum, fmt.Errorf("conversation %s: %w", c.cid, err)
		}
		sum.Conversations++
		if c.group != nil {
			sum.Groups++
		}
		for _, m := range c.msgs {
			if m == nil {
				sum.Holes++
			} else {
				sum.Messages++
			}
		}
		sum.Revoked += len(c.revokes)
		sum.Deleted += len(c.deletes)
	}
	return sum, nil
}

// writer writes planned conversations through a Store.
type writer struct {
	st          *store.Store
	progress    func(done, total int)
	done, total int
}

// interrupted wraps the context's error with how far the seed got.
func (w *writer) interrupted(err error) error {
	return fmt.Errorf("interrupted after %d of %d messages: %w", w.done, w.total, err)
}

func (w *writer) raw(ctx context.Context, coll string, docs []any) error {
	if len(docs) == 0 {
		return nil
	}
	raws := make([]bson.Raw, len(docs))
	for i, d := range docs {
		b, err := bson.Marshal(d)
		if err != nil {
			return fmt.Errorf("encoding %s document: %w", coll, err)
		}
		raws[i] = b
	}
	// Upsert: seed --force writes the demo again over its own documents.
	_, err := w.st.Backend().InsertRaw(ctx, coll, raws, store.RawUpsert)
	return err
}

func (w *writer) conversation(ctx context.Context, c *conv) error {
	if err := w.messages(ctx, c); err != nil {
		return err
	}
	for _, r := range c.revokes {
		if err := ctx.Err(); err != nil {
			return w.interrupted(err)
		}
		if _, err := w.st.Revoke(ctx, c.cid, []int64{r.seq}, r.rev); err != nil {
			return err
		}
	}
	for _, d := range c.deletes {
		if err := ctx.Err(); err != nil {
			return w.interrupted(err)
		}
		if _, err := w.st.DeleteForMe(ctx, c.cid, []int64{d.seq}, d.uid); err != nil {
			return err
		}
	}
	if err := w.memberships(ctx, c); err != nil {
		return err
	}
	return w.reads(ctx, c)
}

// messages inserts the conversation in batches of consecutive seqs, cut at
// holes (a gap between two batches is how a hole arises on a real server).
func (w *writer) messages(ctx context.Context, c *conv) error {
	var batch []*store.MsgData
	var first int64
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		if err := ctx.Err(); err != nil {
			return w.interrupted(err)
		}
		if _, err := w.st.InsertMessages(ctx, c.cid, first, batch); err != nil {
			return err
		}
		w.done += len(batch)
		if w.progress != nil {
			w.progress(w.done, w.total)
		}
		batch = nil
		return nil
	}
	for i, m := range c.msgs {
		seq := int64(i + 1)
		if m == nil || (len(batch) > 0 && (seq-1)%batchSize == 0) {
			if err := flush(); err != nil {
				return err
			}
		}
		if m == nil {
			continue
		}
		if len(batch) == 0 {
			first = seq
		}
		batch = append(batch, m)
	}
	return flush()
}

// memberships writes what a deployment keeps beside the messages: each
// participant's seq_user and conversation documents, and the group's records.
func (w *writer) memberships(ctx context.Context, c *conv) error {
	var seqUsers, convs []any
	for _, u := range c.users {
		seqUsers = append(seqUsers, store.SeqUser{UserID: u, ConversationID: c.cid,
			MinSeq: c.minSeq[u], MaxSeq: c.endSeq[u]})
		doc := store.Conversation{OwnerUserID: u, ConversationID: c.cid, ConversationType: c.kind,
			MinSeq: c.minSeq[u], MaxSeq: c.endSeq[u], IsPinned: c.pinned[u]}
		if c.group != nil {
			doc.GroupID = c.group.ID
		} else if u == c.pair[0] {
			doc.UserID = c.pair[1]
		} else {
			doc.UserID = c.pair[0]
		}
		convs = append(convs, doc)
	}
	if err := w.raw(ctx, store.CollSeqUser, seqUsers); err != nil {
		return err
	}
	if err := w.raw(ctx, store.CollConversation, convs); err != nil {
		return err
	}
	if c.group == nil {
		return nil
	}
	if err := w.raw(ctx, store.CollGroup, []any{store.Group{GroupID: c.group.ID, GroupName: c.group.Name}}); err != nil {
		return err
	}
	var members []any
	for _, u := range c.current {
		members = append(members, store.GroupMember{GroupID: c.group.ID, UserID: u,
			RoleLevel: c.group.role(u), JoinTime: c.joined[u]})
	}
	return w.raw(ctx, store.CollGroupMember, members)
}

// reads marks each participant's read position the way a client does: in a
// single chat every received message up to it, in a group just the position.
func (w *writer) reads(ctx context.Context, c *conv) error {
	for _, u := range c.users {
		top := c.readSeq[u]
		if top < 1 {
			continue
		}
		seqs := []int64{top}
		if c.kind == store.SessionSingle {
			seqs = seqs[:0]
			for seq := int64(1); seq <= top; seq++ {
				if m := c.msgs[seq-1]; m != nil && (m.SendID != u || seq == top) {
					seqs = append(seqs, seq)
				}
			}
		}
		if _, err := w.st.MarkRead(ctx, c.cid, seqs, u); err != nil {
			return err
		}
	}
	return nil
}
