package check

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
)

// Report is what Run found: the problems one by one (the first MaxListed),
// and a summary that counts everything.
type Report struct {
	Conversation  string // "" when every conversation was checked
	Documents     int    // msg documents read
	Slots         int    // elements of their msgs arrays
	Messages      int    // positions holding a message
	Conversations int    // conversations with messages, whose seq documents were looked up
	SeqChecked    int    // seq documents found for them
	Indexes       map[string][]store.IndexInfo
	Plans         *store.QueryPlans  // nil when the backend cannot explain (embedded)
	PlansErr      error              // explain could not be run, or the shard key not read
	Advice        []string           // worth knowing, not problems: OpenIM indexes missing or different
	SlotReads     store.SlotReadMode // how a read of a few slots reads: projected or whole buckets
	Listed        []Problem
	ByKind        map[bucket.ProblemKind]int
	total         int
}

func newReport(cid string) *Report {
	return &Report{Conversation: cid, ByKind: map[bucket.ProblemKind]int{}}
}

func (r *Report) addDocument(d Document) {
	r.Documents++
	r.Slots += d.Slots
	r.Messages += d.Messages
	for _, p := range d.Problems {
		r.add(p)
	}
}

func (r *Report) add(p Problem) {
	r.total++
	r.ByKind[p.Kind]++
	if len(r.Listed) < MaxListed {
		r.Listed = append(r.Listed, p)
	}
}

// Problems is the number of problems found, listed or not.
func (r *Report) Problems() int { return r.total }

// Write prints the report: the indexes, each listed problem on one line,
// then the summary. Every stored string is sanitised: doc_ids and reasons
// come from the data and may hold escape sequences.
func (r *Report) Write(w io.Writer) {
	scope := "every conversation"
	if r.Conversation != "" {
		scope = "conversation " + quote(r.Conversation)
	}
	fmt.Fprintf(w, "check: msg documents of %s\n", scope)
	r.writeIndexes(w)
	r.writePlans(w)
	fmt.Fprintln(w, r.SlotReads)
	for _, a := range r.Advice {
		fmt.Fprintf(w, "advice: %s\n", clean(a))
	}
	if r.total > 0 {
		fmt.Fprintln(w, "problems:")
	}
	for _, p := range r.Listed {
		fmt.Fprintf(w, "  %s  %s  %s\n", where(p), p.Kind, clean(p.Reason))
	}
	if r.total > len(r.Listed) {
		fmt.Fprintf(w, "  … and %d more, counted below\n", r.total-len(r.Listed))
	}
	fmt.Fprintf(w, "summary: %d documents, %d slots, %d messages, %d seq documents for %d conversations, %d problems\n",
		r.Documents, r.Slots, r.Messages, r.SeqChecked, r.Conversations, r.total)
	kinds := make([]string, 0, len(r.ByKind))
	for k := range r.ByKind {
		kinds = append(kinds, string(k))
	}
	slices.Sort(kinds)
	for _, k := range kinds {
		fmt.Fprintf(w, "  %-14s %d\n", k, r.ByKind[bucket.ProblemKind(k)])
	}
}

func (r *Report) writeIndexes(w io.Writer) {
	colls := make([]string, 0, len(r.Indexes))
	for c := range r.Indexes {
		colls = append(colls, c)
	}
	slices.Sort(colls)
	for _, c := range colls {
		var parts []string
		for _, ix := range r.Indexes[c] {
			keys := make([]string, len(ix.Keys))
			for i, k := range ix.Keys {
				keys[i] = clean(k) + ": 1"
			}
			s := "{" + strings.Join(keys, ", ") + "}"
			if ix.Unique {
				s += " unique"
			}
			parts = append(parts, s)
		}
		fmt.Fprintf(w, "indexes: %s %s\n", clean(c), strings.Join(parts, ", "))
	}
	writeFindAdvice(w, r.Indexes)
}

// writeFindAdvice suggests the indexes `chatlens find` uses; chatlens
// never creates them unasked (they cost every insert on a live server).
func writeFindAdvice(w io.Writer, indexes map[string][]store.IndexInfo) {
	for _, f := range []string{store.FieldClientMsgID, store.FieldServerMsgID} {
		if store.IndexFor(indexes, f) == "" {
			fmt.Fprintf(w, "suggest: no index on msgs.msg.%s, so find scans every bucket; on MongoDB: db.msg.createIndex({\"msgs.msg.%s\": 1}) (optional: OpenIM does not create it)\n", f, f)
		}
	}
}

// where names the position of a problem: doc_id, slot and seq when known.
func where(p Problem) string {
	var s string
	switch {
	case p.DocID != "":
		s = quote(p.DocID)
	case p.ID != "":
		s = "_id " + clean(p.ID)
	default:
		s = "-"
	}
	if p.Slot >= 0 {
		s += fmt.Sprintf(" slot %d", p.Slot)
	}
	if p.Seq > 0 {
		s += fmt.Sprintf(" seq %d", p.Seq)
	}
	return s
}

// maxText bounds stored text quoted in a report line.
const maxText = 300

// quote shows a stored identifier unambiguously, escapes and all, cut
// to a sane length.
func quote(s string) string { return bucket.QuoteName(s) }

// clean makes a reason safe for a terminal: control characters, escape
// sequences, bidi overrides and invalid UTF-8 are shown escaped, never sent.
func clean(s string) string { return bucket.EscapeUntrusted(s, maxText) }
