// Package check verifies a store against the storage contract of OPENIM.md:
// the shape of every msg document and slot, the unique doc_id index, and the
// seq documents against the messages stored. It reads only.
package check

import (
	"context"
	"fmt"
	"slices"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
)

// MaxListed is the most problems a report lists one by one; every problem is
// counted in the summary however many there are.
const MaxListed = 1000

// seqBatch is the most conversations whose seq documents are read at once.
const seqBatch = 500

// Run checks the msg documents of conversation cid, or of every conversation
// when cid is "", then the doc_id index, the query plans (on a backend that
// can explain them) and the seq documents. progress, if
// not nil, is called after each document with the documents done and the
// total; total is 0 when unknown (every conversation: counting first would
// cost a round trip per conversation). An error means the store could not be
// read; problems in the data are in the report.
func Run(ctx context.Context, st *store.Store, cid string, progress func(done, total int)) (*Report, error) {
	b := st.Backend()
	r := newReport(cid)
	total, prefix := 0, ""
	if cid != "" {
		prefix = cid + ":"
		ids, err := b.BucketIDs(ctx, cid)
		if err != nil {
			return nil, fmt.Errorf("check: listing the buckets of %s: %w", quote(cid), err)
		}
		total = len(ids)
	}
	probe := ""                      // a stored bucket to ask for one slot of
	lastFilled := map[string]int64{} // conversation -> highest seq holding a message
	indexes := map[string][]int64{}  // conversation -> its bucket indexes, for far buckets
	err := b.ScanRaw(ctx, bucket.CollMsg, prefix, func(raw bson.Raw) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		d := Inspect(raw)
		r.addDocument(d)
		if bk := d.Bucket; addressable(bk.DocID) {
			lastFilled[bk.Cid] = max(lastFilled[bk.Cid], bk.LastFilledSeq())
			indexes[bk.Cid] = append(indexes[bk.Cid], bk.Index)
			if probe == "" && len(d.Bucket.Problems) == 0 {
				probe = bk.DocID
			}
		}
		if progress != nil {
			progress(r.Documents, max(total, r.Documents))
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("check: reading msg documents: %w", err)
	}
	r.checkFarBuckets(indexes)
	r.checkIndexes(ctx, b)
	r.checkPlans(ctx, b)
	r.checkSlotReads(ctx, b, probe)
	if err := r.checkSeqRecords(ctx, b, lastFilled); err != nil {
		return nil, err
	}
	if err := r.checkSeqUserDuplicates(ctx, b, cid); err != nil {
		return nil, err
	}
	return r, nil
}

// checkIndexes looks for the unique {doc_id: 1} index on msg, without which
// two writers can create the same bucket twice: the insert state machine
// (OpenIM's and chatlens's) learns that another writer created a bucket
// first only from its duplicate-key error. That one is a problem; any other
// index OpenIM creates is advice (adviseIndexes).
func (r *Report) checkIndexes(ctx context.Context, b store.Backend) {
	idx, err := b.Indexes(ctx)
	if err != nil {
		r.add(Problem{Kind: bucket.KindIndex, Slot: -1, Reason: "could not list the indexes: " + err.Error()})
		return
	}
	r.Indexes = idx
	r.adviseIndexes(b, idx)
	var plain *store.IndexInfo // a doc_id index that is not unique
	for i, ix := range idx[bucket.CollMsg] {
		if slices.Equal(ix.Keys, []string{"doc_id"}) {
			if ix.Unique {
				return
			}
			plain = &idx[bucket.CollMsg][i]
		}
	}
	if plain != nil {
		r.add(Problem{Kind: bucket.KindIndex, Slot: -1,
			Reason: fmt.Sprintf("msg index %s on {doc_id: 1} is not unique: a bucket can be created twice", plain.Name)})
		return
	}
	r.add(Problem{Kind: bucket.KindIndex, Slot: -1,
		Reason: "msg has no unique index on {doc_id: 1}: a bucket can be created twice and reads scan the collection"})
}

// checkSeqRecords flags seq documents whose max_seq, a reserved upper bound,
// is below a seq that is already stored, and conversations with stored
// seqs and no seq document at all, the worst case: OpenIM's Malloc
// (mgo/seq_conversation.go) then starts again from 0 and hands out seq 1,
// whose slot already holds a message.
func (r *Report) checkSeqRecords(ctx context.Context, b store.Backend, lastFilled map[string]int64) error {
	cids := make([]string, 0, len(lastFilled))
	for c, last := range lastFilled {
		if last > 0 {
			cids = append(cids, c)
		}
	}
	slices.Sort(cids)
	for start := 0; start < len(cids); start += seqBatch {
		batch := cids[start:min(start+seqBatch, len(cids))]
		recs, err := b.SeqRecords(ctx, batch)
		if err != nil {
			return fmt.Errorf("check: reading seq documents: %w", err)
		}
		found := map[string]bool{}
		for _, rec := range recs {
			last, ok := lastFilled[rec.ConversationID]
			if !ok {
				continue
			}
			found[rec.ConversationID] = true
			if rec.MaxSeq >= last {
				continue
			}
			r.add(Problem{Kind: bucket.KindSeqRecord, DocID: bucket.DocIDForSeq(rec.ConversationID, last),
				Slot: bucket.SlotIndex(last), Seq: last,
				Reason: fmt.Sprintf("seq document says max_seq %d but seq %d is stored", rec.MaxSeq, last)})
		}
		for _, c := range batch {
			if !found[c] {
				last := lastFilled[c]
				r.add(Problem{Kind: bucket.KindSeqRecord, DocID: bucket.DocIDForSeq(c, last),
					Slot: bucket.SlotIndex(last), Seq: last,
					Reason: fmt.Sprintf("no seq document for %s: the server would hand out seq 1 to %d again", quote(c), last)})
			}
		}
		r.SeqChecked += len(recs)
	}
	r.Conversations = len(cids)
	return nil
}

// checkSeqUserDuplicates flags two seq_user documents for one user and
// conversation: OpenIM's index on them is not unique and its writes are
// upserts (pkg/common/storage/database/mgo/seq_user.go, setSeq), so two
// first writes racing can both insert. The server reads min_seq and
// max_seq from the first in natural order (getSeq, a FindOne) and
// read_seq from the last (GetUserReadSeqs), as chatlens shows them;
// neither is deleted.
func (r *Report) checkSeqUserDuplicates(ctx context.Context, b store.Backend, cid string) error {
	type key struct{ uid, cid string }
	seen := map[key]int{}
	var order []key
	err := b.ScanRaw(ctx, bucket.CollSeqUser, "", func(raw bson.Raw) error {
		su := bucket.DecodeSeqUser(raw)
		if cid != "" && su.ConversationID != cid {
			return nil
		}
		k := key{su.UserID, su.ConversationID}
		if seen[k]++; seen[k] == 2 {
			order = append(order, k)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("check: reading seq_user documents: %w", err)
	}
	for _, k := range order {
		r.add(Problem{Kind: bucket.KindDuplicate, DocID: k.cid, Slot: -1,
			Reason: fmt.Sprintf("%d seq_user documents for user %s in %s (OpenIM's index on the pair is not unique): the server reads min_seq and max_seq from the first stored, read_seq from the last, as chatlens shows them; chatlens deletes none",
				seen[k], quote(k.uid), quote(k.cid))})
	}
	return nil
}

// addressable reports a doc_id whose slots have known seqs.
func addressable(docID string) bool {
	_, _, err := bucket.ParseDocID(docID)
	return err == nil
}

// checkSlotReads finds out, by reading one slot of a sound bucket, whether
// the server cuts a bucket to the slots asked ($slice projection) or the
// inspector, quotes and write checks read whole buckets here.
func (r *Report) checkSlotReads(ctx context.Context, b store.Backend, docID string) {
	if b.SlotReads() == store.SlotsUnknown && docID != "" {
		_, _, _ = b.FindSlots(ctx, docID, 1, 1) // an error leaves the mode unknown, which is reported
	}
	r.SlotReads = b.SlotReads()
}
