package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/chatlens/chatlens/projection"
	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
)

// `dump --at`: the rows the viewer's pull gave at a moment, read back from
// the store now and the evidence it keeps (store.History, projection.PullAt);
// the same rows and fields as without --at, each marked with what of it no
// evidence dates.

// errPulledAll stops a scan past the last seq the pull at the moment held.
var errPulledAll = errors.New("past the moment")

func (c *dumpCmd) dumpAt(ctx context.Context, s *session, st *store.Store, w *bucket.Window) error {
	at, err := parseAt(c.At, s.zone())
	if err != nil {
		return err
	}
	out := &dumpPrinter{s: s, c: c, w: w, asOf: asOf{at: at, unknown: map[int64][]string{}}}
	if w.PulledNothing() {
		fmt.Fprintln(s.stderr, "chatlens: "+oneLine(store.UnpulledNote(c.As, *w)))
		return out.headAndFoot(ctx, st)
	}
	if err := s.warnViewer(ctx, c.As, c.Conversation); err != nil {
		return err
	}
	s.warnSeqUsers(w)
	h, err := st.History(ctx, c.As, c.Conversation, s.auditPath())
	if err != nil {
		return err
	}
	conv := projection.Conv{ID: c.Conversation, SessionType: store.ConversationTypeOf(c.Conversation)}
	pull := &projection.PullAt{AsOf: projection.AsOf{At: at.UnixMilli(), Viewer: c.As, Conv: conv, H: h}, Window: *w}
	if had, _ := pull.Had(); !had || w.MaxSeq == 0 {
		fmt.Fprintf(s.stderr, "chatlens: OpenIM's pull gave %s nothing of %s at %s: %s\n", projection.SingleLine(c.As),
			projection.SingleLine(c.Conversation), at.In(s.zone()).Format(time.RFC3339Nano), projection.NotHeldWhy(h, *w))
		return out.headAndFoot(ctx, st)
	}
	from := pull.ScanFrom()
	// Seqs before the window's start now may have been pulled then (a
	// clear leaves them in the buckets): the rows start where the pull's do.
	lo, hi := max(from, c.From), w.MaxSeq
	if c.To > 0 {
		hi = min(hi, c.To)
	}
	out.conv, out.pulledFrom = conv, from
	if c.Format == "json" {
		if out.holeTimes, err = st.HoleSendTimes(ctx, w, max(from, lo), w.MaxSeq); err != nil {
			return err
		}
	}
	// No "read by": who had read a row then needs every member's read
	// seq then, which this reads back for the viewer only.
	if err := out.head(ctx, st, lo, hi); err != nil {
		return err
	}
	last := int64(0) // the last seq printed
	emit := func(rows []projection.AsOfRow, done bool) error {
		for _, r := range rows {
			if r.Seq < lo || r.Seq > hi {
				continue
			}
			if last == 0 {
				out.next = r.Seq // the rows start where the pull then did
			}
			if len(r.Unknown) > 0 {
				out.unknown[r.Seq] = r.Unknown
			}
			if err := out.add(r.Message); err != nil {
				return err
			}
			last = r.Seq
		}
		if done {
			return errPulledAll
		}
		return nil
	}
	err = st.ScanQuoted(ctx, w, from, w.MaxSeq, projection.QuotedSeqs, func(batch []*bucket.Bucket, lookup bucket.Lookup) error {
		look := pull.Lookup(lookup)
		for _, b := range batch {
			for _, slot := range b.Slots {
				if slot.Seq < from || slot.Seq > w.MaxSeq {
					continue
				}
				if err := emit(pull.Add(slot, func(then bucket.StoredSlot) projection.Message {
					return projection.ViewIn(b, then, c.As, conv, look)
				})); err != nil {
					return err
				}
			}
		}
		return nil
	}, func(from, to int64) error {
		for seq := from; seq <= to; seq++ {
			if err := emit(pull.Add(bucket.StoredSlot{Seq: seq}, func(then bucket.StoredSlot) projection.Message {
				return projection.View(then, "", c.As, conv, nil)
			})); err != nil {
				return err
			}
		}
		return nil
	})
	if errors.Is(err, errPulledAll) {
		err = nil
	}
	if err == nil {
		err = emit(pull.Flush(), false)
	}
	if err == nil && last > 0 {
		err = out.end(last)
	}
	if why := pull.StartUnsaid(); err == nil && last == 0 && why != nil {
		// No row carries it: the text's last line and the transcript's
		// header say it; json, rows only, has stderr alone.
		out.unsaid = why
		fmt.Fprintf(s.stderr, "chatlens: no row of %s's window now was pulled at %s; %s\n", projection.SingleLine(c.As),
			at.In(s.zone()).Format(time.RFC3339Nano), projection.SingleLine(unknownWords(why)))
		if out.transcript != nil {
			out.transcript.Unsaid(why)
		}
	}
	if err == nil {
		err = out.foot()
	}
	return err
}

// headAndFoot writes a transcript's header and end with no row: the
// ticket still says what was asked and that nothing was pulled.
func (p *dumpPrinter) headAndFoot(ctx context.Context, st *store.Store) error {
	if err := p.head(ctx, st, 0, 0); err != nil {
		return err
	}
	return p.foot()
}

// unknownWords is the note a row marked unknown carries in text and in a
// transcript's rules.
func unknownWords(why []string) string {
	return "unknown: " + strings.Join(why, "; ")
}

// asOf is what a dump --at adds to its printer: the moment, and the
// reasons of each row marked unknown, by seq.
type asOf struct {
	at          time.Time
	unknown     map[int64][]string // nil without --at
	pulledFrom  int64              // the first seq the pull then may hold (projection.PullAt.ScanFrom)
	unknownRows int
	// unsaid is what of the window's start no evidence dates when no row
	// was pulled to carry it (projection.PullAt.StartUnsaid).
	unsaid []string
}

// printAsOf writes one row of a dump --at: json with its "unknown" list,
// text and transcripts with the reasons as a trailing note or rule.
func (p *dumpPrinter) printAsOf(m projection.Message, why []string) error {
	unknown := p.unknown[m.Seq]
	if len(unknown) > 0 {
		p.unknownRows++
	}
	switch {
	case p.c.Format == "json":
		return printJSON(p.s.stdout, projection.AsOfRow{Message: m, Unknown: unknown, Why: why})
	case len(unknown) > 0:
		why = append(why, unknownWords(unknown))
	}
	if p.transcript != nil {
		return p.row(projection.TranscriptRow{Message: m, Why: why, Unknown: len(unknown) > 0})
	}
	return p.printMessage(m, why)
}

// unknownLine ends a text dump --at: how many rows show a state no
// evidence dates.
func (p *dumpPrinter) unknownLine() error {
	if p.unknown == nil || p.transcript != nil || p.c.Format == "json" {
		return nil
	}
	line := fmt.Sprintf("as of %s: %d %s marked unknown (shown as stored now: no evidence dates a change to %s)",
		p.at.In(p.s.zone()).Format(time.RFC3339Nano), p.unknownRows, map[bool]string{true: "row", false: "rows"}[p.unknownRows == 1],
		map[bool]string{true: "it", false: "them"}[p.unknownRows == 1])
	if p.unsaid != nil {
		line += "; no row of the window now was pulled then, " + unknownWords(p.unsaid)
	}
	_, err := fmt.Fprintln(p.s.stdout, projection.SingleLine(line))
	return err
}
