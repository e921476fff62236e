package main

import (
	"context"
	"fmt"

	"github.com/chatlens/chatlens/projection"
	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
)

// dumpPrinter writes a dump's seqs in order. In text, a run of two or more
// seqs without a message is one line (projection.HoleRun), and seqs the
// scan never handed over (buckets that do not exist) join the run; JSON
// keeps one object per seq, a hole as OpenIM's stand-in with the send time
// holeTimes found for it.
type dumpPrinter struct {
	s         *session
	c         *dumpCmd
	w         *bucket.Window
	conv      projection.Conv
	holeTimes *store.HoleSendTimes // json only: the stand-ins' send times

	next           int64 // the seq expected next
	runFrom, runTo int64 // the pending run of holes; runFrom 0 when none
	single         *projection.Message
	runIn          brokenBucket // the malformed bucket the pending run is of; none for sound ones
	named          string       // the doc_id of the malformed bucket last named in text

	readers    projection.ReadReceipts      // every member's read seq, under --explain and in transcripts
	transcript *projection.TranscriptWriter // markdown and html; nil otherwise

	asOf        // --at only
	life lifeOf // the life of the slot being printed, under --explain in json
}

// lifeOf is one slot's life (projection.Life).
type lifeOf struct {
	seq    int64
	events []projection.LifeEvent
}

// of is the life of seq: none known, an empty one.
func (l lifeOf) of(seq int64) []projection.LifeEvent {
	if l.seq != seq || l.events == nil {
		return []projection.LifeEvent{}
	}
	return l.events
}

// brokenBucket is a bucket that breaks the contract as a whole, a run of
// holes in it kept apart from the holes around it; zero for a sound one.
type brokenBucket struct{ docID, problem string }

func brokenOf(m *projection.Message) brokenBucket {
	if m == nil || m.BucketProblem == "" {
		return brokenBucket{}
	}
	return brokenBucket{m.DocID, m.BucketProblem}
}

func (p *dumpPrinter) add(m projection.Message) error {
	if m.Hole && m.SendTime == 0 && p.holeTimes != nil {
		m.SendTime = p.holeTimes.At(m.Seq)
	}
	if p.c.Format == "json" {
		return p.print(m)
	}
	if m.Seq > p.next { // skipped seqs: nothing stored there
		if err := p.extend(p.next, m.Seq-1, nil); err != nil {
			return err
		}
	}
	p.next = m.Seq + 1
	if m.Hole && m.Problem == "" && p.unknown[m.Seq] == nil {
		return p.extend(m.Seq, m.Seq, &m)
	}
	if err := p.flush(); err != nil {
		return err
	}
	return p.print(m)
}

// gap takes seqs from..to whose buckets are not stored: part of a run in
// text; in JSON one stand-in per seq, as OpenIM's pull returns them,
// streamed (Ctrl-C stops it), never allocated by seq count.
func (p *dumpPrinter) gap(ctx context.Context, from, to int64) error {
	if p.c.Format != "json" {
		p.next = to + 1
		return p.extend(from, to, nil)
	}
	for seq := from; seq <= to; seq++ {
		if seq%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		if err := p.add(projection.View(bucket.StoredSlot{Seq: seq}, "", p.c.As, p.conv, nil)); err != nil {
			return err
		}
	}
	return nil
}

// print writes one seq, with the rules behind it under --explain.
func (p *dumpPrinter) print(m projection.Message) error {
	var why []string
	if p.c.explains() {
		w := *p.w
		if p.unknown != nil {
			w.MinSeq = min(w.MinSeq, p.pulledFrom) // the pull then may start before the window now
		}
		why = append(projection.Explain(m, w, p.s.zone()), p.readers.Words(m)...)
	}
	if p.unknown != nil {
		return p.printAsOf(m, why)
	}
	return p.printMessage(m, why)
}

// extend adds seqs from..to to the pending run; m is the hole itself when
// the scan handed it over. A run stays within one malformed bucket, or
// out of every one.
func (p *dumpPrinter) extend(from, to int64, m *projection.Message) error {
	if in := brokenOf(m); p.runFrom != 0 && in != p.runIn {
		if err := p.flush(); err != nil {
			return err
		}
	}
	if p.runFrom == 0 {
		p.runFrom, p.runTo, p.single, p.runIn = from, to, m, brokenOf(m)
		return nil
	}
	p.runTo, p.single = to, nil
	return nil
}

// end closes the dump at seq to: what the scan did not reach is a hole too.
func (p *dumpPrinter) end(to int64) error {
	if p.c.Format != "json" && p.next <= to {
		if err := p.extend(p.next, to, nil); err != nil {
			return err
		}
		p.next = to + 1
	}
	return p.flush()
}

func (p *dumpPrinter) flush() error {
	first, last, m, in := p.runFrom, p.runTo, p.single, p.runIn
	if first == 0 {
		return nil
	}
	p.runFrom, p.single, p.runIn = 0, nil, brokenBucket{}
	run := projection.Message{MsgData: bucket.MsgData{Seq: first}, Hole: true, DocID: in.docID, BucketProblem: in.problem}
	if first < last && p.transcript != nil {
		return p.row(projection.TranscriptRow{Message: run, RunTo: last})
	}
	if first < last {
		if err := p.nameBucket(run); err != nil {
			return err
		}
		_, err := fmt.Fprintf(p.s.stdout, "%7d  %-19s  %s\n", first, "", projection.HoleRun(first, last))
		return err
	}
	if m == nil {
		m = &run
	}
	return p.print(*m)
}

// nameBucket writes, in text, the line naming the malformed bucket m is
// in, above the first of its rows, as the UI does.
func (p *dumpPrinter) nameBucket(m projection.Message) error {
	if m.BucketProblem == "" || m.DocID == p.named || p.transcript != nil || p.c.Format == "json" {
		return nil
	}
	p.named = m.DocID
	_, err := fmt.Fprintln(p.s.stdout, projection.MalformedBucketLine(m.DocID, m.BucketProblem))
	return err
}

// printMessage writes one seq of a dump in the chosen format, with why it
// is seen so when why is given (--explain).
func (p *dumpPrinter) printMessage(m projection.Message, why []string) error {
	switch {
	case p.transcript != nil:
		return p.row(projection.TranscriptRow{Message: m, Why: why})
	case p.c.Format == "json" && why != nil && p.c.Explain:
		return printJSON(p.s.stdout, projection.Explained{Message: m, Why: why, Life: p.life.of(m.Seq)})
	case p.c.Format == "json" && why != nil:
		return printJSON(p.s.stdout, projection.Explained{Message: m, Why: why})
	case p.c.Format == "json":
		return printJSON(p.s.stdout, m)
	}
	if err := p.nameBucket(m); err != nil {
		return err
	}
	if why != nil {
		_, err := fmt.Fprintln(p.s.stdout, projection.ExplainedLine(m, why, p.s.zone()))
		return err
	}
	_, err := fmt.Fprintln(p.s.stdout, projection.Line(m, p.s.zone()))
	return err
}
