package timeline

import (
	"fmt"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/chatlens/chatlens/projection"
	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/ui/common"
	"github.com/chatlens/chatlens/ui/pages/timeline/model"
)

// Moment is the timeline as the viewer's pull gave it at a moment, typed
// at ':' as "at TIME" (the forms of --at: store.ParseMoment) and left with
// the Now key: the rows are the window then, each slot read back to then
// (projection.Then, the rule dump --at prints by), a row whose state then
// no evidence dates marked "?" and said why in the inspector. While
// comparing, "at TIME" makes the second side the viewer at TIME: what
// changed for them between the two moments. The moment is a key of the
// model's queue; the page reads the window then (readMoment) and draws.
type Moment struct{ t *Model }

// Moment is the page's moment.
func (t *Model) Moment() Moment { return Moment{t} }

// momentReadMsg is a window then, read.
type momentReadMsg struct {
	req    common.ReqID
	landed model.Landed
}

// MomentPrefix starts what ':' takes as a moment.
const MomentPrefix = "at "

// Set takes what followed "at " at ':': a moment, or "now".
func (mo Moment) Set(input string) tea.Cmd {
	t := mo.t
	input = strings.TrimSpace(input)
	if strings.EqualFold(input, "now") {
		return mo.Clear()
	}
	at, ok := store.ParseMoment(input, t.e.Loc)
	if !ok {
		return say(t, fmt.Sprintf("%q is not a moment (%s)", projection.SingleLine(input), store.MomentForms), true)
	}
	if at.UnixMilli() <= 0 {
		return say(t, "a moment is after 1970-01-01T00:00:00Z", true)
	}
	if d := t.tl.Compare(); d.On() {
		side := model.View{Viewer: t.tl.Viewer(), At: at}
		return t.load.afterSaying(fmt.Sprintf("reading what %s was pulled %s…", projection.SingleLine(t.Viewers().memberName(side.Viewer)), mo.words(side.At)), false,
			t.tl.Press(model.Key{Kind: model.CompareOn, View: side}))
	}
	return t.load.afterSaying(fmt.Sprintf("reading what %s was pulled %s…", projection.SingleLine(t.Viewers().memberName(t.tl.Viewer())), mo.words(at)), false,
		t.tl.Press(model.Key{Kind: model.AtMoment, At: at.UnixMilli()}))
}

// Clear shows now again.
func (mo Moment) Clear() tea.Cmd {
	t := mo.t
	if t.tl.Moment().At() == 0 {
		return say(t, "showing now already ("+common.KeyName(t.e.Keys.Jump)+"at TIME for a moment)", false)
	}
	return t.load.afterSaying("now again", false, t.tl.Press(model.Key{Kind: model.AtMoment}))
}

// Label names the moment shown ("at 2024-06-15 14:30:00"), "" at now.
func (mo Moment) Label() string {
	if at := mo.t.tl.Moment().At(); at != 0 {
		return mo.words(time.UnixMilli(at))
	}
	return ""
}

// words name a moment in the zone times are shown in.
func (mo Moment) words(at time.Time) string {
	if at.IsZero() {
		return "now"
	}
	layout := "2006-01-02 15:04:05"
	if at.Nanosecond() != 0 {
		layout += ".000"
	}
	return "at " + at.In(mo.t.e.Loc).Format(layout)
}

// name is v's name in the title and the compare view's header: the
// member's, at their moment when not now; id is the inspector's, by ID.
func (mo Moment) name(v model.View) string {
	return mo.id(model.View{Viewer: mo.t.Viewers().memberName(v.Viewer), At: v.At})
}

func (mo Moment) id(v model.View) string {
	if v.At.IsZero() {
		return v.Viewer
	}
	return v.Viewer + " " + mo.words(v.At)
}

// main is the side shown: the page's viewer (the model's once a switch
// lands), at the moment.
func (mo Moment) main() model.View {
	v := mo.t.tl.Moment().Main()
	v.Viewer = mo.t.viewer
	return v
}

// message is seq as v sees it, read back to v's moment, with what of it
// no evidence dates.
func (mo Moment) message(seq int64, v model.View) (projection.Message, []string, bool) {
	t := mo.t
	s, b, ok := t.Slot(seq)
	if !ok {
		return projection.Message{}, nil, false
	}
	if then, ok := t.tl.Moment().Of(v); ok {
		m, unknown := then.View(s, b.DocID, t.quote.quotedSlot)
		return m, unknown, true
	}
	return projection.View(s, b.DocID, v.Viewer, t.conv, t.quote.quotedSlot), nil, true
}

// window is v's window, at v's moment; known false while it is not read.
func (mo Moment) window(v model.View) (bucket.Window, bool) {
	t := mo.t
	if v.At.IsZero() {
		return t.tl.WindowOf(v.Viewer)
	}
	then, ok := t.tl.Moment().Of(v)
	return then.Window, ok
}

// shown is the window the rows are of: the viewer's now, or then.
func (mo Moment) shown() bucket.Window {
	if then, ok := mo.t.tl.Moment().Then(); ok {
		return then.Window
	}
	return mo.t.win
}

// lines are the inspector's words of the moment for the row at the
// cursor: which moment, the read seq then, and what of the row no
// evidence dates.
func (mo Moment) lines(unknown []string) []string {
	then, ok := mo.t.tl.Moment().Then()
	if !ok {
		return nil
	}
	out := []string{fmt.Sprintf("moment      %s: the row as %s's pull gave it then (read seq %s then)",
		mo.Label(), mo.t.tl.Viewer(), then.ReadWords())}
	for _, why := range then.ReadWhy {
		out = append(out, "            "+why)
	}
	if len(unknown) == 0 {
		return append(out, "            every part of it is dated by the evidence the store keeps")
	}
	for i, why := range unknown {
		out = append(out, map[bool]string{true: "unknown     ", false: "            "}[i == 0]+why)
	}
	return out
}

// readMoment reads viewer's window at rd.At back from the whole
// conversation and the evidence the store keeps, as dump --at does: the
// window now, the viewer's history, every slot once.
func readMoment(e *common.Common, req common.ReqID, cid string, conv projection.Conv, base bucket.Window, rd model.Read) tea.Cmd {
	return func() tea.Msg {
		l := model.Landed{Read: rd}
		l.Then, l.Err = momentThen(e, cid, conv, base, rd.Viewer, rd.At)
		return momentReadMsg{req: req, landed: l}
	}
}

func momentThen(e *common.Common, cid string, conv projection.Conv, base bucket.Window, viewer string, at int64) (projection.Then, error) {
	w, err := e.Store.WindowAt(e.Ctx, viewer, base)
	if err != nil {
		return projection.Then{}, err
	}
	h, err := e.Store.HistoryLogged(e.Ctx, viewer, cid)
	if err != nil {
		return projection.Then{}, err
	}
	tally := projection.NewThenTally(projection.AsOf{At: at, Viewer: viewer, Conv: conv, H: h}, *w)
	if w.PulledNothing() || w.MaxSeq == 0 {
		return tally.Then(), nil
	}
	err = e.Store.Scan(e.Ctx, w, 1, w.MaxSeq, func(batch []*bucket.Bucket) error {
		for _, b := range batch {
			for _, st := range b.Slots {
				tally.Add(st)
			}
		}
		return nil
	}, func(from, to int64) error {
		tally.AddGap(from, to)
		return nil
	})
	return tally.Then(), err
}

// momentRead lands a window then read for the view it was asked in.
func (mo Moment) momentRead(msg momentReadMsg) tea.Cmd {
	t := mo.t
	if msg.req != t.req {
		return nil // read before a reload
	}
	var s said
	cmd := t.load.settle(t.tl.Land(msg.landed), &s)
	rd := msg.landed.Read
	if msg.landed.Err != nil {
		return s.send(t, cmd) // the model says why, as for every read
	}
	at := mo.words(time.UnixMilli(rd.At))
	switch then := msg.landed.Then; {
	case then.Window.MaxSeq == 0:
		s.say(fmt.Sprintf("%s's pull gave nothing of this conversation %s: %s", projection.SingleLine(rd.Viewer), at, then.NotHeld()), false)
	case rd.Viewer == t.tl.Viewer() && rd.At == t.tl.Moment().At():
		s.say(fmt.Sprintf("%s: what %s's pull gave then · %s now", at, projection.SingleLine(rd.Viewer), common.KeyName(t.e.Keys.Now)), false)
	case t.tl.Compare().On():
		s.say(fmt.Sprintf("B is %s's pull %s", projection.SingleLine(rd.Viewer), at), false)
	}
	return s.send(t, cmd)
}
