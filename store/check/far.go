package check

import (
	"fmt"
	"slices"

	"github.com/chatlens/chatlens/store/bucket"
)

// farGap is how many empty buckets before a stored one make it suspect:
// the server hands out seqs one after another, so a conversation's buckets
// run on without holes of this size (100,000 seqs); a bucket far past the
// others usually comes from a bad seq (a MALLOC_SEQ set by hand, a corrupt
// import) and drags every reader's max seq out with it.
const farGap = 1000

// checkFarBuckets flags each bucket that stands more than farGap buckets
// past the conversation's previous one. Leading buckets may be gone (the
// server deletes expired and cleared ones), so the first is never flagged.
func (r *Report) checkFarBuckets(indexes map[string][]int64) {
	cids := make([]string, 0, len(indexes))
	for cid := range indexes {
		cids = append(cids, cid)
	}
	slices.Sort(cids)
	for _, cid := range cids {
		idx := indexes[cid]
		slices.Sort(idx)
		prev := int64(-1)
		for _, i := range idx {
			if prev >= 0 && i-prev > farGap {
				r.add(Problem{Kind: bucket.KindDocID, DocID: bucket.DocID(cid, i), Slot: -1, Seq: bucket.FirstSeq(i),
					Reason: fmt.Sprintf("bucket %d stands %d buckets past the one before it (bucket %d): seqs %d-%d were never written",
						i, i-prev-1, prev, bucket.FirstSeq(prev+1), bucket.FirstSeq(i)-1)})
			}
			prev = i
		}
	}
}
