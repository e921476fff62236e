package demo

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
)

// batchSize is how many consecutive seqs are written between two progress
// reports (and checks of the context). A multiple of the bucket size, so
// batches start on bucket edges and buckets are inserted whole.
const batchSize = 5 * bucket.BucketSize

// pcgStream is the fixed second word of the PCG state; the seed is the first.
const pcgStream = 0x636861746c656e73 // "chatlens"

// Seed writes the demo dataset into st. Each new bucket is inserted whole,
// its revokes and deletes in place (the documents the state machine leaves,
// see writer.buckets); a bucket that exists, and the reads, go through the
// store's state machine; the naming and window collections are written raw,
// as documents of the store model. progress (may be nil) is
// called with messages written so far and the total. It stops between
// conversations and between batches once ctx ends, returning an error that
// wraps ctx.Err(); what was written by then stays written.
func Seed(ctx context.Context, st *store.Store, opts Options, progress func(done, total int)) (Summary, error) {
	opts = opts.withDefaults()
	rng := rand.New(rand.NewPCG(uint64(opts.Seed), pcgStream))
	specs := layout(opts, rng)
	w := &writer{st: st, progress: progress}
	if opts.BulkBytes > 0 {
		w.bulk = newBulkWriter(w, opts.BulkBytes)
	}
	for _, s := range specs {
		w.total += s.n
	}
	var sum Summary
	var users []any
	for _, p := range people {
		users = append(users, bucket.User{UserID: p.ID, Nickname: p.Nickname, FaceURL: faceURL(p.ID)})
	}
	if err := w.raw(ctx, bucket.CollUser, users); err != nil {
		return sum, err
	}
	sum.Users = len(users)
	p := &planner{rng: rng, notes: newNoticeBook(opts.Seed)}
	p.flush = func() error { return w.flush(ctx, p.c, false) }
	w.start()
	err := w.plan(ctx, p, specs, &sum)
	if werr := w.wait(); werr != nil {
		err = werr
	}
	if err == nil {
		err = w.notifications(ctx, p.notes, &sum)
	}
	if err == nil && w.bulk != nil {
		err = w.bulk.flush(ctx)
	}
	if err != nil {
		return sum, w.stopped(ctx, err)
	}
	// A bulk store (embedded with NoSync) groups commits and syncs once:
	// the seed is done only when all of it is on disk.
	if err := st.Backend().Sync(ctx); err != nil {
		return sum, w.stopped(ctx, fmt.Errorf("making the seed durable: %w", err))
	}
	w.settle(true)
	return sum, nil
}

// writer writes planned conversations through a Store. It writes on a
// goroutine of its own, in the order the planner hands it the work, so
// that planning the next messages overlaps writing the last ones (on two
// cores a seed takes the longer of the two, not their sum). The planner
// never touches what it handed over again.
type writer struct {
	st               *store.Store
	bulk             *bulkWriter // nil: each write sent as it comes
	progress         func(done, total int)
	done, total      int
	revoked, deleted int          // of the conversation being written
	stored           []StoredConv // each conversation begun, in order, and its last stored seq
	// Writes return before they are committed (see store.Backend's
	// Committed): what the writer wrote waits here, in order, until its
	// commit, and only then counts as stored.
	pending []landing
	members map[string]bool // conversations whose membership documents are committed

	jobs     chan func() error // bounded: planning stays a few batches ahead
	failed   chan struct{}     // closed when a job fails; the planner stops
	finished chan struct{}     // closed when the goroutine has returned
	err      error             // the first job's failure; read after finished
}

// pendingJobs is how many handed-over pieces of work may wait for the
// writer: each is at most a window of messages, so memory stays flat.
const pendingJobs = 2

// start runs the writing goroutine.
func (w *writer) start() {
	w.jobs = make(chan func() error, pendingJobs)
	w.failed = make(chan struct{})
	w.finished = make(chan struct{})
	go func() {
		defer close(w.finished)
		for job := range w.jobs {
			if w.err != nil {
				continue // drain: nothing after a failure is written
			}
			if w.err = job(); w.err != nil {
				close(w.failed)
			}
		}
	}()
}

// errWriterFailed stops the planner once the writer failed; wait returns
// the writer's own error.
var errWriterFailed = errors.New("the writer failed")

// enqueue hands job to the writer, waiting while it is busy.
func (w *writer) enqueue(ctx context.Context, job func() error) error {
	select {
	case w.jobs <- job:
		return nil
	case <-w.failed:
		return errWriterFailed
	case <-ctx.Done():
		return ctx.Err()
	}
}

// wait lets the writer finish what it was handed and returns its failure.
func (w *writer) wait() error {
	close(w.jobs)
	<-w.finished
	return w.err
}

// plan plans each conversation in turn and hands it to the writer, which
// adds it to sum once it is written.
func (w *writer) plan(ctx context.Context, p *planner, specs []spec, sum *Summary) error {
	for i, s := range specs {
		if err := ctx.Err(); err != nil {
			return err
		}
		p.clock = baseTime + int64(i)*37*60*1000 // staggered starts
		c := s.plan(p, s.n)
		if p.err != nil {
			return p.err
		}
		if err := w.flush(ctx, c, true); err != nil {
			return err
		}
		err := w.enqueue(ctx, func() error {
			if err := w.reads(ctx, c); err != nil {
				return fmt.Errorf("conversation %s: %w", c.cid, err)
			}
			sum.Conversations++
			if c.group != nil {
				sum.Groups++
			}
			sum.Messages += c.count
			sum.Holes += len(c.holes)
			sum.Revoked += w.revoked
			sum.Deleted += w.deleted
			w.revoked, w.deleted = 0, 0
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// notifications writes the notification conversations of the writes
// planned, once every conversation they tell of is written: gathered
// whole (they are a few small conversations, a few hundred KB) and sent
// in a few requests, not three a conversation.
func (w *writer) notifications(ctx context.Context, notes *noticeBook, sum *Summary) error {
	if w.bulk == nil {
		w.bulk = newBulkWriter(w, math.MaxInt)
	}
	w.total += notes.n
	w.start()
	var err error
	for _, c := range notes.conversations() {
		if err = w.flush(ctx, c, true); err != nil {
			break
		}
		count := c.count
		if err = w.enqueue(ctx, func() error { sum.Notices += count; return nil }); err != nil {
			break
		}
	}
	if werr := w.wait(); werr != nil {
		err = werr
	}
	return err
}

// stopped says how far a seed that did not finish got: the messages
// stored and where. What was written is committed first when it can be
// (an interrupted seed), so the count is what stays in the store; after a
// failed commit (a full disk) only what an earlier commit holds counts.
// Once ctx has ended, the step that saw it is not the news (a mark read
// "interrupted, nothing written" after 600,000 messages were stored): the
// interruption and what stands are.
func (w *writer) stopped(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		err = ctx.Err()
	}
	_ = w.st.Backend().Sync(context.WithoutCancel(ctx)) // if it fails, what it held is not counted
	w.settle(false)
	convs := slices.Clone(w.stored)
	for i := range convs {
		convs[i].Unpulled = !w.members[convs[i].Cid]
	}
	return &StoppedError{Stored: w.done, Total: w.total, Convs: convs, Err: err}
}

// landing is a piece of a seed written and not yet known committed: a
// batch of messages of cid up to seq top, or cid's membership documents.
type landing struct {
	mark     uint64 // the backend's written count once it returned
	cid      string
	top      int64
	messages int
	members  bool
}

// landed records what the writer has just written; settle counts it once
// it is committed.
func (w *writer) landed(l landing) {
	l.mark, _ = w.st.Backend().Committed()
	w.pending = append(w.pending, l)
	w.settle(true)
}

// settle counts what is committed of the pending writes, reporting the
// progress when report is set.
func (w *writer) settle(report bool) {
	_, committed := w.st.Backend().Committed()
	n, done := 0, w.done
	for _, l := range w.pending {
		if l.mark > committed {
			break
		}
		n++
		if l.members {
			if w.members == nil {
				w.members = map[string]bool{}
			}
			w.members[l.cid] = true
			continue
		}
		w.done += l.messages
		w.storedUpTo(l.cid, l.top)
	}
	if n == 0 {
		return
	}
	w.pending = slices.Delete(w.pending, 0, n)
	if report && w.progress != nil && w.done > done {
		w.progress(w.done, w.total)
	}
}

// storedUpTo records that cid's messages up to seq are stored.
func (w *writer) storedUpTo(cid string, seq int64) {
	if n := len(w.stored); n > 0 && w.stored[n-1].Cid == cid {
		w.stored[n-1].Last = max(w.stored[n-1].Last, seq)
		return
	}
	w.stored = append(w.stored, StoredConv{Cid: cid, Last: seq})
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

// windowTail is how many of the newest planned messages a flush keeps in
// memory: quotes and forwards look back at most a few of them.
const windowTail = batchSize

// flush hands the writer c's planned messages, all of them or only whole
// batches before the newest windowTail, then the revokes and deletes of
// the seqs handed: their buckets are complete, as a server's are before
// anyone revokes. What is handed over is dropped from c.
func (w *writer) flush(ctx context.Context, c *conv, all bool) error {
	upTo := c.top()
	if !all {
		upTo = (c.top() - windowTail) / batchSize * batchSize
	}
	if upTo <= c.base && !all {
		return nil
	}
	var reads *readPlan
	if w.bulk != nil && all && !c.flushedEarly {
		// Planned whole before any of it is written: its reads are known.
		reads = &readPlan{single: c.kind == bucket.SessionSingle, users: c.users, readSeq: c.readSeq}
		c.readsWritten = true
	}
	c.flushedEarly = c.flushedEarly || !all
	cid, base, msgs := c.cid, c.base, c.msgs[:upTo-c.base]
	c.msgs = slices.Clone(c.msgs[upTo-c.base:])
	c.base = upTo
	var revokes, laterRevokes []revokePlan
	for _, r := range c.revokes {
		if r.seq > upTo {
			laterRevokes = append(laterRevokes, r)
		} else {
			revokes = append(revokes, r)
		}
	}
	c.revokes = laterRevokes
	var deletes, laterDeletes []deletePlan
	for _, d := range c.deletes {
		if d.seq > upTo {
			laterDeletes = append(laterDeletes, d)
		} else {
			deletes = append(deletes, d)
		}
	}
	c.deletes = laterDeletes
	if !c.membersSent && (c.membersKnown || all) {
		// Before the messages: a seed stopped part way leaves every
		// conversation it stored messages of pulled by its members.
		c.membersSent = true
		m := membershipOf(c)
		err := w.enqueue(ctx, func() error {
			if err := w.memberships(ctx, m); err != nil {
				return fmt.Errorf("conversation %s: %w", m.cid, err)
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	return w.enqueue(ctx, func() error {
		if err := w.buckets(ctx, cid, base, msgs, revokes, deletes, reads); err != nil {
			return fmt.Errorf("conversation %s: %w", cid, err)
		}
		return nil
	})
}

// membership is what a deployment keeps beside a conversation's
// messages: each participant's seq_user and conversation documents, and a
// group's records.
type membership struct {
	cid                              string
	seqUsers, convs, groups, members []any
}

// membershipOf is c's membership documents as planned so far: final once
// c.membersKnown or the planning of c is over.
func membershipOf(c *conv) membership {
	m := membership{cid: c.cid}
	for _, u := range c.users {
		su := bucket.SeqUser{UserID: u, ConversationID: c.cid, MinSeq: c.minSeq[u], MaxSeq: c.endSeq[u]}
		if c.readsWritten && c.readSeq[u] >= 1 {
			su.ReadSeq = c.readSeq[u] // what its mark read raises it to
		}
		m.seqUsers = append(m.seqUsers, su)
		doc := bucket.Conversation{OwnerUserID: u, ConversationID: c.cid, ConversationType: c.kind,
			MinSeq: c.minSeq[u], MaxSeq: c.endSeq[u], IsPinned: c.pinned[u]}
		if c.group != nil {
			doc.GroupID = c.group.ID
		} else if u == c.pair[0] {
			doc.UserID = c.pair[1]
		} else {
			doc.UserID = c.pair[0]
		}
		m.convs = append(m.convs, doc)
	}
	if c.group == nil {
		return m
	}
	m.groups = []any{bucket.Group{GroupID: c.group.ID, GroupName: c.group.Name}}
	for _, u := range c.current {
		m.members = append(m.members, bucket.GroupMember{GroupID: c.group.ID, UserID: u,
			RoleLevel: c.group.role(u), JoinTime: time.UnixMilli(c.joined[u]).UTC()})
	}
	return m
}

// memberships writes m, unless the seed was interrupted.
func (w *writer) memberships(ctx context.Context, m membership) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if w.bulk != nil {
		return w.bulk.member(ctx, m) // landed once the bulk writer stores it
	}
	write := context.WithoutCancel(ctx) // begun, written whole
	for _, part := range []struct {
		coll string
		docs []any
	}{{bucket.CollSeqUser, m.seqUsers}, {bucket.CollConversation, m.convs},
		{bucket.CollGroup, m.groups}, {bucket.CollGroupMember, m.members}} {
		if err := w.raw(write, part.coll, part.docs); err != nil {
			return err
		}
	}
	w.landed(landing{cid: m.cid, members: true})
	return nil
}

// reads marks each participant's read position the way a client does: in a
// single chat every received message up to it, in a group just the position.
func (w *writer) reads(ctx context.Context, c *conv) error {
	if c.readsWritten {
		return nil // set in its buckets and seq_user documents, gathered
	}
	if w.bulk != nil { // the mark reads read what was gathered
		if err := w.bulk.flush(ctx); err != nil {
			return err
		}
	}
	for _, u := range c.users {
		top := c.readSeq[u]
		if top < 1 {
			continue
		}
		if c.kind != bucket.SessionSingle {
			if _, err := w.st.MarkRead(ctx, c.cid, []int64{top}, u); err != nil {
				return err
			}
			continue
		}
		if err := w.singleReads(ctx, c, u, top); err != nil {
			return err
		}
	}
	return nil
}

// readBackBuckets is how many buckets singleReads reads back at a time.
const readBackBuckets = batchSize / bucket.BucketSize * 10

// singleReads marks every message up to top that u received read, and top
// itself. The messages are written and no longer in memory: their buckets
// are read back a few at a time to tell who sent each one.
func (w *writer) singleReads(ctx context.Context, c *conv, u string, top int64) error {
	last := bucket.BucketIndex(top)
	for from := int64(0); from <= last; from += readBackBuckets {
		if err := ctx.Err(); err != nil {
			return err
		}
		var indexes []int64
		for i := from; i <= min(last, from+readBackBuckets-1); i++ {
			indexes = append(indexes, i)
		}
		buckets, err := w.st.Buckets(ctx, c.cid, indexes, top)
		if err != nil {
			return err
		}
		w.settle(true) // the read committed what was written before it
		var seqs []int64
		for _, b := range buckets {
			for _, s := range b.Slots {
				if s.Seq < 1 || s.Seq > top || s.Slot == nil || s.Slot.Msg == nil || slices.Contains(c.holes, s.Seq) {
					continue
				}
				if s.Slot.Msg.SendID != u || s.Seq == top {
					seqs = append(seqs, s.Seq)
				}
			}
		}
		slices.Sort(seqs)
		if len(seqs) == 0 {
			continue
		}
		if _, err := w.st.MarkRead(ctx, c.cid, seqs, u); err != nil {
			return err
		}
	}
	return nil
}
