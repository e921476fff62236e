package ui

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/chatlens/chatlens/projection"
	"github.com/chatlens/chatlens/store"
)

// search scans the open conversation from the newest bucket to the oldest,
// one find of a batch of buckets per step, keeping only the seqs that
// match, so a search holds no more memory than its hits. It scans the
// buckets that are stored (listed by its first step), not every index up
// to max seq: a bucket stored at index 10,000,000 is one bucket to scan.
type search struct {
	id       int
	query    string
	hits     []int64 // newest first
	scanning bool
	stored   []int64 // the stored buckets, ascending; nil until listed
	next     int     // how many of stored, from the newest, are scanned
	scanned  int
	total    int
	err      error
}

type searchStepMsg struct {
	id      int
	cid     string
	stored  []int64 // the first step's listing of the stored buckets
	hits    []int64
	scanned int
	err     error
}

func (m *Model) startSearch(q string) tea.Cmd {
	t := m.tl
	q = strings.TrimSpace(q)
	if t == nil || q == "" || t.empty() {
		return nil
	}
	m.searchID++
	t.search = search{id: m.searchID, query: q, scanning: true}
	return t.searchStep()
}

// searchStep reads the next batch of buckets and matches the query against
// what the viewer sees. The first step lists the stored buckets first.
func (t *timeline) searchStep() tea.Cmd {
	s := t.search
	e, cid, conv, viewer := t.e, t.cid, t.conv, t.viewer
	win := t.win
	minSeq, maxSeq := t.minSeq(), t.maxSeq()
	q := strings.ToLower(s.query)
	return func() tea.Msg {
		stored, listed := s.stored, []int64(nil)
		if stored == nil {
			var err error
			if stored, err = e.st.StoredIndexes(e.ctx, &win, minSeq, maxSeq); err != nil {
				return searchStepMsg{id: s.id, cid: cid, err: err}
			}
			listed = append([]int64{}, stored...) // non-nil even when empty
		}
		var idx []int64 // the next batch, newest first
		for i := len(stored) - 1 - s.next; i >= 0 && len(idx) < e.st.FindBatch; i-- {
			idx = append(idx, stored[i])
		}
		if len(idx) == 0 {
			return searchStepMsg{id: s.id, cid: cid, stored: listed}
		}
		bs, err := e.st.Buckets(e.ctx, cid, idx, maxSeq)
		if err != nil {
			return searchStepMsg{id: s.id, cid: cid, err: err}
		}
		// Quotes into this batch are checked; others match on what the
		// timeline shows of them until resolved, the quoted seq only.
		quoted := projection.BucketLookup(bs...)
		var hits []int64
		for _, b := range bs {
			for i := store.BucketSize - 1; i >= 0; i-- {
				slot := b.Slots[i]
				if slot.Seq < minSeq || slot.Seq > maxSeq {
					continue
				}
				msg := projection.View(slot, b.DocID, viewer, conv, quoted)
				if strings.Contains(strings.ToLower(projection.Summary(msg)), q) {
					hits = append(hits, slot.Seq)
				}
			}
		}
		return searchStepMsg{id: s.id, cid: cid, stored: listed, hits: hits, scanned: len(idx)}
	}
}

func (m *Model) searchStep(msg searchStepMsg) tea.Cmd {
	t := m.tl
	if t == nil || msg.cid != t.cid || msg.id != t.search.id {
		return nil // a search already replaced or left
	}
	s := &t.search
	if msg.err != nil {
		s.scanning, s.err = false, msg.err
		m.setStatus("search failed: "+msg.err.Error(), true)
		return nil
	}
	if msg.stored != nil {
		s.stored, s.total = msg.stored, len(msg.stored)
	}
	first := len(s.hits) == 0 && len(msg.hits) > 0
	s.hits = append(s.hits, msg.hits...)
	s.scanned += msg.scanned
	s.next += msg.scanned
	var cmds []tea.Cmd
	if first {
		cmds = append(cmds, t.jumpTo(s.hits[0]))
	}
	if s.next < len(s.stored) && msg.scanned > 0 {
		cmds = append(cmds, t.searchStep())
	} else {
		s.scanning = false
		if len(s.hits) == 0 {
			m.setStatus(fmt.Sprintf("no match for %q", s.query), true)
		}
	}
	return tea.Batch(cmds...)
}

// stepHit moves to the next hit older (n) or newer (N) than the cursor.
func (m *Model) stepHit(older bool) tea.Cmd {
	t := m.tl
	if len(t.search.hits) == 0 {
		m.setStatus("no search hits (/ to search)", true)
		return nil
	}
	hits := t.search.hits
	if older {
		for _, h := range hits {
			if h < t.cursor {
				return t.jumpTo(h)
			}
		}
	} else {
		for i := len(hits) - 1; i >= 0; i-- {
			if hits[i] > t.cursor {
				return t.jumpTo(hits[i])
			}
		}
	}
	m.setStatus("no more hits that way", false)
	return nil
}

// searchProgress is the footer line while a search runs or has hits.
func (t *timeline) searchProgress() string {
	s := t.search
	if s.query == "" || s.err != nil {
		return ""
	}
	pos := ""
	for i, h := range s.hits {
		if h == t.cursor {
			pos = fmt.Sprintf("hit %d of ", i+1)
		}
	}
	line := fmt.Sprintf("search %q: %s%d hits", projection.SingleLine(s.query), pos, len(s.hits))
	if s.scanning {
		line += fmt.Sprintf(" · scanning %d/%d buckets", s.scanned, s.total)
	}
	return line + " · n/N step"
}

type jumpResolvedMsg struct {
	cid string
	seq int64
	err error
}

var dateLayouts = []string{"2006-01-02 15:04:05", "2006-01-02 15:04", "2006-01-02T15:04", "2006-01-02"}

// jump goes to a seq ("123") or to the first message sent at or after a
// date ("2024-05-01", "2024-05-01 14:30", in the display time zone).
func (m *Model) jump(input string) tea.Cmd {
	t := m.tl
	input = strings.TrimSpace(input)
	if t == nil || input == "" {
		return nil
	}
	if t.empty() {
		m.setStatus("nothing to jump to", true)
		return nil
	}
	if seq, err := strconv.ParseInt(input, 10, 64); err == nil {
		if seq < t.minSeq() || seq > t.maxSeq() {
			m.setStatus(fmt.Sprintf("seq %d is outside %d..%d", seq, t.minSeq(), t.maxSeq()), true)
			return nil
		}
		return t.jumpTo(seq)
	}
	for _, layout := range dateLayouts {
		if when, err := time.ParseInLocation(layout, input, m.e.loc); err == nil {
			m.setStatus("looking for "+input+"…", false)
			return resolveDate(m.e, t.cid, t.minSeq(), t.maxSeq(), when.UnixMilli())
		}
	}
	m.setStatus(fmt.Sprintf("%q is neither a seq nor a date like 2006-01-02 15:04", input), true)
	return nil
}

// resolveDate finds the first seq sent at or after target by a binary
// search over buckets (send times grow with seq), one find per probe.
func resolveDate(e *env, cid string, minSeq, maxSeq, target int64) tea.Cmd {
	return func() tea.Msg {
		read := func(i int64) (*store.Bucket, error) {
			bs, err := e.st.Buckets(e.ctx, cid, []int64{i}, maxSeq)
			if err != nil {
				return nil, err
			}
			return bs[0], nil
		}
		// firstAtOrAfter is the first seq of b at or after target, 0 if none.
		firstAtOrAfter := func(b *store.Bucket) int64 {
			for _, s := range b.Slots {
				if !s.IsHole() && s.Seq >= minSeq && s.Seq <= maxSeq && s.Slot.Msg.SendTime >= target {
					return s.Seq
				}
			}
			return 0
		}
		lo, hi := store.BucketIndex(minSeq), store.BucketIndex(maxSeq)
		found := int64(0)
		for lo <= hi {
			mid := lo + (hi-lo)/2
			b, err := read(mid)
			if err != nil {
				return jumpResolvedMsg{cid: cid, err: err}
			}
			if seq := firstAtOrAfter(b); seq > 0 {
				found, hi = seq, mid-1
			} else {
				lo = mid + 1
			}
		}
		if found == 0 {
			return jumpResolvedMsg{cid: cid, err: errors.New("no message sent at or after that time")}
		}
		return jumpResolvedMsg{cid: cid, seq: found}
	}
}
