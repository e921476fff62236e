package projection

import (
	"strconv"
	"strings"
	"time"

	"github.com/chatlens/chatlens/store/bucket"
)

// typeNames names the content types of OpenIM for people.
var typeNames = map[int32]string{
	Text: "text", Picture: "picture", Voice: "voice", Video: "video", File: "file",
	AtText: "@text", Merger: "merged chat", Card: "card", Location: "location",
	Custom: "custom", Typing: "typing", Quote: "quote", Face: "sticker",
	AdvancedText: "advanced text", Markdown: "markdown", CustomNoTrigger: "custom",
	CustomOnline: "custom (online only)", RevokeNotice: "revoke notice",
	DeleteNotice: "delete notice", ReadReceipt: "read receipt",
}

// TypeName names content type ct: "text", "picture", "notification 1501", "type 42".
func TypeName(ct int32) string {
	if n, ok := typeNames[ct]; ok {
		return n
	}
	if isNotification(ct) {
		return "notification " + strconv.Itoa(int(ct))
	}
	return "type " + strconv.Itoa(int(ct))
}

var statusNames = map[int32]string{bucket.StatusSending: "sending", bucket.StatusSent: "sent",
	bucket.StatusFailed: "failed", bucket.StatusDeleted: "deleted", bucket.StatusFiltered: "filtered"}

// Detail is the full, multi-line rendering of m for an expanded view: where
// it is stored, who sent it when (times in loc), its state for the viewer,
// and its whole text. Every line is sanitised and holds no newline.
func Detail(m Message, loc *time.Location) []string {
	var out []string
	add := func(s string) { out = append(out, SingleLine(s)) }
	add("seq " + strconv.FormatInt(m.Seq, 10) + " · " + orElse(m.DocID, "?") + " slot " + strconv.Itoa(m.Index))
	if m.Problem != "" {
		add("malformed: " + m.Problem)
	}
	if m.Hole {
		add("[no message]")
		return out
	}
	from := orElse(m.SenderNickname, m.SendID)
	if m.SenderNickname != "" && m.SendID != "" {
		from += " (" + m.SendID + ")"
	}
	to := m.RecvID
	if m.GroupID != "" {
		to = "group " + m.GroupID
	}
	add("from " + orElse(from, "?") + " to " + orElse(to, "?") + " · " + Timestamp(m.SendTime, loc))
	state := TypeName(m.ContentType) + " · " + orElse(statusNames[m.Status], "status "+strconv.Itoa(int(m.Status)))
	if m.IsRead {
		state += " · read"
	}
	add(state)
	if m.DeletedForViewer {
		add("deleted for " + orElse(m.Viewer, "this viewer"))
	}
	if m.Revoked && m.Revoke != nil {
		add("revoked by " + orElse(m.Revoke.Nickname, m.Revoke.UserID, "?") + " (" + m.Revoke.UserID +
			", role " + strconv.Itoa(int(m.Revoke.Role)) + ") · " + Timestamp(m.Revoke.Time, loc))
	}
	if m.DeletedForViewer && !m.Revoked {
		return out
	}
	body := Summary(Message{MsgData: bucket.MsgData{ContentType: m.ContentType, Content: m.Content, Status: m.Status}, QuoteResolved: m.QuoteResolved})
	if text, ok := fullText(m.ContentType, m.Content); ok {
		body = text
	}
	for _, line := range strings.Split(Sanitize(body), "\n") {
		out = append(out, "  "+strings.ReplaceAll(line, "\t", "    "))
	}
	return out
}

// fullText is the whole text of a textual message, newlines kept.
func fullText(ct int32, content string) (string, bool) {
	o, ok := parseObject(content)
	if !ok {
		return "", false
	}
	switch ct {
	case Text:
		return o.str("content"), true
	case AtText:
		return atText(o), true
	case AdvancedText:
		return o.str("text"), true
	case Markdown:
		return o.str("content"), true
	}
	return "", false
}

// Timestamp writes unix milliseconds as a date and time in loc, naming the
// zone; 0 as "-".
func Timestamp(ms int64, loc *time.Location) string {
	if ms == 0 {
		return "-"
	}
	return time.UnixMilli(ms).In(loc).Format("2006-01-02 15:04:05 MST")
}
