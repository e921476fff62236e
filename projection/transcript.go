package projection

import (
	"fmt"
	"strconv"
	"time"

	"github.com/chatlens/chatlens/store/bucket"
)

// A transcript is what one user sees of a conversation, written for a
// ticket: a header that says where it came from and why the viewer's
// window is what it is, then one row per seq with the rules behind it.
// Its formats (markdown, HTML) only differ in how they write the same
// fields, each of them sanitised.

// TranscriptHead is what a transcript says before its rows.
type TranscriptHead struct {
	Context      string // the named deployment (a context of the config file); "" for none
	Store        string // the store or deployment, credentials masked (Store.Describe)
	Conversation string
	Viewer       string
	ViewerName   string
	Window       bucket.Window
	Asked        string // the range asked for, in words; "" when the seqs were named (dump --from --to)
	From, To     int64  // the seqs transcribed
	Captured     time.Time
	Version      string
	Zone         *time.Location
	// AsOf is the moment of a transcript of a pull then (dump --at), zero
	// otherwise: its rows are held whole, to count the unknown ones first.
	AsOf time.Time
	// Compare is the second viewer of a compare transcript, "" otherwise.
	Compare       string
	CompareName   string
	CompareWindow bucket.Window
}

// TranscriptRow is one row: a message as the viewer sees it and why, or
// (RunTo > Message.Seq) a run of seqs with no message.
type TranscriptRow struct {
	Message Message
	Why     []string
	RunTo   int64
	// In a compare transcript: the second viewer's message and rules, and
	// the first rule that sets the two apart ("" when alike).
	Other    Message
	OtherWhy []string
	Reason   string
	// Unknown: the row shows a state no evidence dates (dump --at); its
	// Why says why.
	Unknown bool
}

// WindowReasons says which seqs viewer sees of a conversation and why it
// starts and ends there, in the inspector's words: the first line the
// range, then the start, then the end.
func WindowReasons(viewer string, w bucket.Window) []string {
	if w.PulledNothing() {
		return []string{SingleLine(viewer + " sees nothing: " + w.UnpulledReason(viewer))}
	}
	out := []string{fmt.Sprintf("%s sees seq %d-%d", viewer, max(1, w.MinSeq), w.MaxSeq)}
	if why := StartWords(w); why != "" {
		out = append(out, why)
	} else {
		out = append(out, fmt.Sprintf("starts at seq 1: nothing cleared (seq.min_seq = %d, seq_user.min_seq = %d)", w.SeqMinSeq, w.UserMinSeq))
	}
	if why := EndWords(w); why != "" {
		out = append(out, why)
	} else {
		out = append(out, fmt.Sprintf("ends at seq %d: the newest message stored", w.MaxSeq))
	}
	if w.SeqUserNote != "" {
		out = append(out, w.SeqUserNote)
	}
	for i := range out {
		out[i] = SingleLine(out[i])
	}
	return out
}

// StartWords says why w starts after seq 1, naming the field; "" when it
// starts at seq 1. The inspector and transcripts say it alike.
func StartWords(w bucket.Window) string {
	if why := w.StartReason(); why != "" {
		return fmt.Sprintf("history cleared before seq %d: %s", max(1, w.MinSeq), why)
	}
	return ""
}

// EndWords says why w ends before the newest message (the user's own cap);
// "" when it does not.
func EndWords(w bucket.Window) string {
	if w.CapField != "" {
		return fmt.Sprintf("ends at seq %d: %s caps it (OpenIM's pull stops there)", w.CapSeq, w.CapField)
	}
	return ""
}

// headFields are the header's name/value pairs, sanitised, in order; the
// rule every row shares, when they do, last.
func (h TranscriptHead) headFields(n headNotes) [][2]string {
	who := func(id, name string) string {
		if name != "" && name != id {
			return id + " (" + name + ")"
		}
		return id
	}
	var fields [][2]string
	if h.Context != "" {
		fields = append(fields, [2]string{"Context", h.Context})
	}
	fields = append(fields,
		[2]string{"Store", h.Store},
		[2]string{"Conversation", h.Conversation},
		[2]string{"Viewer", who(h.Viewer, h.ViewerName)})
	window := "Window"
	if !h.AsOf.IsZero() {
		window = "Window now" // the rows are of the pull then; the window's end then is their last
	}
	for i, l := range WindowReasons(h.Viewer, h.Window) {
		fields = append(fields, [2]string{map[bool]string{true: window, false: ""}[i == 0], l})
	}
	if h.Compare != "" {
		fields = append(fields, [2]string{"Compared with", who(h.Compare, h.CompareName)})
		for i, l := range WindowReasons(h.Compare, h.CompareWindow) {
			fields = append(fields, [2]string{map[bool]string{true: "Their window", false: ""}[i == 0], l})
		}
	}
	seqs := fmt.Sprintf("%d-%d", h.From, h.To)
	if h.From == 0 {
		seqs = "none"
	}
	if h.Asked != "" {
		fields = append(fields, [2]string{"Asked", h.Asked})
	}
	fields = append(fields,
		[2]string{"Seqs", seqs},
		[2]string{"Captured", Timestamp(h.Captured.UnixMilli(), h.zone())},
		[2]string{"Version", h.Version})
	if n.every != "" {
		fields = append(fields, [2]string{"Every row", n.every})
	}
	for i := range fields {
		fields[i][1] = SingleLine(fields[i][1])
	}
	return fields
}

func (h TranscriptHead) zone() *time.Location {
	if h.Zone == nil {
		return time.UTC
	}
	return h.Zone
}

// title is the transcript's first line.
func (h TranscriptHead) title() string {
	if h.Compare != "" {
		return SingleLine(h.Conversation + ": " + h.Viewer + " and " + h.Compare + " compared")
	}
	return SingleLine(h.Conversation + " as " + h.Viewer + " sees it")
}

// rowCells are a row's seq, time, sender and text, sanitised; text carries
// the dump's [revoked] and [read] marks.
func rowCells(m Message, runTo int64, zone *time.Location) (seq, when, sender, text string) {
	seq, when, sender, text = messageCells(m, runTo, zone)
	if m.BucketProblem != "" {
		text = MalformedBucketLine(m.DocID, m.BucketProblem) + " · " + text
	}
	return seq, when, sender, text
}

func messageCells(m Message, runTo int64, zone *time.Location) (seq, when, sender, text string) {
	if runTo > m.Seq {
		return fmt.Sprintf("%d-%d", m.Seq, runTo), "", "", "no message (" + thousands(runTo-m.Seq+1) + ")"
	}
	seq = strconv.FormatInt(m.Seq, 10)
	if m.Hole {
		return seq, "", "", Summary(m)
	}
	text = Summary(m)
	if m.Revoked {
		text += " [revoked]"
	}
	if m.SessionType == bucket.SessionSingle && m.IsRead {
		text += " [read]"
	}
	return seq, Timestamp(m.SendTime, zone), SingleLine(orElse(m.SenderNickname, m.SendID)), text
}
