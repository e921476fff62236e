package common

import (
	"fmt"
	"time"

	"github.com/chatlens/chatlens/projection"
)

// Send times in the timeline: month and day in the current year, the full
// date otherwise, so a message of last January never reads as this one.
const (
	ClockThisYear  = "01-02 15:04"
	ClockOtherYear = "2006-01-02 15:04"
)

// Clock is the send time of m in layout and loc, or blanks for a hole.
func Clock(m projection.Message, layout string, loc *time.Location) string {
	if m.SendTime == 0 {
		return fmt.Sprintf("%*s", len(layout), "")
	}
	return time.UnixMilli(m.SendTime).In(loc).Format(layout)
}

// ZoneLabel names the display zone once, for the status bar: "UTC", or the
// zone's name with its abbreviation and offset at now.
func ZoneLabel(loc *time.Location, now time.Time) string {
	abbr, offset := now.In(loc).Zone()
	if loc.String() == "UTC" || (abbr == "UTC" && offset == 0) {
		return "UTC"
	}
	sign := "+"
	if offset < 0 {
		sign, offset = "-", -offset
	}
	label := fmt.Sprintf("%s UTC%s%02d:%02d", abbr, sign, offset/3600, offset%3600/60)
	if name := loc.String(); name != "Local" && name != abbr {
		label = name + " " + label
	}
	return label
}
