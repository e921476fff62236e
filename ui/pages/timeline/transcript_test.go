package timeline

import (
	"testing"
	"time"
)

// TestTranscriptRangeParse: T takes seqs ("10-40", "10..40") or a date
// range, the messages sent from the first date up to the second.
func TestTranscriptRangeParse(t *testing.T) {
	from, to, dates, err := parseRange("2024-05-01 09:10..2024-05-01 09:20", time.UTC)
	if err != nil || !dates || to-from != 10*60*1000 {
		t.Errorf("date range = %d, %d, %v, %v", from, to, dates, err)
	}
	for _, bad := range []string{"10-", "x", "9-3"} {
		if _, _, _, err := parseRange(bad, time.UTC); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}
