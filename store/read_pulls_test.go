package store

import (
	"fmt"
	"strings"
	"testing"
)

// TestPulledWordsNameAtMost20: a large group's pulled-by line names 20
// members and says how many more, as the readers line does.
func TestPulledWordsNameAtMost20(t *testing.T) {
	var pulls []NoticePull
	for i := range 25 {
		pulls = append(pulls, NoticePull{Member: Member{UserID: fmt.Sprint("u", i)}, Theirs: true, MinSeq: 1, MaxSeq: 9 + int64(i%2)})
	}
	got := PulledWords(10, pulls)
	if len(got) != 2 || !strings.HasPrefix(got[0], "pulled by 12 of 25: u1, u3") || strings.HasSuffix(got[0], "more") ||
		got[1] != "not pulled by 13 of 25: u0, u2, u4, u6, u8, u10, u12, u14, u16, u18, u20, u22, u24" {
		t.Errorf("PulledWords: %q", got)
	}
	for i := range pulls {
		pulls[i].MaxSeq = 10
	}
	if got := PulledWords(10, pulls); len(got) != 1 || !strings.HasSuffix(got[0], ", u19 and 5 more") {
		t.Errorf("PulledWords of 25 pulls: %q, want 20 names and 5 more", got)
	}
}
