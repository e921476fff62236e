package bench

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// WriteTable prints the layouts side by side for people: one block per
// scenario, one row per figure, and flat ÷ buckets in the last column.
func (r *Result) WriteTable(w io.Writer) error {
	if _, err := fmt.Fprintf(w, "chatlens bench: %s\n%s messages in %s, batches of %d, seed %d%s\nbucket size %d: %s layout\n%s\n\n",
		r.Target, count(int64(r.Messages)), r.Conversation, r.BatchSize, r.Seed, syncNote(r.NoSync),
		r.BucketSize, r.BucketLayout, r.SlotReads); err != nil {
		return err
	}
	var t table
	row := func(scenario, figure, b, f string, ratio float64) {
		t = append(t, []string{scenario, figure, b, f, times(ratio)})
	}
	t = append(t, []string{"scenario", "figure", "buckets", "flat", "flat ÷ buckets"})
	b, f, q := r.Buckets, r.Flat, r.Ratios
	row("write "+count(int64(r.Messages)), "round trips", count(b.Write.RoundTrips), count(f.Write.RoundTrips), q.WriteRoundTrips)
	row("", "time", seconds(b.Write.Seconds), seconds(f.Write.Seconds), q.WriteSeconds)
	row("", "messages/s", count(int64(b.Write.MessagesPerSec)), count(int64(f.Write.MessagesPerSec)), q.WriteMessagesPerSec)
	for _, s := range []struct {
		name string
		b, f Measure
		q    Ratio
	}{
		{"newest page of 20", b.Reads.Newest20, f.Reads.Newest20, q.Newest20},
		{seqRange(r.Range100), b.Reads.Range100, f.Reads.Range100, q.Range100},
		{seqRange(r.Range1000), b.Reads.Range1000, f.Reads.Range1000, q.Range1000},
		{count(int64(r.RandomReads)) + " random single reads", b.Reads.RandomSingle, f.Reads.RandomSingle, q.RandomSingle},
		{"full scroll (buckets / pages of 20)", b.Reads.FullScroll, f.Reads.FullScroll, q.FullScroll},
	} {
		row(s.name, "round trips", count(s.b.RoundTrips), count(s.f.RoundTrips), s.q.RoundTrips)
		row("", "documents", count(s.b.Documents), count(s.f.Documents), s.q.Documents)
		row("", "bytes read", bytesize(s.b.Bytes), bytesize(s.f.Bytes), s.q.Bytes)
		row("", "time", seconds(s.b.Seconds), seconds(s.f.Seconds), s.q.Seconds)
	}
	row("storage", "documents", count(b.Storage.Documents), count(f.Storage.Documents), q.Documents)
	row("", "index entries", count(b.Storage.IndexEntries), count(f.Storage.IndexEntries), q.IndexEntries)
	for _, s := range []struct {
		name string
		b, f *int64
		q    *float64
	}{
		{"data bytes", b.Storage.DataBytes, f.Storage.DataBytes, q.DataBytes},
		{"file size", b.Storage.FileBytes, f.Storage.FileBytes, q.FileBytes},
		{"storage size", b.Storage.StorageBytes, f.Storage.StorageBytes, q.StorageBytes},
		{"index size", b.Storage.IndexBytes, f.Storage.IndexBytes, q.IndexBytes},
		{"largest document (MongoDB: 16 MiB)", b.Storage.LargestDocument, f.Storage.LargestDocument, nil},
	} {
		if s.b != nil || s.f != nil {
			row("", s.name, optBytes(s.b), optBytes(s.f), optRatio(s.q))
		}
	}
	return t.write(w)
}

// table is rows of cells: the first two columns flush left (labels), the
// rest flush right (figures).
type table [][]string

func (t table) write(w io.Writer) error {
	var widths []int
	for _, r := range t {
		for i, c := range r {
			if i == len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], utf8.RuneCountInString(c))
		}
	}
	var sb strings.Builder
	for _, r := range t {
		for i, c := range r {
			pad := strings.Repeat(" ", widths[i]-utf8.RuneCountInString(c))
			switch {
			case i < 2:
				sb.WriteString(c + pad)
			default:
				sb.WriteString(pad + c)
			}
			if i < len(r)-1 {
				sb.WriteString("  ")
			}
		}
		sb.WriteString("\n")
	}
	_, err := io.WriteString(w, sb.String())
	return err
}

func syncNote(noSync bool) string {
	if noSync {
		return ", no fsync"
	}
	return ""
}

// seqRange labels a consecutive read: "100 consecutive (seqs 151–250)".
func seqRange(r [2]int64) string {
	return count(r[1]-r[0]+1) + " consecutive (seqs " + count(r[0]) + "–" + count(r[1]) + ")"
}

// count writes n with thousands separators.
func count(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := n < 0
	if neg {
		s = s[1:]
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	if neg {
		s = "-" + s
	}
	return s
}

func bytesize(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.2f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.2f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

func optBytes(n *int64) string {
	if n == nil {
		return "n/a"
	}
	return bytesize(*n)
}

func optRatio(q *float64) float64 {
	if q == nil {
		return 0
	}
	return *q
}

func seconds(s float64) string {
	d := time.Duration(s * float64(time.Second))
	switch {
	case d >= time.Second:
		return fmt.Sprintf("%.2f s", s)
	case d >= time.Millisecond:
		return fmt.Sprintf("%.2f ms", s*1e3)
	}
	return fmt.Sprintf("%.0f µs", s*1e6)
}

// times shows a ratio as "×20.0"; 0 (no bucket figure) shows as "–".
func times(q float64) string {
	switch {
	case q == 0:
		return "–"
	case q >= 100:
		return fmt.Sprintf("×%.0f", q)
	case q >= 10:
		return fmt.Sprintf("×%.1f", q)
	case q >= 0.1:
		return fmt.Sprintf("×%.2f", q)
	}
	return fmt.Sprintf("×%.3f", q)
}
