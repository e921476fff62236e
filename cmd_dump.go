package main

import (
	"context"
	"fmt"
	"time"

	"github.com/alecthomas/kong"

	"github.com/chatlens/chatlens/projection"
	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
)

type dumpCmd struct {
	Conversation string `name:"conversation" required:"" placeholder:"CID" complete:"conversations" help:"Conversation ID."`
	As           string `name:"as" required:"" placeholder:"USER" complete:"users" help:"The user whose view is shown."`
	From         int64  `name:"from" placeholder:"SEQ" help:"First seq (default: the start of the user's window)."`
	To           int64  `name:"to" placeholder:"SEQ" help:"Last seq (default: the newest message)."`
	Format       string `name:"format" enum:"text,json,markdown,html" default:"text" help:"Output format: text, json (one object per seq, as OpenIM's pull returns it), or a transcript for a ticket: markdown or html (one file, nothing external)."`
	Explain      bool   `name:"explain" help:"Say which rule made each row what the user sees, and who has read it."`
	At           string `name:"at" placeholder:"TIME" help:"Show what the user's pull gave at that moment, from the evidence the store keeps; rows it cannot date are marked unknown. ${at_forms}."`
	readStats
}

func (dumpCmd) Help() string {
	return `Prints every seq of the user's window, each as OpenIM's pull returns it to that user:
revoked, deleted for them, quotes of revoked messages rewritten, holes as stand-ins.

Examples:

    chatlens dump --conversation si_alice_bob --as alice
    chatlens dump --conversation sg_phoenix --as wangfang --from 100 --to 200 --format json
    chatlens dump --conversation si_alice_bob --as bob --to 30 --explain
    chatlens dump --conversation si_alice_bob --as alice --from 10 --to 40 --format markdown > ticket.md
    chatlens dump --conversation si_alice_bob --as bob --at '2024-06-15 14:30'

--at shows the rows as the user's pull gave them at that moment: each message as it was then
(revoked, deleted for them, read only if the store keeps evidence it was by then). A row whose
state then no evidence dates is shown as stored now and marked unknown, saying why.`
}

// Validate refuses a --from or --to below 1 whether given as 0 or -5
// (seqs start at 1; left out, they default to the user's window).
func (c *dumpCmd) Validate(kctx *kong.Context) error {
	if c.From < 0 || c.To < 0 || (c.To > 0 && c.To < c.From) ||
		flagSet(kctx, "from") && c.From == 0 || flagSet(kctx, "to") && c.To == 0 {
		return fmt.Errorf("want 1 <= --from <= --to")
	}
	if c.At != "" {
		_, err := parseAt(c.At, time.UTC) // the form only: the zone is the session's
		return err
	}
	return nil
}

func (c *dumpCmd) Run(ctx context.Context, s *session) error {
	return s.withStore(ctx, readsOrSeeds, func(st *store.Store) error {
		return c.counting(s, st, func() error { return c.dump(ctx, s, st) })
	})
}

func (c *dumpCmd) dump(ctx context.Context, s *session, st *store.Store) error {
	if err := st.CheckIDs(ctx, c.Conversation, c.As); err != nil {
		return err // a typo: not someone real with nothing to see
	}
	ws, err := st.Windows(ctx, c.As, []string{c.Conversation}, nil)
	if err != nil {
		return err
	}
	w := ws[c.Conversation]
	if c.At != "" {
		return c.dumpAt(ctx, s, st, w)
	}
	if w.PulledNothing() {
		fmt.Fprintln(s.stderr, "chatlens: "+oneLine(store.UnpulledNote(c.As, *w)))
		// A transcript still says so for the ticket: its header, no row.
		out := &dumpPrinter{s: s, c: c, w: w}
		if err := out.head(ctx, st, 0, 0); err != nil {
			return err
		}
		return out.foot()
	}
	if err := s.warnViewer(ctx, c.As, c.Conversation); err != nil {
		return err
	}
	s.warnSeqUsers(w)
	if w.MaxSeq == 0 {
		return fmt.Errorf("dump: conversation %s holds no messages", projection.SingleLine(c.Conversation))
	}
	if c.From > w.MaxSeq {
		return fmt.Errorf("dump: --from %d is past the last seq of %s (%d)", c.From, projection.SingleLine(c.Conversation), w.MaxSeq)
	}
	from, to := max(w.MinSeq, c.From), w.MaxSeq
	if c.To > 0 {
		to = min(to, c.To)
	}
	if w.Cleared() && (c.From > 0 && c.From < w.MinSeq || w.MinSeq > w.MaxSeq) {
		// Asked for seqs the user cannot pull: say why they are missing.
		fmt.Fprintf(s.stderr, "chatlens: note: %s's history starts at seq %d: %s\n",
			projection.SingleLine(c.As), w.MinSeq, w.StartReason())
	}
	conv := projection.Conv{ID: c.Conversation, SessionType: store.ConversationTypeOf(c.Conversation)}
	var holeTimes *store.HoleSendTimes
	if c.Format == "json" { // a hole prints as OpenIM's stand-in: it needs the range read once before
		if holeTimes, err = st.HoleSendTimes(ctx, w, from, to); err != nil {
			return err
		}
	}
	out := &dumpPrinter{s: s, c: c, w: w, conv: conv, holeTimes: holeTimes, next: from}
	if c.explains() {
		if out.readers, err = c.readers(ctx, s, st); err != nil {
			return err
		}
	}
	var history *bucket.History // each row's life, under --explain in json
	if c.Explain && c.Format == "json" {
		h, err := st.History(ctx, c.As, c.Conversation, s.auditPath())
		if err != nil {
			return err
		}
		history = &h
	}
	if err := out.head(ctx, st, from, to); err != nil {
		return err
	}
	// Rule 5 needs every quoted seq's slot: ScanQuoted reads what the batch
	// and the one before do not hold, the quoted slots only.
	err = st.ScanQuoted(ctx, w, from, to, projection.QuotedSeqs, func(batch []*bucket.Bucket, lookup bucket.Lookup) error {
		for _, b := range batch {
			for _, slot := range b.Slots {
				if slot.Seq < from || slot.Seq > to {
					continue
				}
				if history != nil {
					out.life = lifeOf{slot.Seq, projection.Life(slot, *history)}
				}
				if err := out.add(projection.ViewIn(b, slot, c.As, conv, lookup)); err != nil {
					return err
				}
			}
		}
		return nil
	}, func(from, to int64) error { return out.gap(ctx, from, to) })
	if err == nil {
		err = out.end(to)
	}
	if err == nil {
		err = out.foot()
	}
	return err
}
