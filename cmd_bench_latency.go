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
// every round trip (bench.Counting), and what each operation must touch at
// the least beside what it did.

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
	Time       time.Duration `json:"time_ns"`
	Limit      int64         `json:"documents_to_touch"` // the physical limit
	Waited     int           `json:"keys_waited,omitempty"`
	Note       string        `json:"note,omitempty"`
}

func (c *benchCmd) runLatency(ctx context.Context, s *session) error {
	sc, err := bench.OpenScratch(ctx, bench.Target{MongoURI: s.conn.MongoURI, NoSync: true})
	if err != nil {
		return err
	}
	counter := bench.NewCounting(sc.Backend)
	st := store.New(counter, store.Options{})
	ops, err := latencyOps(ctx, st, counter, c.Latency, keyRepeat, func(line string) { fmt.Fprintln(s.stderr, "chatlens: bench: "+line) })
	if cerr := sc.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	if c.JSON {
		enc := json.NewEncoder(s.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(struct {
			Target string      `json:"target"`
			Ops    []latencyOp `json:"operations"`
		}{sc.Describe, ops})
	}
	return writeLatencyTable(s.stdout, sc.Describe, ops)
}

// latencyOps seeds the demo, marks what the operations look for, and runs
// them at each latency.
func latencyOps(ctx context.Context, st *store.Store, counter *bench.Counting, latencies []time.Duration, hold holdPlan, say func(string)) ([]latencyOp, error) {
	say("seeding the demo")
	if _, err := demo.Seed(ctx, st, demo.Options{Seed: 1}, nil); err != nil {
		return nil, err
	}
	recs, err := st.Backend().SeqRecords(ctx, []string{latencyConv})
	if err != nil || len(recs) != 1 {
		return nil, fmt.Errorf("bench: the demo's %s has no seq document (%v)", latencyConv, err)
	}
	maxSeq := recs[0].MaxSeq
	needle, quote := maxSeq-latencyBack, maxSeq-1000
	if err := rewriteText(ctx, st, needle, maxSeq, latencyNeedle, 0); err != nil {
		return nil, err
	}
	if err := rewriteText(ctx, st, quote, maxSeq, "a quote three buckets back", quote-3*bucket.BucketSize); err != nil {
		return nil, err
	}
	var out []latencyOp
	for _, lat := range latencies {
		say("the UI's operations at " + lat.String() + " a round trip")
		if err := setReadSeq(ctx, st, maxSeq-latencyBack); err != nil {
			return nil, err
		}
		counter.SetLatency(lat)
		out = append(out, uiOps(ctx, st, counter, lat, hold, maxSeq, needle, quote)...)
		counter.SetLatency(0)
	}
	return out, nil
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
	// The list: alice's conversation documents, their seq and seq_user
	// documents, the newest bucket of each (4 conversations), the names.
	measure("open the conversation list", 4, func() (int, string) {
		sc = ui.NewScript(ctx, st, ui.Options{As: latencyViewer, TimeZone: time.UTC}, width, height)
		return 0, ""
	})
	sc.Keys("/", latencyConv, "enter")
	measure("open a conversation at its newest", newestBuckets-1, func() (int, string) {
		sc.Keys("enter") // the list read the newest bucket already
		return 0, at(maxSeq)
	})
	measure(fmt.Sprintf("hold k for %d rows at %.0f keys/s", hold.rows, time.Second.Seconds()/hold.every.Seconds()),
		int64(hold.rows/bucket.BucketSize+1), func() (int, string) {
			waited := sc.Hold("k", hold.rows, hold.every)
			return waited, at(maxSeq - int64(hold.rows)) // no hole among the newest 1,000
		})
	sc.Keys(":", "40050", "enter")
	measure("250 k in one burst from 40050", 3, func() (int, string) {
		sc.Keys(strings.Repeat("k", 250)) // as tmux send-keys or a paste delivers them
		return 0, at(39800)
	})
	sc.Keys("G")
	sc.Keys("/", latencyNeedle)
	measure("search back 10,000 seqs, to the hit", latencyBack/bucket.BucketSize+1, func() (int, string) {
		sc.Press("enter")
		sc.Reach(needle) // the scan goes on, counting the hits
		return 0, at(needle)
	})
	measure("  the rest of that scan, counting hits", bucket.BucketIndex(maxSeq)-latencyBack/bucket.BucketSize, func() (int, string) {
		sc.Settle()
		return 0, ""
	})
	sc.Keys(":", strconv.FormatInt(quote, 10), "enter")
	measure("inspector on a quote three buckets back", 0, func() (int, string) {
		// The quoted slot was read with the quote's bucket; the round trips
		// are who has read the message (members, their read seqs), no msg
		// document.
		sc.Keys("i")
		return 0, ""
	})
	sc.Keys("esc", "G")
	// A group's mark read sets is_read in every bucket of the seqs, as
	// mark_msgs_as_read does (one bulk request a bucket), and raises the
	// read seq (one seq_user document).
	measure("mark read of 10,000 seqs", 10000/bucket.BucketSize+1, func() (int, string) {
		sc.Keys("m", "y")
		return 0, ""
	})
	measure("switch the viewer", 2, func() (int, string) {
		sc.Keys("V") // the new viewer's seq_user and conversation documents
		return 0, ""
	})
	measure("jump to a seq far back", 2, func() (int, string) {
		sc.Keys(":", "100", "enter")
		return 0, at(100)
	})
	return out
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

func writeLatencyTable(w io.Writer, target string, ops []latencyOp) error {
	fmt.Fprintf(w, "the UI's operations over a slow link: %s, %s of the demo as %s\n\n", target, latencyConv, latencyViewer)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "operation\tlatency\tround trips\tdocuments read\tlimit (documents)\ttime\tkeys waited\t")
	for _, o := range ops {
		waited := ""
		if o.Name[:4] == "hold" {
			waited = strconv.Itoa(o.Waited)
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%s\t%s\t%s\n", o.Name, o.Latency, o.RoundTrips, o.Documents, o.Limit,
			o.Time.Round(time.Millisecond), waited, o.Note)
	}
	return tw.Flush()
}
