package store

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/chatlens/chatlens/store/bucket"
)

// What a person types for a moment or a range of them (the UI's : and T,
// find --since) means what it says: a date is all of that day, a minute
// all of that minute, so a range's last date, minute or second is in it.

// TypedTimeForms are the forms a moment is typed in.
const TypedTimeForms = "2024-06-15, 2024-06-15 14:30 or 2024-06-15 14:30:05"

// typedLayouts are the layouts of a typed moment, each with the span it
// names: a second, a minute, a day.
var typedLayouts = []struct {
	layout string
	span   func(time.Time) time.Time // the end of the span starting at t
}{
	{"2006-01-02 15:04:05", func(t time.Time) time.Time { return t.Add(time.Second) }},
	{"2006-01-02 15:04", func(t time.Time) time.Time { return t.Add(time.Minute) }},
	{"2006-01-02T15:04", func(t time.Time) time.Time { return t.Add(time.Minute) }},
	{"2006-01-02", func(t time.Time) time.Time { return t.AddDate(0, 0, 1) }}, // a day of 23 or 25 hours too
}

// ParseTypedTime reads a moment typed in loc: its start and the end of the
// span it names (the next day for a date, the next minute for a minute).
func ParseTypedTime(s string, loc *time.Location) (start, end time.Time, ok bool) {
	s = strings.TrimSpace(s)
	for _, l := range typedLayouts {
		if t, err := time.ParseInLocation(l.layout, s, loc); err == nil {
			return t, l.span(t), true
		}
	}
	return time.Time{}, time.Time{}, false
}

// MomentForms names the forms a moment is given in: by the command
// line's --at and the UI's ":at".
const MomentForms = "RFC 3339 (2024-06-15T14:30:05.250+02:00), Unix milliseconds, or " + TypedTimeForms

// ParseMoment reads a moment: RFC 3339 with fractional seconds and a zone
// (what the server's logs and a ticket's timestamps say), Unix
// milliseconds (what the store and the pulls hold), or a typed time in loc
// (ParseTypedTime: its first instant).
func ParseMoment(s string, loc *time.Location) (time.Time, bool) {
	s = strings.TrimSpace(s)
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t, true
	}
	if ms, err := strconv.ParseInt(s, 10, 64); err == nil && ms >= 0 {
		return time.UnixMilli(ms), true
	}
	if t, _, ok := ParseTypedTime(s, loc); ok {
		return t, true
	}
	return time.Time{}, false
}

// TypedRange is a range of seqs or of send times as typed: "10-40",
// "10..40", "10", "2024-01-20..2024-01-21", "2024-01-20 14:00..2024-01-21
// 15:00".
type TypedRange struct {
	Typed string
	// Dates: From and To are unix milliseconds, the messages sent from From
	// up to (not at) To, the end of the last date, minute or second typed.
	// Otherwise they are seqs, both in the range.
	Dates    bool
	From, To int64
	loc      *time.Location
}

// ParseTypedRange reads a range as typed, dates in loc. A range whose
// first seq or moment comes after its last is refused as reversed.
func ParseTypedRange(s string, loc *time.Location) (TypedRange, error) {
	s = strings.TrimSpace(s)
	a, b, ok := strings.Cut(s, "..")
	if !ok {
		a, b, ok = strings.Cut(s, "-")
	}
	if !ok {
		b = a
	}
	x, errA := strconv.ParseInt(strings.TrimSpace(a), 10, 64)
	y, errB := strconv.ParseInt(strings.TrimSpace(b), 10, 64)
	if errA == nil && errB == nil {
		if x > y {
			return TypedRange{}, fmt.Errorf("seqs %d-%d are reversed: the first is after the last", x, y)
		}
		return TypedRange{Typed: s, From: x, To: y}, nil
	}
	if strings.Contains(s, "..") {
		from, _, ok1 := ParseTypedTime(a, loc)
		last, end, ok2 := ParseTypedTime(b, loc)
		switch {
		case ok1 && ok2 && from.After(last):
			return TypedRange{}, fmt.Errorf("dates %s..%s are reversed: the first is after the last", strings.TrimSpace(a), strings.TrimSpace(b))
		case ok1 && ok2:
			return TypedRange{Typed: s, Dates: true, From: from.UnixMilli(), To: end.UnixMilli(), loc: loc}, nil
		}
	}
	return TypedRange{}, fmt.Errorf("%s is not a seq range (10-40) nor a date range (2024-01-08..2024-01-09)", bucket.QuoteName(s))
}

// String says what the range asked for: as typed and, for dates, the
// moments it covers, both ends in it.
func (r TypedRange) String() string {
	if !r.Dates {
		return "seqs " + r.Typed
	}
	const at = "2006-01-02 15:04:05"
	loc := r.loc
	if loc == nil {
		loc = time.UTC
	}
	from, last := time.UnixMilli(r.From).In(loc), time.UnixMilli(r.To-1).In(loc)
	return fmt.Sprintf("%s: sent from %s through %s %s", r.Typed, from.Format(at), last.Format(at), last.Format("MST"))
}
