package ui

import (
	"testing"
	"time"

	"github.com/chatlens/chatlens/store"
)

// startScreenAt is startScreen with the clock and display zone given.
func startScreenAt(t *testing.T, now time.Time, loc *time.Location) *screen {
	t.Helper()
	return startScreenWithOptions(t, func(*store.Store) {}, func(o *Options) {
		o.Now, o.TimeZone = func() time.Time { return now }, loc
	})
}

// TestGoldenTimesOtherYear: a year later, in a zone two hours east of UTC,
// every row carries its date with the year, the status bar names the zone
// once, and the times are the zone's (10:40 UTC is 12:40 there).
func TestGoldenTimesOtherYear(t *testing.T) {
	s := startScreenAt(t, time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC), time.FixedZone("CEST", 2*3600))
	s.open()
	s.check()
}

// TestGoldenInspectorZone: the inspector states the send time in the same
// zone as the row it inspects.
func TestGoldenInspectorZone(t *testing.T) {
	s := startScreenAt(t, time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC), time.FixedZone("CEST", 2*3600))
	s.open()
	s.jump("7")
	s.keys("i")
	s.waitFor("Inspector", "no notification found")
	s.keys("pgdown", "pgdown", "pgdown") // to the end
	s.waitFor("2024-05-01 11:07:00 CEST")
	s.check()
}
