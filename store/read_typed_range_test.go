package store

import (
	"strings"
	"testing"
	"time"
)

// TestTypedRangeIncludesItsLastDay: a range a person types means what it
// says: D1..D2 is all of D1 and all of D2, "D1 14:00..D2 15:00" holds
// 15:00's minute, "…:05" its second; in the zone typed in, a day of 25
// hours too.
func TestTypedRangeIncludesItsLastDay(t *testing.T) {
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Skip("no time zone database:", err)
	}
	at := func(s string, loc *time.Location) int64 {
		v, err := time.ParseInLocation("2006-01-02 15:04:05", s, loc)
		if err != nil {
			t.Fatal(err)
		}
		return v.UnixMilli()
	}
	for _, c := range []struct {
		typed    string
		loc      *time.Location
		from, to string // the first moment in, the first moment past
	}{
		{"2024-01-20..2024-01-21", time.UTC, "2024-01-20 00:00:00", "2024-01-22 00:00:00"},
		{"2024-01-20..2024-01-20", time.UTC, "2024-01-20 00:00:00", "2024-01-21 00:00:00"},
		{"2024-01-20 14:00..2024-01-21 15:00", time.UTC, "2024-01-20 14:00:00", "2024-01-21 15:01:00"},
		{"2024-05-01 09:10..2024-05-01 09:20:05", time.UTC, "2024-05-01 09:10:00", "2024-05-01 09:20:06"},
		{"2024-10-27..2024-10-27", berlin, "2024-10-27 00:00:00", "2024-10-28 00:00:00"}, // 25 hours
	} {
		r, err := ParseTypedRange(c.typed, c.loc)
		if err != nil || !r.Dates || r.From != at(c.from, c.loc) || r.To != at(c.to, c.loc) {
			t.Errorf("%s = %v..%v (%v), want %s up to %s", c.typed, time.UnixMilli(r.From).In(c.loc), time.UnixMilli(r.To).In(c.loc), err, c.from, c.to)
		}
	}
	r, _ := ParseTypedRange("2024-01-20..2024-01-21", time.UTC)
	if got, want := r.String(), "2024-01-20..2024-01-21: sent from 2024-01-20 00:00:00 through 2024-01-21 23:59:59 UTC"; got != want {
		t.Errorf("the range asked says %q, want %q", got, want)
	}
	for typed, want := range map[string][2]int64{"10-40": {10, 40}, "10..40": {10, 40}, "7": {7, 7}} {
		if r, err := ParseTypedRange(typed, time.UTC); err != nil || r.Dates || r.From != want[0] || r.To != want[1] {
			t.Errorf("%s = %+v, %v", typed, r, err)
		}
	}
}

// TestTypedRangeReversedSaysSo: a range whose first date or seq is after
// its last says it is reversed (it said "not a date range"); what is no
// range says that.
func TestTypedRangeReversedSaysSo(t *testing.T) {
	for typed, want := range map[string]string{
		"2024-05-29..2024-05-28":             "dates 2024-05-29..2024-05-28 are reversed",
		"2024-05-29 10:00..2024-05-29 09:59": "reversed",
		"9-3":                                "seqs 9-3 are reversed",
		"10-":                                "is not a seq range",
		"x":                                  "is not a seq range",
		"2024-05-29..tomorrow":               "is not a seq range",
	} {
		_, err := ParseTypedRange(typed, time.UTC)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", typed, err, want)
		}
	}
}

// A moment (--at, the UI's ":at") is RFC 3339 with fractional seconds and
// a zone, Unix milliseconds, or a typed time in the zone times are shown in
// (its first instant); anything else is refused.
func TestParseMomentTakesEachForm(t *testing.T) {
	tokyo := time.FixedZone("JST", 9*3600)
	want := time.Date(2024, 6, 15, 14, 30, 0, 0, tokyo)
	for in, at := range map[string]time.Time{
		"2024-06-15T14:30:00.000+09:00": want,
		"2024-06-15T05:30:00Z":          want,
		"1718429400000":                 want,
		"2024-06-15 14:30":              want,
		" 2024-06-15T14:30 ":            want,
		"2024-06-15 14:30:05":           want.Add(5 * time.Second),
		"2024-06-15":                    want.Add(-14*time.Hour - 30*time.Minute),
		"2024-06-15T14:30:00.250+09:00": want.Add(250 * time.Millisecond),
	} {
		got, ok := ParseMoment(in, tokyo)
		if !ok || !got.Equal(at) {
			t.Errorf("ParseMoment(%q) = %v, %v; want %v", in, got, ok, at)
		}
	}
	for _, in := range []string{"yesterday", "14:30", "2024-13-01", "-5", ""} {
		if _, ok := ParseMoment(in, tokyo); ok {
			t.Errorf("ParseMoment(%q) accepted; want refused", in)
		}
	}
}
