package timeline

import (
	"fmt"
	"slices"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/chatlens/chatlens/projection"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/themes"
	"github.com/chatlens/chatlens/ui/common"
	"github.com/chatlens/chatlens/ui/pages/timeline/model"
)

// search is the page's half of a search: the reads of the step the model
// asked for last. The model keeps the query and the hits, and decides
// where the keys go (the landing of /, n, N); the page reads. A search
// scans the open conversation outwards from where it started, one find of
// a batch of buckets per step, keeping only the seqs that match, so it
// holds no more memory than its hits. It scans the buckets that are stored
// (listed by its first step), not every index up to max seq: a bucket
// stored at index 10,000,000 is one bucket to scan.
type search struct {
	read    model.Read // the step the model asked for last (Read.Search: which search)
	req     common.ReqID
	stored  []int64 // the window's stored buckets, ascending; nil until listed
	lo, hi  int     // the positions in stored scanned so far, contiguous; lo > hi: none yet
	scanned int
	total   int
	landing *landing // the buckets around the hits of the last step with hits, for the jump to one
}

type searchStepMsg struct {
	req       common.ReqID
	stored    []int64 // the first step's listing of the stored buckets
	hits      []int64
	positions []int // the positions in stored this step read
	landing   *landing
	err       error
}

// Start searches for q from the cursor, once the keys before it are
// applied, as the viewer of that moment sees the rows; the cursor goes to
// the hit nearest where it started.
func (sv Search) Start(q string) tea.Cmd {
	q = strings.TrimSpace(q)
	if q == "" {
		return nil
	}
	return sv.t.load.press(model.Key{Kind: model.SearchFor, Query: q})
}

// Query is the last query searched ("": none).
func (sv Search) Query() string { return sv.t.tl.Search().Query() }

// read starts reading the step rd of a search the model asks for.
func (sv Search) read(rd model.Read) tea.Cmd {
	t := sv.t
	if rd.Search != t.search.read.Search {
		t.search = search{req: t.e.NewReq(), lo: 1, hi: 0}
	}
	t.search.read = rd
	return sv.searchStep()
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
		p, found := slices.BinarySearch(s.stored, bucket.BucketIndex(s.read.Seq))
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
func (sv Search) searchStep() tea.Cmd {
	t := sv.t
	s := t.search
	e, cid, conv, viewer := t.e, t.cid, t.conv, s.read.Viewer
	win := t.tl.Window() // the window of the viewer the search is for: the model's
	minSeq, maxSeq := max(1, win.MinSeq), win.MaxSeq
	q := searchable(s.read.Query)
	th, name := t.e.Theme, t.Viewers().nameSnapshot()
	then, atMoment := t.tl.Moment().Then() // at a moment, the rows as pulled then
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
				if atMoment {
					msg, _ = then.View(slot, b.DocID, quoted)
				}
				if matches(th, msg, name, q) {
					hits = append(hits, slot.Seq)
				}
			}
		}
		return searchStepMsg{req: s.req, stored: listed, hits: hits, positions: pos,
			landing: landingFor(bs, hits, quoted, minSeq, maxSeq)}
	}
}

// matches reports a row holding q (made searchable) in what it draws,
// the sender's name with it, or in its message as dump writes it ("Carol
// revoked a message" where the row says "⟲ Carol: revoked by Carol").
func matches(th themes.Theme, m projection.Message, name func(id string) string, q string) bool {
	drawn, _ := describe(th, m, name)
	return strings.Contains(searchable(drawn), q) || strings.Contains(searchable(projection.Summary(m)), q)
}

// searchable is text as a search compares it: as rows draw it (a skin
// tone left out, projection.SingleLine), without case. A query and a row
// are made alike by it, so a hit is a row whose drawn text holds the query.
func searchable(s string) string { return strings.ToLower(projection.SingleLine(s)) }

// searchStepped lands a step's hits in the model, with how far the scan
// has gone: it decides where the keys waiting on them go, and asks for
// the next step.
func (sv Search) searchStepped(msg searchStepMsg) tea.Cmd {
	t := sv.t
	s := &t.search
	if msg.req != s.req {
		return nil // a search already replaced or left
	}
	if msg.err != nil {
		return t.load.afterSaying("search failed: "+msg.err.Error(), true, t.tl.Land(model.Landed{Read: s.read, Err: msg.err}))
	}
	if msg.stored != nil {
		s.stored, s.total = msg.stored, len(msg.stored)
	}
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
	sv.giveLanding()
	h := sv.scannedSpan()
	h.Seqs, h.Done = msg.hits, done
	return t.load.after(t.tl.Land(model.Landed{Read: s.read, Hits: h}))
}

// scannedSpan is the seqs the scan has covered: from the stored bucket
// below the lowest one scanned (or the window's start) to the one above
// the highest (or its end), nothing stored between.
func (sv Search) scannedSpan() model.Hits {
	t := sv.t
	s := t.search
	w := t.tl.Window()
	h := model.Hits{From: s.read.Seq, To: s.read.Seq - 1}
	if s.lo <= s.hi && len(s.stored) > 0 {
		h.From, h.To = max(1, w.MinSeq), w.MaxSeq
		if s.lo > 0 {
			h.From = bucket.LastSeq(s.stored[s.lo-1]) + 1
		}
		if s.hi < len(s.stored)-1 {
			h.To = bucket.FirstSeq(s.stored[s.hi+1]) - 1
		}
	}
	return h
}

// Step moves to the next hit older (n) or newer (N) than the cursor,
// wrapping at the ends with a note, once the keys before it are applied
// and the scan has gone far enough to say which hit that is.
func (sv Search) Step(older bool) tea.Cmd {
	k := model.NewerHit
	if older {
		k = model.OlderHit
	}
	return sv.t.load.press(model.Key{Kind: k})
}

// Progress is the footer line while a search runs or has hits.
func (sv Search) Progress() string {
	t := sv.t
	h, ok := t.tl.Search().Hits()
	q := sv.Query()
	if !ok || q == "" || h.Done && len(h.Seqs) == 0 {
		return "" // a search with no hit said so once: nothing to step through
	}
	pos := ""
	if n, ok := h.Number(t.tl.Cursor()); ok {
		// Counted from the newest, so n (older) counts up.
		pos = fmt.Sprintf("hit %d of ", n)
	}
	line := fmt.Sprintf("search %q: %s%d hits", projection.SingleLine(q), pos, len(h.Seqs))
	if !h.Done {
		line += fmt.Sprintf(" · scanning %d/%d buckets", t.search.scanned, t.search.total)
	}
	return line + " · " + t.e.Keys.NextHit.Help().Key + "/" + t.e.Keys.PrevHit.Help().Key + " step"
}

// highlight renders a timeline row in style with every match of the search
// query after its first skip bytes (the seq and time) marked, so the eye
// finds why the row is a hit.
func (sv Search) highlight(line string, skip int, style lipgloss.Style) string {
	t := sv.t
	q := strings.ToLower(sv.Query())
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

// Search is the search feature of the page: its keys and footer, drawn
// from the search state the page keeps.
type Search struct{ t *Model }

// Search is the page's search.
func (t *Model) Search() Search { return Search{t} }
