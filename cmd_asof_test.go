package main

import (
	"testing"
	"time"
)

// --at takes RFC 3339 with fractional seconds and a zone, Unix
// milliseconds, and the forms the UI's `:` takes, in the zone times are
// shown in (their first instant); anything else is refused with the forms.
func TestParseAtTakesEachForm(t *testing.T) {
	tokyo := time.FixedZone("JST", 9*3600)
	want := time.Date(2024, 6, 15, 14, 30, 0, 0, tokyo)
	for in, at := range map[string]time.Time{
		"2024-06-15T14:30:00.000+09:00": want,
		"2024-06-15T05:30:00Z":          want,
		"1718429400000":                 want,
		"2024-06-15 14:30":              want,
		"2024-06-15T14:30":              want,
		"2024-06-15 14:30:05":           want.Add(5 * time.Second),
		"2024-06-15":                    want.Add(-14*time.Hour - 30*time.Minute),
		"2024-06-15T14:30:00.250+09:00": want.Add(250 * time.Millisecond),
	} {
		got, err := parseAt(in, tokyo)
		if err != nil || !got.Equal(at) {
			t.Errorf("parseAt(%q) = %v, %v; want %v", in, got, err, at)
		}
	}
	for _, in := range []string{"yesterday", "14:30", "2024-13-01", "-5"} {
		if _, err := parseAt(in, tokyo); err == nil {
			t.Errorf("parseAt(%q) accepted; want refused with the forms", in)
		}
	}
}
