package projection

import "testing"

func TestHoleRunCountsTheSeqs(t *testing.T) {
	for _, c := range []struct {
		first, last int64
		want        string
	}{
		{151, 10085, "· seqs 151–10085: no message (9,935)"},
		{2, 3, "· seqs 2–3: no message (2)"},
		{1, 1_000_000, "· seqs 1–1000000: no message (1,000,000)"},
	} {
		if got := HoleRun(c.first, c.last); got != c.want {
			t.Errorf("HoleRun(%d, %d) = %q, want %q", c.first, c.last, got, c.want)
		}
	}
}
