package timeline

import (
	"slices"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/chatlens/chatlens/projection"
	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/ui/pages/timeline/model"

	"github.com/chatlens/chatlens/ui/common"
)

// The timeline's reads run in these commands, off the UI goroutine; each
// reply carries its request number (common.ReqID).

type bucketsLoadedMsg struct {
	req     common.ReqID
	indexes []int64
	buckets []*bucket.Bucket
	read    model.Read // what the timeline's model asked for
	// quoted are the slots, by seq, that quotes in buckets (or, for a
	// quotes-only read, in the held ones) quote: for rule 5, not for display.
	quoted     map[int64]bucket.StoredSlot
	quotedSeqs []int64 // what a quotes-only read asked for
	// gap is set when the bucket asked for held nothing and the read went
	// on to the nearest stored bucket beyond it (in buckets, if any).
	gap *gap
	err error
}

// bucketRequest is one read for the timeline.
type bucketRequest struct {
	req            common.ReqID
	cid            string
	indexes        []int64
	minSeq, maxSeq int64
	read           model.Read
	// skipGap is -1 (older) or 1 (newer) for a read at an end of the run:
	// if the bucket holds nothing, find the gap beyond it (findGap).
	skipGap int
	// have and haveSeqs are what the timeline holds when asking (its
	// buckets by index, the quoted slots beside them by seq): quotes into
	// them need no read. Built for the request, read-only.
	have, haveSeqs map[int64]bool
	// seqs are the quoted seqs a quotes-only read asks for.
	seqs []int64
}

// loadBuckets reads the requested buckets and, in the same command, the
// slots their quotes quote that are neither among them nor held: one more
// read of those slots (not their buckets), only when some quote reaches
// that far (rule 5).
func loadBuckets(e *common.Common, r bucketRequest) tea.Cmd {
	return func() tea.Msg {
		msg := bucketsLoadedMsg{req: r.req, read: r.read, indexes: r.indexes}
		msg.buckets, msg.err = e.Store.Buckets(e.Ctx, r.cid, r.indexes, r.maxSeq)
		if msg.err != nil {
			return msg
		}
		// The last bucket asked for, the way the read goes, holding nothing:
		// on to the nearest stored one beyond it, and the gap between.
		far := slices.IndexFunc(msg.buckets, func(b *bucket.Bucket) bool { return b.Index == r.indexes[len(r.indexes)-1] })
		if r.skipGap != 0 && far >= 0 && store.NotStored(msg.buckets[far]) {
			g, next, err := findGap(e, r, msg.buckets[far].Index)
			if err != nil {
				msg.err = err
				return msg
			}
			msg.gap, msg.buckets = &g, slices.Delete(msg.buckets, far, far+1)
			if next >= 0 {
				bs, err := e.Store.Buckets(e.Ctx, r.cid, []int64{next}, r.maxSeq)
				if msg.err = err; err != nil {
					return msg
				}
				msg.buckets = append(msg.buckets, bs...)
			}
		}
		read := map[int64]bool{}
		for _, b := range msg.buckets {
			read[b.Index] = true
		}
		held := func(i int64) bool { return read[i] || r.have[i] }
		// Quotes that reach only into the bucket the next read ahead reads
		// take that bucket whole now, in place of their slots: it is read
		// once, not their slots now and the whole of it soon after.
		if next, ok := r.nextAhead(msg); ok {
			if far := r.quotesIn(msg.buckets, r.minSeq, r.maxSeq, held); len(far) > 0 && allInBucket(far, next) {
				bs, err := e.Store.Buckets(e.Ctx, r.cid, []int64{next}, r.maxSeq)
				if err != nil {
					msg.err = err
					return msg
				}
				if len(bs) == 1 && !store.NotStored(bs[0]) { // a missing one is skipped as a gap when read ahead
					msg.buckets, read[next] = append(msg.buckets, bs[0]), true
				}
			}
		}
		msg.quoted, msg.err = e.Store.QuotedSlots(e.Ctx, r.cid, msg.buckets, r.minSeq, r.maxSeq, r.maxSeq, held, r.quotesIn)
		return msg
	}
}

// nextAhead is the bucket the read ahead after this edge read would ask
// for: the one past the bucket read, in the read's direction, inside the
// window and not held. None for other reads, or one that found a gap.
func (r bucketRequest) nextAhead(msg bucketsLoadedMsg) (int64, bool) {
	if r.skipGap == 0 || msg.gap != nil || len(msg.buckets) != 1 {
		return 0, false
	}
	next := msg.buckets[0].Index + int64(r.skipGap)
	if next < bucket.BucketIndex(r.minSeq) || next > bucket.BucketIndex(r.maxSeq) || r.have[next] {
		return 0, false
	}
	return next, true
}

func allInBucket(seqs []int64, index int64) bool {
	return !slices.ContainsFunc(seqs, func(seq int64) bool { return bucket.BucketIndex(seq) != index })
}

// quotesIn is projection.QuotedSeqs less the quoted slots the timeline
// already keeps beside its run.
func (r bucketRequest) quotesIn(buckets []*bucket.Bucket, from, to int64, held func(int64) bool) []int64 {
	return slices.DeleteFunc(projection.QuotedSeqs(buckets, from, to, held), func(seq int64) bool { return r.haveSeqs[seq] })
}

// batchLookup resolves the quotes of a batch of buckets read in a command
// (seqs minSeq..maxSeq): quotes reaching outside the batch read only their
// quoted slots.
func batchLookup(e *common.Common, cid string, bs []*bucket.Bucket, minSeq, maxSeq int64) (bucket.Lookup, error) {
	far, err := e.Store.QuotedSlots(e.Ctx, cid, bs, minSeq, maxSeq, maxSeq, inBatch(bs), projection.QuotedSeqs)
	if err != nil {
		return nil, err
	}
	return bucket.LookupIn(bs, far), nil
}

// loadQuoted reads only the slots that quotes in held buckets need
// (r.seqs, found by the same rule on the held run), when what the command
// that loaded them read is gone by the time it landed.
func loadQuoted(e *common.Common, r bucketRequest) tea.Cmd {
	return func() tea.Msg {
		slots, err := e.Store.Slots(e.Ctx, r.cid, r.seqs, r.maxSeq)
		return bucketsLoadedMsg{req: r.req, quoted: slots, quotedSeqs: r.seqs, err: err}
	}
}

// MembersLoadedMsg brings the members of the open conversation, read on
// first need (members.go): the root takes it (TakeMembers), since a revoke
// may wait for it.
type MembersLoadedMsg struct {
	req     common.ReqID
	members []store.Member
	err     error
}

type windowLoadedMsg struct {
	req    common.ReqID
	viewer string
	win    bucket.Window
	err    error
}

// loadWindow reads viewer's window of the conversation of base, another
// viewer's window, whose start and end for everyone it shares: no bucket
// is read.
func loadWindow(e *common.Common, req common.ReqID, viewer string, base bucket.Window) tea.Cmd {
	return func() tea.Msg {
		w, err := e.Store.WindowAt(e.Ctx, viewer, base)
		if err != nil {
			return windowLoadedMsg{req: req, viewer: viewer, err: err}
		}
		return windowLoadedMsg{req: req, viewer: viewer, win: *w}
	}
}
