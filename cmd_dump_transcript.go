package main

import (
	"context"
	"fmt"
	"time"

	"github.com/chatlens/chatlens/projection"
	"github.com/chatlens/chatlens/store"
)

// A dump in markdown or html is a transcript for a ticket: the header
// names the store, conversation, viewer, the window and why, when it was
// captured and by which chatlens; every row carries its rules, as
// --explain gives them, unless every row shares them: the header then
// says them once (projection.TranscriptWriter).

// explains reports a dump whose rows carry their rules: --explain, or a
// transcript.
func (c *dumpCmd) explains() bool {
	_, transcript := projection.TranscriptFormats[c.Format]
	return c.Explain || transcript
}

// readers reads every member's read seq, for "read by": the members (one
// or two round trips), then their read seqs (one per layer). A
// conversation whose members cannot be told (an ambiguous ID) gets no
// read-by clause and a warning.
func (c *dumpCmd) readers(ctx context.Context, s *session, st *store.Store) (projection.ReadReceipts, error) {
	members, err := st.MembersFor(ctx, c.Conversation, c.As)
	if err != nil {
		fmt.Fprintln(s.stderr, "chatlens: warning: who has read each message is left out: "+oneLine(err.Error()))
		return projection.ReadReceipts{}, nil
	}
	rs, err := st.Readers(ctx, c.Conversation, members)
	if err != nil {
		return projection.ReadReceipts{}, err
	}
	out := make([]projection.Reader, len(rs))
	for i, r := range rs {
		out[i] = projection.Reader{UserID: r.UserID, Name: r.Nickname, ReadSeq: r.ReadSeq, MinSeq: r.MinSeq}
	}
	return projection.NewReadReceipts(out), nil
}

// head starts a transcript (its header goes out with the rows that show
// what it says of them); nothing for the other formats.
func (p *dumpPrinter) head(ctx context.Context, st *store.Store, from, to int64) error {
	t, ok := projection.TranscriptFormats[p.c.Format]
	if !ok {
		return nil
	}
	name := p.readers.Name(p.c.As)
	if name == "" {
		names, err := st.UserNames(ctx, []string{p.c.As})
		if err != nil {
			return err
		}
		name = names[p.c.As]
	}
	p.transcript = t.Writer(projection.TranscriptHead{Context: st.Context(), Store: st.Describe(), Conversation: p.c.Conversation,
		Viewer: p.c.As, ViewerName: name, Window: *p.w, From: from, To: to,
		Captured: time.Now(), Version: versionLine(), Zone: p.s.zone(), AsOf: p.at})
	return nil
}

func (p *dumpPrinter) row(r projection.TranscriptRow) error {
	_, err := fmt.Fprint(p.s.stdout, p.transcript.Row(r))
	return err
}

func (p *dumpPrinter) foot() error {
	if p.transcript == nil {
		return p.unknownLine()
	}
	_, err := fmt.Fprint(p.s.stdout, p.transcript.End())
	return err
}
