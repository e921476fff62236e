package model

import "github.com/chatlens/chatlens/store/bucket"

// trim lets go of held buckets more than Keep units from the cursor's
// bucket, a run of buckets not stored or of holes only counting as one, so memory stays
// flat however far the cursor goes. Runs of holes and of missing buckets
// stay known: they cost a few words each.
func (p planner) trim() {
	m := p.m
	cb, tb := bucket.BucketIndex(m.cursor), bucket.BucketIndex(m.top)
	if m.top > m.cursor || m.plan().unitsBetween(tb, cb) >= m.cfg.Keep {
		m.top, tb = m.cursor, cb // a top the page has not settled yet: the screen starts at the cursor
	}
	for idx := range m.k.buckets {
		_, holesOnly := m.k.empty.find(idx)
		near := idx >= cb-1 && idx <= cb+1 || idx >= tb-1 && idx <= tb+1
		if holesOnly && !near || m.plan().unitsBetween(cb, idx) > m.cfg.Keep && m.plan().unitsBetween(tb, idx) > m.cfg.Keep {
			m.dropped = append(m.dropped, m.k.buckets[idx])
			m.k.drop(idx) // a bucket of holes only is known without its slots
		}
	}
}

// unitsBetween counts the units from bucket a to bucket b.
func (p planner) unitsBetween(a, b int64) int {
	m := p.m
	if a > b {
		a, b = b, a
	}
	n := b - a
	for _, set := range []spans{m.k.absent, m.k.empty} {
		for _, sp := range set {
			lo, hi := max(sp.lo, a+1), min(sp.hi, b-1)
			if lo <= hi {
				n -= hi - lo // the run counts as one
			}
		}
	}
	return int(min(n, 1<<30))
}

// TakeDropped is the buckets let go of since it was last asked, once: the
// page keeps from them the slots that held quotes still quote.
func (m *Model) TakeDropped() []*bucket.Bucket {
	out := m.dropped
	m.dropped = nil
	return out
}
