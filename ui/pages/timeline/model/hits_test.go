package model

import (
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// TestSearchLandsOnTheNearestHit: the scan grows outwards from where the
// search started, by random amounts on either side; the hit it lands on,
// once it says it may, is the nearest of all hits (a tie to the older),
// and n (older) and N (newer) step as they would over all the hits.
func TestSearchLandsOnTheNearestHit(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		end := rapid.Int64Range(1, 500).Draw(t, "end")
		all := slices.Compact(slices.Sorted(slices.Values(rapid.SliceOfN(rapid.Int64Range(1, end), 0, 12).Draw(t, "hits"))))
		origin := rapid.Int64Range(1, end).Draw(t, "origin")
		want, wantFound := int64(0), false
		for _, s := range all {
			if !wantFound || dist(s, origin) < dist(want, origin) {
				want, wantFound = s, true
			}
		}
		h := Hits{From: origin, To: origin - 1, First: 1, Last: end}
		for {
			h.From = max(1, h.From-rapid.Int64Range(0, 40).Draw(t, "down"))
			h.To = min(end, h.To+rapid.Int64Range(0, 40).Draw(t, "up"))
			h.Done = h.From == 1 && h.To == end
			h.Seqs = nil
			for _, s := range all {
				if s >= h.From && s <= h.To {
					h.Seqs = append(h.Seqs, s)
				}
			}
			hit, decided, found := h.Nearest(origin)
			if decided {
				if found != wantFound || found && hit != want {
					t.Fatalf("landed on %d (found %v) scanning %d..%d, want %d (found %v)", hit, found, h.From, h.To, want, wantFound)
				}
				if older, wrapped, ok := h.Older(origin); ok && found && !wrapped && older >= origin {
					t.Fatalf("n from %d went to %d, not older", origin, older)
				}
			}
			if h.Done {
				break
			}
		}
		for i, s := range all {
			if n, ok := h.Number(s); !ok || n != len(all)-i {
				t.Fatalf("hit %d numbered %d, want %d (from the newest)", s, n, len(all)-i)
			}
			if older, wrapped, _ := h.Older(s); i > 0 && (older != all[i-1] || wrapped) || i == 0 && (older != all[len(all)-1] || !wrapped) {
				t.Fatalf("n from hit %d went to %d (wrapped %v)", s, older, wrapped)
			}
			if newer, wrapped, _ := h.Newer(s); i+1 < len(all) && (newer != all[i+1] || wrapped) || i+1 == len(all) && (newer != all[0] || !wrapped) {
				t.Fatalf("N from hit %d went to %d (wrapped %v)", s, newer, wrapped)
			}
		}
	})
}
