package ui

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/chatlens/chatlens/projection"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/ui/common"
	"github.com/chatlens/chatlens/ui/pages/timeline/model"
)

// search scans the open conversation outwards from the cursor's bucket, one
// find of a batch of buckets per step, keeping only the seqs that match, so
// a search holds no more memory than its hits. It scans the buckets that
// are stored (listed by its first step), not every index up to max seq: a
// bucket stored at index 10,000,000 is one bucket to scan. The first hit
// shown is the nearest at or before the cursor; past the oldest it wraps to
// the newest.
type search struct {
	req      common.ReqID
	query    string
	hits     []int64 // ascending
	scanning bool
	origin   int64   // the cursor when the search started
	stored   []int64 // the window's stored buckets, ascending; nil until listed
	lo, hi   int     // the positions in stored scanned so far, contiguous; lo > hi: none yet
	shown    bool    // the first hit was jumped to
	scanned  int
	total    int
	err      error
	landing  *landing // the buckets around the hits of the last step, for the jump to the first
}

type searchStepMsg struct {
	req       common.ReqID
	stored    []int64 // the first step's listing of the stored buckets
	hits      []int64
	positions []int // the positions in stored this step read
	landing   *landing
	err       error
}

func (m *Model) startSearch(q string) tea.Cmd {
	t := m.tl
	q = strings.TrimSpace(q)
	if t == nil || q == "" {
		return nil
	}
	if t.empty() {
		t.search = search{query: q}
		m.setStatus(noMatch(q), true)
		return nil
	}
	t.search = search{req: m.e.NewReq(), query: q, scanning: true, origin: t.cursor, lo: 1, hi: 0}
	return t.searchStep()
}

// noMatch is the one way a search with no hit says so, whatever the size.
func noMatch(q string) string { return fmt.Sprintf("no match for %q", projection.SingleLine(q)) }

// nextPositions are the next positions in stored to scan: the cursor's
// bucket (or the nearest stored one below it) first, then older and newer
// in turn from the scanned run, at most n.
func (s *search) nextPositions(n int) []int {
	var out []int
	lo, hi := s.lo, s.hi
	if lo > hi {
		if len(s.stored) == 0 {
			return nil
		}
		p, found := slices.BinarySearch(s.stored, bucket.BucketIndex(s.origin))
		if !found && p > 0 {
			p--
		}
		out = append(out, p)
		lo, hi = p, p
	}
	for len(out) < n && (lo > 0 || hi < len(s.stored)-1) {
		if lo > 0 {
			lo--
			out = append(out, lo)
		}
		if hi < len(s.stored)-1 && len(out) < n {
			hi++
			out = append(out, hi)
		}
	}
	return out
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
		var listed []int64
		if s.stored == nil {
			stored, err := e.Store.StoredIndexes(e.Ctx, &win, minSeq, maxSeq)
			if err != nil {
				return searchStepMsg{req: s.req, err: err}
			}
			s.stored, listed = stored, append([]int64{}, stored...) // non-nil even when empty
		}
		pos := s.nextPositions(max(1, e.Store.FindBatch))
		if len(pos) == 0 {
			return searchStepMsg{req: s.req, stored: listed}
		}
		idx := make([]int64, len(pos))
		for i, p := range pos {
			idx[i] = s.stored[p]
		}
		bs, err := e.Store.Buckets(e.Ctx, cid, idx, maxSeq)
		if err != nil {
			return searchStepMsg{req: s.req, err: err}
		}
		// A hit is what the timeline shows, a quote as resolved (rule 5).
		far, err := e.Store.QuotedSlots(e.Ctx, cid, bs, minSeq, maxSeq, maxSeq, inBatch(bs), projection.QuotedSeqs)
		if err != nil {
			return searchStepMsg{req: s.req, err: err}
		}
		quoted := bucket.LookupIn(bs, far)
		var hits []int64
		for _, b := range bs {
			for _, slot := range b.Slots {
				if slot.Seq < minSeq || slot.Seq > maxSeq {
					continue
				}
				msg := projection.View(slot, b.DocID, viewer, conv, quoted)
				if strings.Contains(strings.ToLower(projection.Summary(msg)), q) {
					hits = append(hits, slot.Seq)
				}
			}
		}
		return searchStepMsg{req: s.req, stored: listed, hits: hits, positions: pos,
			landing: landingFor(bs, hits, quoted, minSeq, maxSeq)}
	}
}

func (m *Model) searchStep(msg searchStepMsg) tea.Cmd {
	t := m.tl
	if t == nil || msg.req != t.search.req {
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
	s.hits = append(s.hits, msg.hits...)
	slices.Sort(s.hits)
	if msg.landing != nil {
		s.landing = msg.landing
	}
	for _, p := range msg.positions {
		if s.lo > s.hi {
			s.lo, s.hi = p, p
		}
		s.lo, s.hi = min(s.lo, p), max(s.hi, p)
	}
	s.scanned += len(msg.positions)
	done := len(msg.positions) == 0 || s.lo <= 0 && s.hi >= len(s.stored)-1
	if done {
		s.scanning = false
	}
	var cmds []tea.Cmd
	if !s.shown {
		if cmd := m.showFirstHit(done); cmd != nil {
			cmds = append(cmds, cmd)
		}
	}
	if !done {
		cmds = append(cmds, t.searchStep())
	}
	return tea.Batch(cmds...)
}

// hitsSoFar is the search's hits and the seqs its scan has covered: from
// the stored bucket below the lowest one scanned (or the window's start)
// to the one above the highest (or its end), nothing stored between.
func (t *timeline) hitsSoFar() model.Hits {
	s := t.search
	h := model.Hits{Seqs: s.hits, From: s.origin, To: s.origin - 1, First: t.minSeq(), Last: t.maxSeq(), Done: !s.scanning && s.err == nil}
	if s.lo <= s.hi && len(s.stored) > 0 {
		h.From, h.To = t.minSeq(), t.maxSeq()
		if s.lo > 0 {
			h.From = bucket.LastSeq(s.stored[s.lo-1]) + 1
		}
		if s.hi < len(s.stored)-1 {
			h.To = bucket.FirstSeq(s.stored[s.hi+1]) - 1
		}
	}
	return h
}

// showFirstHit jumps to the hit nearest where the search started, before or
// after it (a tie to the older), as soon as the scanned run proves it the
// nearest.
func (m *Model) showFirstHit(done bool) tea.Cmd {
	t := m.tl
	s := &t.search
	hit, decided, found := t.hitsSoFar().Nearest(s.origin)
	if !decided {
		return nil
	}
	s.shown = true
	if !found {
		m.setStatus(noMatch(s.query), true)
		return nil
	}
	return t.landOn(hit)
}

// stepHit moves to the next hit older (n) or newer (N) than the cursor,
// wrapping at the ends with a note.
func (m *Model) stepHit(older bool) tea.Cmd {
	t := m.tl
	if len(t.search.hits) == 0 {
		if t.search.query != "" && !t.search.scanning {
			m.setStatus(noMatch(t.search.query), true)
		} else {
			m.setStatus("no search hits ("+m.e.Keys.Search.Help().Key+" to search)", true)
		}
		return nil
	}
	h := t.hitsSoFar()
	step, end := h.Newer, "oldest"
	if older {
		step, end = h.Older, "newest"
	}
	hit, wrapped, decided := step(t.cursor)
	if !decided {
		m.setStatus("still scanning that way: "+common.KeyName(m.e.Keys.NextHit)+" again once it has", false)
		return nil
	}
	if wrapped {
		m.setStatus("search wrapped to the "+end+" hit", false)
	}
	return t.jumpTo(hit)
}

// searchProgress is the footer line while a search runs or has hits.
func (t *timeline) searchProgress() string {
	s := t.search
	if s.query == "" || s.err != nil || !s.scanning && len(s.hits) == 0 {
		return "" // a search with no hit said so once: nothing to step through
	}
	pos := ""
	if n, ok := t.hitsSoFar().Number(t.cursor); ok {
		// Counted from the newest, so n (older) counts up.
		pos = fmt.Sprintf("hit %d of ", n)
	}
	line := fmt.Sprintf("search %q: %s%d hits", projection.SingleLine(s.query), pos, len(s.hits))
	if s.scanning {
		line += fmt.Sprintf(" · scanning %d/%d buckets", s.scanned, s.total)
	}
	return line + " · " + t.e.Keys.NextHit.Help().Key + "/" + t.e.Keys.PrevHit.Help().Key + " step"
}

type jumpResolvedMsg struct {
	req common.ReqID
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
		if when, err := time.ParseInLocation(layout, input, m.e.Loc); err == nil {
			m.setStatus("looking for "+input+"…", false)
			t.jumpReq = m.e.NewReq()
			return resolveDate(m.e, t.jumpReq, t.cid, t.minSeq(), t.maxSeq(), when.UnixMilli())
		}
	}
	m.setStatus(fmt.Sprintf("%q is neither a seq nor a date like 2006-01-02 15:04", input), true)
	return nil
}

// resolveDate finds the first seq sent at or after target (seqAtOrAfter).
func resolveDate(e *common.Common, req common.ReqID, cid string, minSeq, maxSeq, target int64) tea.Cmd {
	return func() tea.Msg {
		found, err := seqAtOrAfter(e, cid, minSeq, maxSeq, target)
		if err == nil && found == 0 {
			err = errors.New("no message sent at or after that time")
		}
		return jumpResolvedMsg{req: req, seq: found, err: err}
	}
}

// seqAtOrAfter is the first seq of minSeq..maxSeq sent at or after target,
// 0 if none, by a binary search over buckets (send times grow with seq),
// one find per probe.
func seqAtOrAfter(e *common.Common, cid string, minSeq, maxSeq, target int64) (int64, error) {
	read := func(i int64) (*bucket.Bucket, error) {
		bs, err := e.Store.Buckets(e.Ctx, cid, []int64{i}, maxSeq)
		if err != nil {
			return nil, err
		}
		return bs[0], nil
	}
	// firstAtOrAfter is the first seq of b at or after target, 0 if none.
	firstAtOrAfter := func(b *bucket.Bucket) int64 {
		for _, s := range b.Slots {
			if !s.IsHole() && s.Seq >= minSeq && s.Seq <= maxSeq && s.Slot.Msg.SendTime >= target {
				return s.Seq
			}
		}
		return 0
	}
	lo, hi := bucket.BucketIndex(minSeq), bucket.BucketIndex(maxSeq)
	found := int64(0)
	for lo <= hi {
		mid := lo + (hi-lo)/2
		b, err := read(mid)
		if err != nil {
			return 0, err
		}
		if seq := firstAtOrAfter(b); seq > 0 {
			found, hi = seq, mid-1
		} else {
			lo = mid + 1
		}
	}
	return found, nil
}

// highlight renders a timeline row in style with every match of the search
// query after its first skip bytes (the seq and time) marked, so the eye
// finds why the row is a hit.
func (t *timeline) highlight(line string, skip int, style lipgloss.Style) string {
	q := strings.ToLower(t.search.query)
	lower := strings.ToLower(line)
	if q == "" || len(lower) != len(line) || skip > len(line) {
		return style.Render(line) // a case change that moves bytes: no mark rather than a wrong one
	}
	match := t.e.Theme.Match.Inherit(style)
	var b strings.Builder
	from := 0
	for {
		i := strings.Index(lower[max(from, skip):], q)
		if i < 0 {
			break
		}
		i += max(from, skip)
		b.WriteString(style.Render(line[from:i]))
		b.WriteString(match.Render(line[i : i+len(q)]))
		from = i + len(q)
	}
	b.WriteString(style.Render(line[from:]))
	return b.String()
}
