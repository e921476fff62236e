package main

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/chatlens/chatlens/projection"
	"github.com/chatlens/chatlens/store"
)

// writeFlags are what revoke, delete and read take: which messages, and who acts.
type writeFlags struct {
	Conversation string `name:"conversation" required:"" placeholder:"CID" complete:"conversations" help:"Conversation ID."`
	Seq          string `name:"seq" required:"" placeholder:"SEQS" help:"Seqs: 5, 5,7 or 10-20."`
	By           string `name:"by" required:"" placeholder:"USER" complete:"users" help:"The user acting."`
	Admin        bool   `name:"admin" help:"Act as an app admin (OpenIM's IM admin): may revoke any message, recorded with role 0."`
	Stats        bool   `name:"stats" help:"Print round trips and time to stderr."`
	DryRun       bool   `name:"dry-run" help:"Print what the write would do (the seqs written, each refused seq and why, the read seq, the notifications) and write, send and audit nothing; a refused plan exits 1."`
	Format       string `name:"format" enum:"text,json" default:"text" help:"Output format: text or json (one object: the plan, or what was written)."`

	seqs []int64 // Seq, parsed
}

func (w *writeFlags) Validate() error {
	seqs, err := store.ParseSeqs(w.Seq)
	if err != nil {
		return fmt.Errorf("--seq: %w", err)
	}
	w.seqs = seqs
	return nil
}

type revokeCmd struct{ writeFlags }

func (revokeCmd) Help() string {
	return `Checks what OpenIM's server checks (internal/rpc/msg/revoke.go): a known user, messages in their
window, and the revoke permissions (in a single chat only the sender; in a group the sender, the owner
anyone's, a group admin an ordinary member's). The audit log records the intent and the outcome.

Examples:

    chatlens revoke --conversation sg_phoenix --seq 12 --by wangfang
    chatlens revoke --conversation si_alice_bob --seq 5,7,10-20 --by alice --stats
    chatlens revoke --conversation sg_phoenix --seq 40 --by ops --admin
    chatlens revoke --conversation sg_phoenix --seq 12 --by wangfang --dry-run --format json
    chatlens revoke --conversation sg_g1 --seq 6 --by u1 --openim-api http://host:10002 --openim-secret S

With --openim-api the revoke goes through OpenIM Server's REST API with the user's own token: the
server applies its rules and decides. chatlens says first what it expects ("expected: OpenIM will
refuse this: ..."), sends it all the same, then gives the server's verdict, says where they differ,
and names the notification (2101 in n_<group> ...) the server told devices with, or its absence. The
token it asks (platform 5, web) signs the user's web session out under the server's default
multiLogin policy: their next call there answers 1506.

With --dry-run chatlens prints the plan (the seqs it would write, each refused seq and why, the
notifications expected) and writes, sends and audits nothing: the server is asked nothing and no
secret is read. A refused plan exits 1.`
}

func (c *revokeCmd) Run(ctx context.Context, s *session) error { return c.write(ctx, s, "revoke") }

type deleteCmd struct{ writeFlags }

func (deleteCmd) Help() string {
	return `Deletes messages for the acting user only (delete for me): everyone else still sees them.

Examples:

    chatlens delete --conversation si_alice_bob --seq 3 --by alice
    chatlens delete --conversation sg_phoenix --seq 10-20 --by wangfang`
}

func (c *deleteCmd) Run(ctx context.Context, s *session) error { return c.write(ctx, s, "delete") }

type readCmd struct{ writeFlags }

func (readCmd) Help() string {
	return `Marks messages read by the user; a seq past the last message in the user's window is refused.

Examples:

    chatlens read --conversation si_alice_bob --seq 1-120 --by alice
    chatlens read --conversation si_alice_bob --seq 121 --by alice --stats`
}

func (c *readCmd) Run(ctx context.Context, s *session) error { return c.write(ctx, s, "read") }

// write runs one of revoke, delete and read through the store's state
// machine: the same checks as OpenIM's (a known user, a message in the
// user's pull window, the revoke permission rules), the same path as the UI.
func (w *writeFlags) write(ctx context.Context, s *session, action string) error {
	if w.DryRun {
		return w.dryRun(ctx, s, action)
	}
	if err := s.conn.missingSecret(); err != nil {
		return err
	}
	// A write that never reaches the store is audited as Do would audit it.
	s.attempt = &store.AuditEntry{Action: action, Conversation: w.Conversation, Seqs: w.seqs, As: w.By,
		Admin: w.Admin || w.By != "" && w.By == s.conn.OpenIMAdmin}
	return s.withStore(ctx, writes, func(st *store.Store) error {
		// A long write shows its progress bucket by bucket on a terminal.
		step, end := progressPrinter(s.stderr, action+" of "+strconv.Itoa(len(w.seqs))+" seqs", false)
		start := time.Now()
		// Through the API the server decides: chatlens says first what it expects.
		ctx := store.WithPrediction(store.WithProgress(ctx, step), func(p store.Prediction) {
			fmt.Fprintln(s.stderr, "chatlens: expected: "+oneLine(p.String()))
		})
		res, err := st.Do(ctx, store.WriteRequest{Action: action, Cid: w.Conversation, By: w.By, Seqs: w.seqs, Admin: w.Admin})
		end()
		if w.Stats { // a write stopped part way has made round trips too
			printWriteStats(s, st, start)
		}
		if err != nil {
			return err
		}
		as := w.By
		if w.Admin || st.IsIMAdmin(w.By) {
			as += " as an app admin"
		}
		if w.Format == "json" {
			if err := printJSON(s.stdout, doneJSON(action, w, res, w.Admin || st.IsIMAdmin(w.By))); err != nil {
				return err
			}
		}
		if res.API != nil {
			if w.Format == "text" {
				fmt.Fprintln(s.stdout, projection.SingleLine(apiDoneLine(action, w.Conversation, as, res)))
				if words := res.API.NoticeWords(); words != "" {
					fmt.Fprintln(s.stdout, projection.SingleLine("notified: "+words))
				}
			}
			if words := res.API.UnnoticedWords(); words != "" {
				fmt.Fprintln(s.stderr, "chatlens: warning: "+oneLine(words))
			}
			if len(res.API.Unexpected) > 0 {
				fmt.Fprintf(s.stderr, "chatlens: warning: %s (seq %s): chatlens's rules and the server's differ there\n",
					store.ExpectedRefusalAccepted, store.FormatSeqs(res.API.Unexpected))
			}
			s.printNotes(res.Notes)
			return nil
		}
		var done string
		switch action {
		case "revoke":
			done = fmt.Sprintf("revoked seq %s of %s by %s (role %d)", store.FormatSeqs(w.seqs), w.Conversation, as, res.Revoke.Role)
		case "delete":
			done = fmt.Sprintf("deleted seq %s of %s for %s", store.FormatSeqs(w.seqs), w.Conversation, as)
		case "read":
			done = fmt.Sprintf("marked seq %s of %s read by %s", store.FormatSeqs(w.seqs), w.Conversation, as)
		}
		if w.Format == "text" {
			fmt.Fprintln(s.stdout, projection.SingleLine(done))
		}
		s.printNotes(res.Notes)
		if res.StaleCache != nil {
			fmt.Fprintln(s.stderr, "chatlens: warning: the write stands but the cache may serve the old state: "+oneLine(res.StaleCache.Error()))
		}
		if s.conn.MongoURI != "" {
			fmt.Fprintln(s.stderr, "chatlens: note: "+oneLine(store.NotificationNote(action, w.By)))
		}
		return nil
	})
}

// printWriteStats says on stderr the round trips a write or its plan made
// since start (--stats).
func printWriteStats(s *session, st *store.Store, start time.Time) {
	stats := st.Stats()
	fmt.Fprintf(s.stderr, "chatlens: %d round trips in %s; cache: %d round trips, %d hits, %d misses\n",
		stats.RoundTrips, time.Since(start).Round(time.Microsecond), stats.CacheRoundTrips, stats.CacheHits, stats.CacheMisses)
}

// apiDoneLine says what a write the server's API accepted did, once the
// store shows it (the server writes MongoDB after it answers); the
// notifications found are said after it.
func apiDoneLine(action, cid, as string, res store.Done) string {
	seqs := store.FormatSeqs(res.Seqs)
	if len(res.API.Unconfirmed) > 0 {
		return fmt.Sprintf("%s of seq %s of %s by %s: the server accepted it; the store does not show it yet (seq %s)",
			action, seqs, cid, as, store.FormatSeqs(res.API.Unconfirmed))
	}
	switch action {
	case "revoke":
		role := ""
		if res.Revoke != nil {
			role = fmt.Sprintf(" (role %d)", res.Revoke.Role)
		}
		return fmt.Sprintf("revoked seq %s of %s by %s%s through the OpenIM API", seqs, cid, as, role)
	case "delete":
		return fmt.Sprintf("deleted seq %s of %s for %s through the OpenIM API", seqs, cid, as)
	}
	return fmt.Sprintf("marked seq %s of %s read by %s through the OpenIM API", seqs, cid, as)
}

// printNotes says on stderr what a write did to the seqs that were not
// plain messages in the user's window.
func (s *session) printNotes(notes []store.SeqNote) {
	for _, n := range notes {
		fmt.Fprintln(s.stderr, "chatlens: note: "+oneLine(n.String()))
	}
}
