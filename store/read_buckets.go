package store

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"sort"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store/bucket"
)

// NewestBuckets reads the bucket holding each window's MaxSeq, for every
// conversation at once: one find however many windows. As in Buckets, the
// cache (one round trip per conversation) goes first, its slots replace the
// stored ones, and a bucket it holds entirely is not read from the backend.
// Empty windows are skipped; a bucket neither stored nor cached is left out.
// A bucket Windows already read (to check a cached max seq) is not read again.
func (s *messageReads) NewestBuckets(ctx context.Context, windows []bucket.Window) (map[string]*bucket.Bucket, error) {
	ends := map[string]int64{} // cid -> max seq
	need := map[string]int64{} // the ones the cache did not hold entirely
	cached := map[string]map[int64]*bucket.Slot{}
	reused := map[string]*bucket.Bucket{} // read from the backend by Windows already
	for _, w := range windows {
		if w.MaxSeq <= 0 {
			continue
		}
		hits, complete := s.cachedUpTo(ctx, w.Cid, w.MaxSeq)
		ends[w.Cid], cached[w.Cid] = w.MaxSeq, hits
		switch {
		case w.StoredNewest != nil && w.StoredNewest.Index == bucket.BucketIndex(w.MaxSeq):
			reused[w.Cid] = w.StoredNewest
		case !complete:
			need[w.Cid] = w.MaxSeq
		}
	}
	found, err := s.bucketsAt(ctx, need)
	if err != nil {
		return nil, err
	}
	maps.Copy(found, reused)
	for cid, hits := range cached {
		if len(hits) == 0 {
			continue
		}
		b := found[cid]
		if b == nil {
			b = bucket.MissingBucket(cid, bucket.BucketIndex(ends[cid]))
		}
		_, asked := need[cid]
		_, kept := reused[cid]
		overlay(b, hits, asked || kept) // either way the bucket came from the backend
		found[cid] = b
	}
	return found, nil
}

// cachedUpTo asks the cache for the seqs of the bucket holding maxSeq, up to
// maxSeq; complete is true when it had them all.
func (s *messageReads) cachedUpTo(ctx context.Context, cid string, maxSeq int64) (map[int64]*bucket.Slot, bool) {
	if s.cache == nil {
		return nil, false
	}
	seqs := seqRange(bucket.FirstSeq(bucket.BucketIndex(maxSeq)), bucket.SlotIndex(maxSeq)+1)
	hits := s.cachedSlots(ctx, cid, seqs)
	return hits, len(hits) == len(seqs)
}

// cachedSlots is one cache round trip for seqs, counted as hits and misses;
// a failing cache reads as all misses (Stats keeps the error).
func (s *messageReads) cachedSlots(ctx context.Context, cid string, seqs []int64) map[int64]*bucket.Slot {
	if s.cache == nil || len(seqs) == 0 {
		return nil
	}
	hits, err := s.cache.Slots(ctx, cid, seqs)
	s.cacheResult(err)
	if err != nil {
		return nil
	}
	s.cacheHits.Add(int64(len(hits)))
	s.cacheMisses.Add(int64(len(seqs) - len(hits)))
	return hits
}

// overlay puts cached slots over the stored ones: Redis holds the newer
// state. read says b came from the backend, so a cached message over one of
// its holes is not in the store yet (where b holds what is stored).
func overlay(b *bucket.Bucket, hits map[int64]*bucket.Slot, read bool) {
	for j := range b.Slots {
		if slot := hits[b.Slots[j].Seq]; slot != nil {
			cs := bucket.CachedSlot(b.Slots[j].Seq, slot)
			cs.Unstored = read && b.Holds(b.Slots[j].Seq) && b.Slots[j].IsHole()
			b.Slots[j] = cs
		}
	}
}

// Buckets reads the given buckets of cid, newest state first from the cache
// (seqs up to maxSeq), the rest from the backend in one find per FindBatch
// buckets. Buckets not stored come back as all holes. Order follows indexes.
func (s *messageReads) Buckets(ctx context.Context, cid string, indexes []int64, maxSeq int64) ([]*bucket.Bucket, error) {
	return s.bucketsIn(ctx, cid, indexes, maxSeq, 1, bucket.MaxSeq)
}

// bucketsIn is Buckets reading from the backend only seqs from..to of the
// buckets that hold seqs outside it (a range's edges), where the backend
// can cut them (FindSlotRanges, the same one round trip per FindBatch
// buckets); the cache is asked as Buckets asks it, so what it holds and
// which buckets it spares a read are the same.
func (s *messageReads) bucketsIn(ctx context.Context, cid string, indexes []int64, maxSeq, from, to int64) ([]*bucket.Bucket, error) {
	var cached map[int64]*bucket.Slot
	if s.cache != nil && maxSeq > 0 {
		var seqs []int64
		for _, idx := range indexes {
			for seq := bucket.FirstSeq(idx); seq <= bucket.LastSeq(idx) && seq <= maxSeq; seq++ {
				seqs = append(seqs, seq)
			}
		}
		cached = s.cachedSlots(ctx, cid, seqs)
	}
	// A bucket whose every visible seq is cached needs no backend read.
	var missing []int64
	for _, idx := range indexes {
		complete := s.cache != nil && maxSeq > 0
		for seq := bucket.FirstSeq(idx); complete && seq <= bucket.LastSeq(idx) && seq <= maxSeq; seq++ {
			if cached[seq] == nil {
				complete = false
			}
		}
		if !complete {
			missing = append(missing, idx)
		}
	}
	byIndex := make(map[int64]*bucket.Bucket, len(missing))
	for start := 0; start < len(missing); start += s.FindBatch {
		if err := s.readBuckets(ctx, cid, missing[start:min(start+s.FindBatch, len(missing))], from, to, byIndex); err != nil {
			return nil, err
		}
	}
	out := make([]*bucket.Bucket, len(indexes))
	for i, idx := range indexes {
		b, read := byIndex[idx]
		if b == nil {
			b = bucket.MissingBucket(cid, idx)
		}
		overlay(b, cached, read)
		out[i] = b
	}
	return out, nil
}

// readBuckets reads the buckets indexes of cid from the backend in one
// round trip into byIndex (nil: not stored), each cut to seqs from..to
// where the backend can: one find of whole buckets when none needs a cut.
func (s *messageReads) readBuckets(ctx context.Context, cid string, indexes []int64, from, to int64, byIndex map[int64]*bucket.Bucket) error {
	ranges := make([]SlotRange, len(indexes))
	partly := false
	for i, idx := range indexes {
		first, last := bucket.SlotIndex(max(from, bucket.FirstSeq(idx))), bucket.SlotIndex(min(to, bucket.LastSeq(idx)))
		ranges[i] = SlotRange{DocID: bucket.DocID(cid, idx), First: first, N: last - first + 1}
		partly = partly || !ranges[i].Whole()
	}
	if !partly {
		ids := make([]string, len(indexes))
		asked := make(map[string]int64, len(indexes))
		for i, r := range ranges {
			ids[i], asked[r.DocID] = r.DocID, indexes[i]
			byIndex[indexes[i]] = nil
		}
		raws, err := s.backend.FindBuckets(ctx, ids)
		if err != nil {
			return err
		}
		for _, raw := range raws {
			b := bucket.DecodeBucket(raw)
			if idx, ok := asked[b.DocID]; ok {
				byIndex[idx] = b
			}
		}
		return nil
	}
	read, err := s.backend.FindSlotRanges(ctx, ranges)
	if err != nil {
		return err
	}
	if len(read) != len(ranges) {
		return fmt.Errorf("read %d slot ranges, asked %d", len(read), len(ranges))
	}
	for i, idx := range indexes {
		switch r := read[i]; {
		case r.Raw == nil:
			byIndex[idx] = nil
		case r.Sliced:
			byIndex[idx] = bucket.DecodeCut(r.Raw, true, cid, idx, ranges[i].First, ranges[i].N)
		default:
			byIndex[idx] = bucket.DecodeBucket(r.Raw)
		}
	}
	return nil
}

var errFound = errors.New("found")

// HoldsAny reports whether coll of b holds at least one document, reading at
// most one.
func HoldsAny(ctx context.Context, b Backend, coll string) (bool, error) {
	err := b.ScanRaw(ctx, coll, "", func(bson.Raw) error { return errFound })
	if errors.Is(err, errFound) {
		return true, nil
	}
	return false, err
}

// bucketsAt reads, in one find, the bucket of cid holding seq for each
// cid -> seq of ends, keyed by cid.
func (s *messageReads) bucketsAt(ctx context.Context, ends map[string]int64) (map[string]*bucket.Bucket, error) {
	found := map[string]*bucket.Bucket{}
	if len(ends) == 0 {
		return found, nil
	}
	want := make(map[string]string, len(ends)) // doc_id -> cid
	ids := make([]string, 0, len(ends))
	for cid, seq := range ends {
		id := bucket.DocIDForSeq(cid, seq)
		want[id] = cid
		ids = append(ids, id)
	}
	sort.Strings(ids) // the same query for the same conversations
	raws, err := s.backend.FindBuckets(ctx, ids)
	if err != nil {
		return nil, err
	}
	for _, raw := range raws {
		b := bucket.DecodeBucket(raw)
		if cid, ok := want[b.DocID]; ok {
			found[cid] = b
		}
	}
	return found, nil
}
