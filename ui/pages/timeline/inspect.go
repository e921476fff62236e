package timeline

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/chatlens/chatlens/projection"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/ui/pages/timeline/model"

	"github.com/chatlens/chatlens/ui/common"
)

// Open is i on the row under the cursor: open reports something to
// inspect (a held slot, a gap); cmd reads who has read it and which
// notifications told of it, for both viewers in the compare view. Else it
// says why not.
func (in Inspector) Open() (open bool, cmd tea.Cmd) {
	t := in.t
	s, _, held := t.Slot(t.tl.Cursor())
	_, inGap := t.draw.gapAtCursor()
	switch {
	case held && t.Compare().With() != "":
		return true, tea.Batch(t.Inspector().loadReaders(), t.Inspector().loadTold(s, t.viewer, t.Compare().With()))
	case held:
		return true, tea.Batch(t.Inspector().loadReaders(), t.Inspector().loadTold(s, t.viewer), t.Inspector().loadLife())
	case inGap:
		return true, nil
	}
	return false, say(t, fmt.Sprintf("seq %d is not read yet: %s once it is on screen", t.tl.Cursor(), common.KeyName(t.e.Keys.Inspect)), false)
}

// Lines are the inspector's lines for the cursor, width cells
// wide: in the compare view, beside both viewers' projections.
func (in Inspector) Lines(width int) []string {
	t := in.t
	lines := t.Inspector().inspectLines()
	if _, inGap := t.draw.gapAtCursor(); t.Compare().With() != "" && !inGap {
		lines = besides(lines, t.Inspector().compareLines(), (width-4-3)/2)
	}
	return lines
}

// inspectLines is the raw slot under the cursor for support staff: where it
// lives, its del_list, revoke and is_read, and the stored message with its
// content JSON pretty-printed, then what the viewer sees. Every line is
// sanitised: stored text is untrusted.
func (in Inspector) inspectLines() []string {
	t := in.t
	if g, ok := t.draw.gapAtCursor(); ok {
		return t.Inspector().gapLines(g)
	}
	s, b, ok := t.Slot(t.tl.Cursor())
	if !ok {
		return []string{"not loaded"}
	}
	var out []string
	add := func(format string, args ...any) {
		for _, l := range strings.Split(fmt.Sprintf(format, args...), "\n") {
			out = append(out, strings.ReplaceAll(projection.Sanitize(l), "\t", "  "))
		}
	}
	add("doc_id      %s", b.DocID)
	add("slot index  %d   seq %d   from cache: %v", bucket.SlotIndex(s.Seq), s.Seq, s.Cached)
	shown := t.Moment().shown()
	if t.win.PulledNothing() {
		add("window      %s sees nothing: %s", t.viewer, t.win.UnpulledReason(t.viewer))
	} else {
		add("window      %s sees seq %d-%d%s", t.viewer, t.Viewers().minSeq(), t.Viewers().MaxSeq(), map[bool]string{true: " " + t.Moment().Label(), false: ""}[t.Moment().Label() != ""])
	}
	for _, why := range []string{projection.StartWords(shown), projection.EndWords(shown), t.win.SeqUserNote} {
		if why != "" {
			add("  %s", why)
		}
	}
	if t.Compare().With() == "" { // (the compare view says it beside, for both)
		m, unknown, _ := t.Moment().message(t.tl.Cursor(), t.Moment().main())
		for i, why := range projection.Explain(m, shown, t.e.Loc) {
			add("%s%s", map[bool]string{true: "why         ", false: "            "}[i == 0], why)
		}
		for _, l := range t.Moment().lines(unknown) {
			add("%s", l)
		}
		for _, l := range t.Inspector().readByLines(m) {
			add("%s", l)
		}
		for _, l := range t.Inspector().toldLines(t.viewer) {
			add("%s", l)
		}
		for _, l := range t.Inspector().lifeLines(s) {
			add("%s", l)
		}
	}
	for _, p := range b.Problems {
		add("bucket problem: %s", p)
	}
	if s.Problem != "" {
		add("slot problem: %s", s.Problem)
	}
	if s.Slot == nil {
		add("slot        (absent)")
	} else {
		add("is_read     %v", s.Slot.IsRead)
		add("del_list    %s", rawJSON(s.Slot.DelList))
		add("revoke      %s", rawJSON(s.Slot.Revoke))
		if s.Slot.Msg == nil {
			add("msg         null")
		} else {
			msg := *s.Slot.Msg
			msg.Content = "(below)"
			add("msg         %s", rawJSON(&msg))
			add("content (content_type %d), raw JSON:", s.Slot.Msg.ContentType)
			add("%s", indentJSON(s.Slot.Msg.Content))
		}
	}
	if t.Compare().With() != "" {
		return out
	}
	add("")
	return append(out, t.Inspector().seenBy(t.Moment().main(), "", false)...)
}

// gapLines is the inspector of a run of buckets with nothing stored: no
// slot to show, so what is missing and what a pull of those seqs returns.
func (in Inspector) gapLines(g gap) []string {
	t := in.t
	from, to := max(bucket.FirstSeq(g.lo), t.Viewers().minSeq()), min(bucket.LastSeq(g.hi), t.Viewers().MaxSeq())
	first, last := bucket.DocIDForSeq(t.cid, bucket.FirstSeq(g.lo)), bucket.DocIDForSeq(t.cid, bucket.FirstSeq(g.hi))
	docs := first
	if g.hi > g.lo {
		docs = fmt.Sprintf("%s to %s (%d buckets)", first, last, g.hi-g.lo+1)
	}
	out := []string{
		fmt.Sprintf("seqs        %d-%d (%d), no bucket stored", from, to, to-from+1),
		"doc_id      " + docs + ": no such document in msg",
		fmt.Sprintf("window      %s sees seq %d-%d", t.viewer, t.Viewers().minSeq(), t.Viewers().MaxSeq()),
		"why         each seq is a hole: OpenIM's pull returns a stand-in {seq, status 4,",
		"            sendTime of the newest message before it} (rule 4), and chatlens draws",
		"            the run as one row",
	}
	for i, l := range out {
		out[i] = projection.Sanitize(l)
	}
	return out
}

// seenBy is what viewer sees at the cursor and, with why, which rules made
// it so (side names the compare view's column, "" outside it).
func (in Inspector) seenBy(v model.View, side string, why bool) []string {
	t := in.t
	var out []string
	add := func(format string, args ...any) {
		out = append(out, projection.Sanitize(fmt.Sprintf(format, args...)))
	}
	main := t.Moment().main()
	viewer, mainSide := v.Viewer, v.Viewer == main.Viewer && v.At.Equal(main.At)
	add("%sas %s sees it:", side, t.Moment().id(v))
	m, unknown, _ := t.Moment().message(t.tl.Cursor(), v)
	w, ok := t.Moment().window(v)
	if mainSide {
		w, ok = t.Moment().shown(), true
	}
	if ok && !mainSide && w.PulledNothing() {
		add("  nothing: %s", w.UnpulledReason(viewer))
	} else if !mainSide && model.Outside(w, ok, t.tl.Cursor()) {
		add("  nothing: the seq is outside their window")
	} else {
		for _, l := range projection.Detail(m, t.e.Loc) {
			add("  %s", l)
		}
		for _, u := range unknown {
			add("  unknown then: %s", u)
		}
	}
	if why && ok {
		add("why:")
		for _, l := range projection.Explain(m, w, t.e.Loc) {
			add("  %s", l)
		}
	}
	return out
}

// compareLines is the compare view's right column of the inspector: both
// viewers' projections, their reasons, who has read the message and which
// notifications told each one of it, and what sets them apart.
func (in Inspector) compareLines() []string {
	t := in.t
	sa, sb := t.Moment().main(), t.tl.Compare().View()
	a, _, _ := t.Moment().message(t.tl.Cursor(), sa)
	b, _, _ := t.Moment().message(t.tl.Cursor(), sb)
	wb, known := t.Moment().window(sb)
	reason := model.Verdict(a, b, wb, known)
	out := []string{projection.Sanitize("A and B: " + projection.ReasonText(reason, t.Moment().id(sa), t.Moment().id(sb))), ""}
	for _, l := range slices.Concat(t.Inspector().seenBy(sa, "A ", true), t.Inspector().readByLines(a), t.Inspector().toldLines(t.viewer), []string{""},
		t.Inspector().seenBy(sb, "B ", true), t.Inspector().readByLines(b), t.Inspector().toldLines(t.Compare().With())) {
		out = append(out, projection.Sanitize(l))
	}
	return out
}

// besides lays right beside left in columns of width cells each, every
// line wrapped to its column (an ID or a reason is never cut); too narrow
// for two columns, right follows left.
func besides(left, right []string, width int) []string {
	if width < 30 {
		return append(append(left, ""), right...)
	}
	wrap := func(lines []string) []string {
		var out []string
		for _, l := range lines {
			out = append(out, common.WrapCells(l, width)...)
		}
		return out
	}
	left, right = wrap(left), wrap(right)
	out := make([]string, max(len(left), len(right)))
	for i := range out {
		l, r := "", ""
		if i < len(left) {
			l = left[i]
		}
		if i < len(right) {
			r = right[i]
		}
		out[i] = common.PadRight(projection.Truncate(l, width), width) + " │ " + projection.Truncate(r, width)
	}
	return out
}

// rawJSON shows a stored value with its BSON field names, as relaxed
// extended JSON (what mongosh prints).
func rawJSON(v any) string {
	if v == nil || v == (*bucket.Revoke)(nil) {
		return "null"
	}
	if list, ok := v.([]string); ok {
		b, _ := json.Marshal(list)
		return string(b)
	}
	b, err := bson.MarshalExtJSONIndent(v, false, false, "", "  ")
	if err != nil {
		return fmt.Sprintf("(%v)", err)
	}
	return string(b)
}

// indentJSON pretty-prints s when it is JSON, else returns it as is.
func indentJSON(s string) string {
	var buf bytes.Buffer
	if json.Indent(&buf, []byte(s), "", "  ") != nil {
		return s
	}
	return buf.String()
}

// Inspector is the inspector's feature of the page: the row under the
// cursor laid bare, who has read it and which notifications told of it.
type Inspector struct{ t *Model }

// Inspector is the page's inspector.
func (t *Model) Inspector() Inspector { return Inspector{t} }
