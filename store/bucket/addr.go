package bucket

import (
	"fmt"
	"strconv"
	"strings"
)

// BucketSize is the number of slots in one msg document. Position in the
// msgs array encodes the seq, so this is part of the storage format.
const BucketSize = 100

// MaxBucketIndex is the highest bucket index whose seqs all fit in an
// int64: the doc_id ":92233720368547758" would hold seqs past 2^63-1, which
// wrap negative. A stored bucket beyond it cannot be addressed by seq.
const MaxBucketIndex = (1<<63-1)/BucketSize - 1

// MaxSeq is the last seq of bucket MaxBucketIndex: the highest seq any
// command can name or walk to without overflowing.
const MaxSeq = (MaxBucketIndex + 1) * BucketSize

// BucketIndex is the bucket that holds seq (seqs start at 1).
// (seq-1)/100, never seq/100: 100 must land in bucket 0 beside 1..99.
func BucketIndex(seq int64) int64 { return (seq - 1) / BucketSize }

// SlotIndex is the position of seq inside its bucket.
func SlotIndex(seq int64) int { return int((seq - 1) % BucketSize) }

// FirstSeq is the seq held by slot 0 of bucket index.
func FirstSeq(index int64) int64 { return index*BucketSize + 1 }

// LastSeq is the seq held by the last slot of bucket index.
func LastSeq(index int64) int64 { return (index + 1) * BucketSize }

// DocID names bucket index of conversation cid.
func DocID(cid string, index int64) string { return cid + ":" + strconv.FormatInt(index, 10) }

// DocIDForSeq names the bucket that holds seq.
func DocIDForSeq(cid string, seq int64) string { return DocID(cid, BucketIndex(seq)) }

// ParseDocID splits "<cid>:<index>" at the last colon. Conversation IDs
// contain no colon in OpenIM, but splitting at the last one keeps odd IDs
// readable. An error means the document cannot be addressed by seq.
func ParseDocID(docID string) (cid string, index int64, err error) {
	i := strings.LastIndexByte(docID, ':')
	if i <= 0 {
		return "", 0, fmt.Errorf("doc_id %q has no \"<conversation>:<index>\" form", docID)
	}
	index, err = strconv.ParseInt(docID[i+1:], 10, 64)
	if err != nil || index < 0 || docID[i+1:] != strconv.FormatInt(index, 10) {
		return docID[:i], 0, fmt.Errorf("doc_id %q has a suffix that is not a bucket index", docID)
	}
	if index > MaxBucketIndex {
		return docID[:i], 0, fmt.Errorf("doc_id %q: bucket index %d is past %d, the last whose seqs fit in 64 bits",
			docID, index, int64(MaxBucketIndex))
	}
	return docID[:i], index, nil
}

// BucketsCovering lists the bucket indexes holding seqs from..to inclusive.
func BucketsCovering(from, to int64) []int64 {
	if from < 1 {
		from = 1
	}
	if to < from {
		return nil
	}
	out := make([]int64, 0, BucketIndex(to)-BucketIndex(from)+1)
	for i := BucketIndex(from); i <= BucketIndex(to); i++ {
		out = append(out, i)
	}
	return out
}
