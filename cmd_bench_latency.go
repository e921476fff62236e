package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bench"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/demo"
	"github.com/chatlens/chatlens/ui"
)

// The UI's operations over a slow link: the demo's 50,000-message group in a
// scratch store, the real UI model driven by keys (ui.Script), a delay on
// every round trip (bench.Counting), and beside what each operation did the
// round trips it cannot do without (its physical limit: one find per
// collection read, a find per FindBatch buckets, one bulk request per
// FindBatch buckets marked read).

const (
	latencyConv   = "sg_townsquare" // the demo's long group
	latencyViewer = "alice"
	latencyBack   = 10_000 // seqs searched back and marked read
	latencyNeedle = "bench needle"
)

// holdPlan is how k is held: rows and the time between two keys.
type holdPlan struct {
	rows  int
	every time.Duration
}

// keyRepeat is a held key as key repeat sends it: 30 a second, 1,000 rows.
var keyRepeat = holdPlan{rows: 1000, every: time.Second / 30}

// latencyOp is one measured operation at one latency.
type latencyOp struct {
	Name       string        `json:"operation"`
	Latency    time.Duration `json:"latency_ns"`
	RoundTrips int64         `json:"round_trips"`
	Documents  int64         `json:"documents_read"`
	Bytes      int64         `json:"bytes_read,omitempty"` // records included, where the backend counts them
	Time       time.Duration `json:"time_ns"`
	Limit      int64         `json:"limit_round_trips"` // the physical limit
	Waited     int           `json:"keys_waited,omitempty"`
	Note       string        `json:"note,omitempty"`
}

func (c *benchCmd) runLatency(ctx context.Context, s *session) error {
	return c.measureLatency(ctx, s, func(st *store.Store, counter *bench.Counting, traffic func() int64, say func(string)) []latencyStep {
		return []latencyStep{
			func() ([]latencyOp, error) { return latencyOps(ctx, st, counter, c.Latency, keyRepeat, say) },
			func() ([]latencyOp, error) { return heavyListOps(ctx, st, counter, traffic, c.Latency, heavyRows, say) },
		}
	})
}

// latencyStep measures some operations: those it measured, and why it
// stopped short of the rest.
type latencyStep func() ([]latencyOp, error)

// measureLatency runs the steps on a scratch store (with a delay on every
// round trip the steps set) and prints the operations they measured; when
// a step fails, those the steps before it measured are printed all the
// same, then its error returned.
func (c *benchCmd) measureLatency(ctx context.Context, s *session, steps func(st *store.Store, counter *bench.Counting, traffic func() int64, say func(string)) []latencyStep) error {
	sc, err := bench.OpenScratch(ctx, bench.Target{MongoURI: s.conn.MongoURI, NoSync: true})
	if err != nil {
		return err
	}
	counter := bench.NewCounting(sc.Backend)
	st := store.New(counter, store.Options{})
	say := func(line string) { fmt.Fprintln(s.stderr, "chatlens: bench: "+line) }
	ops, err := measureSteps(steps(st, counter, bytesReadOf(sc.Backend), say)...)
	if cerr := sc.Close(); err == nil {
		err = cerr
	}
	if len(ops) == 0 {
		return err
	}
	if werr := c.writeLatency(s.stdout, sc.Describe, ops); err == nil {
		err = werr
	} else {
		say("the operations printed were measured before this failed")
	}
	return err
}

// measureSteps runs the steps in turn, each adding the operations it
// measured, up to the first that fails: what the steps before it measured
// and its error.
func measureSteps(steps ...latencyStep) ([]latencyOp, error) {
	var out []latencyOp
	for _, step := range steps {
		ops, err := step()
		out = append(out, ops...)
		if err != nil {
			return out, err
		}
	}
	return out, nil
}

// writeLatency prints the operations as a table, or with --json as one
// object.
func (c *benchCmd) writeLatency(w io.Writer, target string, ops []latencyOp) error {
	if c.JSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(struct {
			Target string      `json:"target"`
			Ops    []latencyOp `json:"operations"`
		}{target, ops})
	}
	return writeLatencyTable(w, target, ops)
}

// latencyOps seeds the demo, marks what the operations look for, and runs
// them at each latency.
func latencyOps(ctx context.Context, st *store.Store, counter *bench.Counting, latencies []time.Duration, hold holdPlan, say func(string)) ([]latencyOp, error) {
	say("seeding the demo")
	d, err := seedLatencyDemo(ctx, st)
	if err != nil {
		return nil, err
	}
	var out []latencyOp
	for _, lat := range latencies {
		say("the UI's operations at " + lat.String() + " a round trip")
		ops, err := d.run(ctx, st, counter, lat, hold)
		if err != nil {
			return out, err // what the latencies before measured
		}
		out = append(out, ops...)
	}
	return out, nil
}

// latencyDemo is the seeded demo the operations run on: the long group's
// newest seq, the needle a search finds and the message quoting three
// buckets back.
type latencyDemo struct{ maxSeq, needle, quote int64 }

// seedLatencyDemo seeds the demo into st and writes the needle and the quote.
func seedLatencyDemo(ctx context.Context, st *store.Store) (latencyDemo, error) {
	if _, err := demo.Seed(ctx, st, demo.Options{Seed: 1}, nil); err != nil {
		return latencyDemo{}, err
	}
	recs, err := st.Backend().SeqRecords(ctx, []string{latencyConv})
	if err != nil || len(recs) != 1 {
		return latencyDemo{}, fmt.Errorf("bench: the demo's %s has no seq document (%v)", latencyConv, err)
	}
	d := latencyDemo{maxSeq: recs[0].MaxSeq}
	d.needle, d.quote = d.maxSeq-latencyBack, d.maxSeq-1000
	if err := rewriteText(ctx, st, d.needle, d.maxSeq, latencyNeedle, 0); err != nil {
		return latencyDemo{}, err
	}
	if err := rewriteText(ctx, st, d.quote, d.maxSeq, "a quote three buckets back", d.quote-3*bucket.BucketSize); err != nil {
		return latencyDemo{}, err
	}
	return d, nil
}

// run runs the operations once at lat, from the same read seq each time
// (the mark read raises it).
func (d latencyDemo) run(ctx context.Context, st *store.Store, counter *bench.Counting, lat time.Duration, hold holdPlan) ([]latencyOp, error) {
	if err := setReadSeq(ctx, st, d.maxSeq-latencyBack); err != nil {
		return nil, err
	}
	counter.SetLatency(lat)
	defer counter.SetLatency(0)
	return uiOps(ctx, st, counter, lat, hold, d.maxSeq, d.needle, d.quote), nil
}

// uiOps runs the operations one after the other on one UI.
func uiOps(ctx context.Context, st *store.Store, counter *bench.Counting, lat time.Duration, hold holdPlan, maxSeq, needle, quote int64) []latencyOp {
	var out []latencyOp
	var sc *ui.Script
	measure := func(name string, limit int64, run func() (int, string)) {
		c0, t0 := counter.Counts(), time.Now()
		waited, note := run()
		d := counter.Counts().Sub(c0)
		out = append(out, latencyOp{Name: name, Latency: lat, RoundTrips: d.RoundTrips, Documents: d.Documents,
			Time: time.Since(t0), Limit: limit, Waited: waited, Note: note})
	}
	at := func(want int64) string {
		if got := sc.Cursor(); got != want {
			return fmt.Sprintf("cursor at %d, want %d", got, want)
		}
		return ""
	}
	const width, height = 120, 40
	screen := int64(height - 4)
	newestBuckets := bucket.BucketIndex(maxSeq) - bucket.BucketIndex(max(1, maxSeq-screen)) + 1
	finds := func(buckets int64) int64 { return (buckets + int64(st.FindBatch) - 1) / int64(st.FindBatch) }
	// The list: alice's conversation documents, then their seq and seq_user
	// documents, the newest bucket of each (4 conversations, one find), the
	// user and the group names: six collections, one find each (no portable
	// shape reads two collections in one request).
	measure("open the conversation list", 7, func() (int, string) {
		sc = ui.NewScript(ctx, st, ui.Options{As: latencyViewer, TimeZone: time.UTC}, width, height)
		return 0, ""
	})
	sc.Keys("/", latencyConv, "enter")
	measure("open a conversation at its newest", newestBuckets-1, func() (int, string) {
		sc.Keys("enter") // the list read the newest bucket already
		return 0, at(maxSeq)
	})
	// The buckets the rows cover that the first screen did not read, and
	// the one past them read ahead (a held key never waits on a read); a
	// quoted slot outside them (the quote three buckets back) could come in
	// the find that reads ahead (it comes in one of its own: one above).
	holdBuckets := bucket.BucketIndex(maxSeq) - bucket.BucketIndex(maxSeq-int64(hold.rows)) + 1
	measure(fmt.Sprintf("hold k for %d rows at %.0f keys/s", hold.rows, time.Second.Seconds()/hold.every.Seconds()),
		holdBuckets-newestBuckets+1, func() (int, string) {
			waited := sc.Hold("k", hold.rows, hold.every)
			return waited, at(maxSeq - int64(hold.rows)) // no hole among the newest 1,000
		})
	sc.Keys(":", "40050", "enter")
	// 398 and 397 in the one find the cursor waits on, then 396 read ahead.
	measure("250 k in one burst from 40050", 2, func() (int, string) {
		sc.Keys(strings.Repeat("k", 250)) // as tmux send-keys or a paste delivers them
		return 0, at(39800)
	})
	sc.Keys("G")
	sc.Keys("/", latencyNeedle)
	// The list of stored buckets (a missing one then costs no find), and
	// the buckets from the newest to the hit, FindBatch a find.
	toHit := int64(latencyBack/bucket.BucketSize + 1)
	measure("search back 10,000 seqs, to the hit", 1+finds(toHit), func() (int, string) {
		sc.Press("enter")
		sc.Reach(needle) // the scan goes on, counting the hits
		return 0, at(needle)
	})
	// The other buckets, FindBatch a find (the last find to the hit read
	// some of them); the buckets around the hit came with the search. Not
	// counted: the quoted slots of quotes reaching past their batch (2
	// here), which the next batch reads whole: matching those quotes once
	// it is read would save their finds.
	measure("  the rest of that scan, counting hits", finds(bucket.BucketIndex(maxSeq)+1)-finds(toHit), func() (int, string) {
		sc.Settle()
		return 0, ""
	})
	sc.Keys(":", strconv.FormatInt(quote, 10), "enter")
	// Who has read the message: the group's members, their names and their
	// read seqs (group_member, user, seq_user: one find each). The quoted
	// slot came with the quote's bucket: no msg document.
	measure("inspector on a quote three buckets back", 3, func() (int, string) {
		sc.Keys("i")
		return 0, ""
	})
	sc.Keys("esc", "G")
	// The checks the server makes (the user; the window: seq, seq_user,
	// conversation, the newest bucket); is_read in every bucket of the
	// seqs, the filtered updates mark_msgs_as_read sends one bulk request a
	// bucket, here FindBatch buckets a request (101 buckets: 7); the read
	// seq raised; then the held buckets written, in one find, and the read
	// seq read back. (One more is measured: the read ahead of the bucket
	// below the screen G showed, due since G, made at the write's reply.)
	marked := bucket.BucketIndex(maxSeq) - bucket.BucketIndex(maxSeq-latencyBack+1) + 1
	measure("mark read of 10,000 seqs", 5+finds(marked)+1+2, func() (int, string) {
		sc.Keys("m", "y")
		return 0, ""
	})
	next, switchTrips, err := switchPlan(ctx, st, latencyViewer, latencyConv)
	if err != nil {
		return append(out, latencyOp{Name: "switch the viewer", Latency: lat, Note: err.Error()})
	}
	measure("switch the viewer", switchTrips, func() (int, string) {
		sc.Keys("V")
		if v := sc.Viewer(); v != next {
			return 0, fmt.Sprintf("viewing as %s, want %s", v, next)
		}
		return 0, ""
	})
	// The bucket of seq 100 and the one after it, in one find.
	measure("jump to a seq far back", 1, func() (int, string) {
		sc.Keys(":", "100", "enter")
		return 0, at(100)
	})
	return out
}

// switchPlan is who V switches to from viewer in cid once the members are
// read (the inspector read them: the next member), and the round trips the
// switch cannot do without: their conversation and seq_user documents
// (their list, and their window of cid), and, for what the list shown does
// not hold, the seq documents and newest buckets (one find each) and the
// user and the group names (one find each).
func switchPlan(ctx context.Context, st *store.Store, viewer, cid string) (string, int64, error) {
	ms, err := st.MembersFor(ctx, cid, viewer)
	if err != nil || len(ms) < 2 {
		return "", 0, fmt.Errorf("bench: the members of %s: %d (%v)", cid, len(ms), err)
	}
	next := ms[0].UserID
	for i, m := range ms {
		if m.UserID == viewer {
			next = ms[(i+1)%len(ms)].UserID
		}
	}
	shown, err := st.ConversationsOf(ctx, viewer)
	if err != nil {
		return "", 0, err
	}
	theirs, err := st.ConversationsOf(ctx, next)
	if err != nil {
		return "", 0, err
	}
	held, users, groups := map[string]bool{}, map[string]bool{viewer: true}, map[string]bool{}
	for _, c := range shown {
		held[c.ConversationID], users[store.PeerOf(c.Conversation, viewer)], groups[store.GroupOf(c.ConversationID)] = true, true, true
	}
	newConv, newUser, newGroup := false, !users[next], false
	for _, c := range theirs {
		newConv = newConv || !held[c.ConversationID]
		if p := store.PeerOf(c.Conversation, next); p != "" {
			newUser = newUser || !users[p]
		}
		if g := store.GroupOf(c.ConversationID); g != "" {
			newGroup = newGroup || !groups[g]
		}
	}
	trips := int64(2)
	for _, more := range []bool{newConv, newConv, newUser, newGroup} {
		if more {
			trips++
		}
	}
	return next, trips, nil
}

// rewriteText gives the message at seq the text text (quoting quoted when
// it is above 0), so the operations have something to find.
func rewriteText(ctx context.Context, st *store.Store, seq, maxSeq int64, text string, quoted int64) error {
	slots, err := st.Slots(ctx, latencyConv, []int64{seq}, maxSeq)
	if err != nil {
		return err
	}
	s := slots[seq]
	if s.IsHole() {
		return fmt.Errorf("bench: seq %d of the demo holds no message", seq)
	}
	m := *s.Slot.Msg
	content, _ := json.Marshal(map[string]string{"content": text})
	m.ContentType, m.Content = 101, string(content)
	if quoted > 0 {
		q, _ := json.Marshal(map[string]any{"text": text, "quoteMessage": map[string]any{"seq": quoted, "contentType": 101,
			"sendID": m.SendID, "textElem": map[string]string{"content": "quoted"}}})
		m.ContentType, m.Content = 114, string(q)
	}
	_, err = st.Backend().SetSlotField(ctx, bucket.DocIDForSeq(latencyConv, seq), bucket.SlotIndex(seq), "msg", &m)
	return err
}

// setReadSeq puts the viewer's read seq back to seq (the mark read of the
// run before moved it).
func setReadSeq(ctx context.Context, st *store.Store, seq int64) error {
	us, err := st.Backend().SeqUsers(ctx, latencyViewer, []string{latencyConv})
	if err != nil {
		return err
	}
	u := bucket.SeqUser{UserID: latencyViewer, ConversationID: latencyConv}
	if len(us) == 1 {
		u = us[0]
	}
	u.ReadSeq = seq
	raw, err := bson.Marshal(u)
	if err != nil {
		return err
	}
	_, err = st.Backend().InsertRaw(ctx, bucket.CollSeqUser, []bson.Raw{raw}, store.RawUpsert)
	return err
}

// bytesReadOf is b's own count of bytes read, or 0 always where it keeps
// none.
func bytesReadOf(b store.Backend) func() int64 {
	m, ok := b.(store.Metered)
	if !ok {
		return func() int64 { return 0 }
	}
	return func() int64 { return m.Traffic().BytesRead }
}

func writeLatencyTable(w io.Writer, target string, ops []latencyOp) error {
	fmt.Fprintf(w, "the UI's operations over a slow link: %s, %s of the demo as %s\n\n", target, latencyConv, latencyViewer)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "operation\tlatency\tround trips\tlimit (round trips)\tdocuments read\tbytes read\ttime\tkeys waited\t")
	for _, o := range ops {
		waited, read := "", ""
		if o.Name[:4] == "hold" {
			waited = strconv.Itoa(o.Waited)
		}
		if o.Bytes > 0 {
			read = groupDigits(o.Bytes)
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%s\t%s\t%s\t%s\n", o.Name, o.Latency, o.RoundTrips, o.Limit, o.Documents,
			read, o.Time.Round(time.Millisecond), waited, o.Note)
	}
	return tw.Flush()
}
