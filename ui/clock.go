package ui

import (
	"fmt"
	"time"

	"github.com/chatlens/chatlens/projection"
)

// Send times in the timeline: month and day in the current year, the full
// date otherwise, so a message of last January never reads as this one.
const (
	clockThisYear  = "01-02 15:04"
	clockOtherYear = "2006-01-02 15:04"
)

// clockLayout is the layout of every row on screen: the long one as soon as
// one held message is not of the current year, so the columns stay aligned.
func (t *timeline) clockLayout() string {
	year := t.e.now().In(t.e.loc).Year()
	for _, i := range t.tl.HeldIndexes() {
		for _, s := range t.tl.Held(i).Slots {
			if s.Slot != nil && s.Slot.Msg != nil && s.Slot.Msg.SendTime != 0 &&
				time.UnixMilli(s.Slot.Msg.SendTime).In(t.e.loc).Year() != year {
				return clockOtherYear
			}
		}
	}
	return clockThisYear
}

// clock is the send time in layout, or blanks for a hole.
func (t *timeline) clock(m projection.Message, layout string) string {
	if m.SendTime == 0 {
		return fmt.Sprintf("%*s", len(layout), "")
	}
	return time.UnixMilli(m.SendTime).In(t.e.loc).Format(layout)
}

// zoneLabel names the display zone once, for the status bar: "UTC", or the
// zone's name with its abbreviation and offset at now.
func zoneLabel(loc *time.Location, now time.Time) string {
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
