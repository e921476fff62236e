package ui

import (
	"time"

	"github.com/chatlens/chatlens/projection"
	"github.com/chatlens/chatlens/ui/components/msglog"
	"github.com/chatlens/chatlens/ui/pages/timeline"
)

// The message log (L): what the screen shows as a problem is logged in
// full, and the log opens over the panes.

// problems are what the screen shows as a problem after an update: the
// status bar's error (or a notice it cuts), a failed list or timeline
// load, a failing cache, a failed connection.
type problems struct {
	status    string
	statusErr bool
	width     int
	listErr   error
	tl        *timeline.Model // nil: none open
	cacheErr  error
	conn      *connection
}

// log adds each problem to the message log (which keeps each once).
func (p problems) log(l *msglog.Log, now time.Time) {
	errText := func(err error) string {
		if err == nil {
			return ""
		}
		return err.Error()
	}
	status, notice := "", ""
	switch {
	case p.statusErr:
		status = p.status
	case p.width > 0 && projection.Width(projection.SingleLine(p.status)) > p.width:
		notice = p.status // cut on the status line: whole in the log
	}
	l.Add("status", status, now, false)
	l.Add("notice", notice, now, true)
	l.Add("list", prefixed("conversation list: ", errText(p.listErr)), now, false)
	if p.tl != nil {
		l.Add("timeline", prefixed(p.tl.ID()+": ", errText(p.tl.Err())), now, false)
	}
	l.Add("cache", prefixed("cache failing, reading the store: ", errText(p.cacheErr)), now, false)
	l.Add("connect", prefixed("could not connect to "+p.conn.to+": ", errText(p.conn.err)), now, false)
}

func prefixed(p, s string) string {
	if s == "" {
		return ""
	}
	return p + s
}
