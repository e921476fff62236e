package main

import (
	"context"
	"fmt"

	"github.com/chatlens/chatlens/projection"
	"github.com/chatlens/chatlens/store"
)

// dumpPrinter writes a dump's seqs in order. In text, a run of two or more
// seqs without a message is one line (projection.HoleRun), and seqs the
// scan never handed over (buckets that do not exist) join the run; JSON
// keeps one object per seq, a hole as OpenIM's stand-in with the send time
// holeTimes found for it.
type dumpPrinter struct {
	e         *env
	w         *store.Window
	conv      projection.Conv
	holeTimes *store.HoleSendTimes // json only: the stand-ins' send times

	next           int64 // the seq expected next
	runFrom, runTo int64 // the pending run of holes; runFrom 0 when none
	single         *projection.Message
}

func (p *dumpPrinter) add(m projection.Message) error {
	if m.Hole && m.SendTime == 0 && p.holeTimes != nil {
		m.SendTime = p.holeTimes.At(m.Seq)
	}
	if p.e.o.format == "json" {
		return p.print(m)
	}
	if m.Seq > p.next { // skipped seqs: nothing stored there
		p.extend(p.next, m.Seq-1, nil)
	}
	p.next = m.Seq + 1
	if m.Hole && m.Problem == "" {
		p.extend(m.Seq, m.Seq, &m)
		return nil
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
	if p.e.o.format != "json" {
		p.extend(from, to, nil)
		p.next = to + 1
		return nil
	}
	for seq := from; seq <= to; seq++ {
		if seq%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		if err := p.add(projection.View(store.StoredSlot{Seq: seq}, "", p.e.o.as, p.conv, nil)); err != nil {
			return err
		}
	}
	return nil
}

// print writes one seq, with the rules behind it under --explain.
func (p *dumpPrinter) print(m projection.Message) error {
	var why []string
	if p.e.o.explain {
		why = projection.Explain(m, *p.w, p.e.zone())
	}
	return printMessage(p.e, m, why)
}

// extend adds seqs from..to to the pending run; m is the hole itself when
// the scan handed it over.
func (p *dumpPrinter) extend(from, to int64, m *projection.Message) {
	if p.runFrom == 0 {
		p.runFrom, p.runTo, p.single = from, to, m
		return
	}
	p.runTo, p.single = to, nil
}

// end closes the dump at seq to: what the scan did not reach is a hole too.
func (p *dumpPrinter) end(to int64) error {
	if p.e.o.format != "json" && p.next <= to {
		p.extend(p.next, to, nil)
		p.next = to + 1
	}
	return p.flush()
}

func (p *dumpPrinter) flush() error {
	first, last, m := p.runFrom, p.runTo, p.single
	if first == 0 {
		return nil
	}
	p.runFrom, p.single = 0, nil
	if first < last {
		_, err := fmt.Fprintf(p.e.stdout, "%7d  %-19s  %s\n", first, "", projection.HoleRun(first, last))
		return err
	}
	if m == nil {
		m = &projection.Message{Seq: first, Hole: true}
	}
	return p.print(*m)
}
