package main

import (
	"fmt"

	"github.com/chatlens/chatlens/projection"
)

// dumpPrinter writes a dump's seqs in order. In text, a run of two or more
// seqs without a message is one line (projection.HoleRun), and seqs the
// scan never handed over (buckets that do not exist) join the run; JSON
// keeps one object per seq.
type dumpPrinter struct {
	e              *env
	next           int64 // the seq expected next
	runFrom, runTo int64 // the pending run of holes; runFrom 0 when none
	single         *projection.Message
}

func newDumpPrinter(e *env, from int64) *dumpPrinter { return &dumpPrinter{e: e, next: from} }

func (p *dumpPrinter) add(m projection.Message) error {
	if p.e.o.format == "json" {
		return printMessage(p.e, m)
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
	return printMessage(p.e, m)
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
	return printMessage(p.e, *m)
}
