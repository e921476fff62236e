package projection

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/chatlens/chatlens/store/bucket"
)

// Summary is one sanitised line describing what the viewer sees: the text of
// a text message, a short bracketed description of anything else.
func Summary(m Message) string { return summarize(m, 0) }

// maxQuoteDepth stops quotes of quotes of quotes from nesting without end.
const maxQuoteDepth = 1

func summarize(m Message, depth int) string {
	var marker string
	if m.Problem != "" {
		marker = "[malformed: " + m.Problem + "]"
	}
	var body string
	switch {
	case m.Hole && marker != "":
		return SingleLine(marker)
	case m.Hole:
		return "[no message]"
	case m.DeletedForViewer:
		body = "[deleted for you]"
	case m.Status == bucket.StatusDeleted && m.Content == "":
		body = "[deleted]"
	default:
		body = contentSummary(m.ContentType, m.Content, depth, m.QuoteResolved)
	}
	if marker != "" {
		body = marker + " " + body
	}
	return SingleLine(body)
}

// contentSummary describes content of content type ct; the caller sanitises.
// quoteResolved says a quote's quoted message was checked (rule 5).
func contentSummary(ct int32, content string, depth int, quoteResolved bool) string {
	if isNotification(ct) {
		return notificationLine(ct, content)
	}
	switch ct {
	case Text, AtText, Merger, Card, Location, Custom, CustomNoTrigger, CustomOnline,
		Picture, Voice, Video, File, Quote, AdvancedText, Markdown, Typing, Face:
	default:
		return "[type " + strconv.Itoa(int(ct)) + "]"
	}
	if ct == Text { // most messages: skip the lenient reader when the shape is right
		var c struct {
			Content *string `json:"content"`
		}
		if json.Unmarshal([]byte(content), &c) == nil && c.Content != nil {
			return *c.Content
		}
	}
	o, ok := parseObject(content)
	if !ok {
		return malformed(ct, content)
	}
	switch ct {
	case Text:
		return o.str("content")
	case Picture:
		return picture(o)
	case Voice:
		return withDuration("[voice", o)
	case Video:
		return withDuration("[video", o)
	case File:
		return file(o)
	case AtText:
		return atText(o)
	case Merger:
		return merger(o)
	case Card:
		return "[card " + orElse(o.str("nickname"), o.str("userID"), "?") + "]"
	case Location:
		return location(o)
	case Custom, CustomNoTrigger, CustomOnline:
		return custom(o)
	case Quote:
		return quote(o, depth, quoteResolved)
	case AdvancedText:
		return o.str("text")
	case Markdown:
		return plainMarkdown(o.str("content"))
	case Typing:
		return "[typing]"
	default: // Face
		return "[sticker]"
	}
}

// malformed names content that is not the JSON its type promises, with an
// excerpt so the operator can see what is there.
func malformed(ct int32, content string) string {
	return "[malformed: type " + strconv.Itoa(int(ct)) + " content is not a JSON object: " +
		Truncate(SingleLine(content), 40) + "]"
}

func picture(o object) string {
	src := o.obj("sourcePicture")
	w, h := src.int("width"), src.int("height")
	if w > 0 && h > 0 {
		return "[picture " + strconv.FormatInt(w, 10) + "×" + strconv.FormatInt(h, 10) + "]"
	}
	return "[picture]"
}

func withDuration(open string, o object) string {
	if d, ok := o.num("duration"); ok && d >= 0 {
		return open + " " + Duration(int64(d)) + "]"
	}
	return open + "]"
}

func file(o object) string {
	parts := []string{"[file"}
	if name := o.str("fileName"); name != "" {
		parts = append(parts, " "+name)
	}
	if size, ok := o.num("fileSize"); ok && size >= 0 {
		if len(parts) > 1 {
			parts = append(parts, " ·")
		}
		parts = append(parts, " "+HumanSize(int64(size)))
	}
	return strings.Join(parts, "") + "]"
}

// atText shows @mentions by group nickname where the message names them.
func atText(o object) string {
	text := o.str("text")
	pairs := []string{"@AtAllTag", "@all"}
	for _, u := range o.objs("atUsersInfo") {
		id, nick := u.str("atUserID"), u.str("groupNickname")
		if id != "" && nick != "" {
			pairs = append(pairs, "@"+id, "@"+nick)
		}
	}
	return strings.NewReplacer(pairs...).Replace(text)
}

func merger(o object) string {
	n := o.count("multiMessage")
	if n < 0 {
		n = o.count("abstractList")
	}
	s := "[merged chat: " + orElse(o.str("title"), "untitled")
	switch {
	case n == 1:
		s += " · 1 message"
	case n >= 0:
		s += " · " + strconv.Itoa(n) + " messages"
	}
	return s + "]"
}

func location(o object) string {
	s := "[location"
	if d := o.str("description"); d != "" {
		s += " " + d
	}
	lat, okLat := o.num("latitude")
	lon, okLon := o.num("longitude")
	if okLat && okLon {
		s += " " + trimFloat(lat, 4) + "," + trimFloat(lon, 4)
	}
	return s + "]"
}

func custom(o object) string {
	if d := o.str("description"); d != "" {
		return "[custom " + Truncate(SingleLine(d), 60) + "]"
	}
	if d := o.str("data"); d != "" {
		return "[custom " + Truncate(SingleLine(d), 40) + "]"
	}
	return "[custom]"
}

// quote shows the reply text and what the viewer sees of the quoted message.
// A quoted message that was not checked against its seq's slot (resolved
// false) is shown by seq only: it may have been revoked since it was quoted.
func quote(o object, depth int, resolved bool) string {
	text := o.str("text")
	q := o.obj("quoteMessage")
	switch {
	case q == nil:
		return text
	case depth >= maxQuoteDepth:
		return text + ` ↩ "…"`
	case !resolved:
		if seq, ok := quotedSeqOf(q); ok {
			return text + " ↩ [quoted seq " + strconv.FormatInt(seq, 10) + "]"
		}
		return text + " ↩ [quoted message]"
	}
	return text + ` ↩ "` + summarize(quotedMessage(q), depth+1) + `"`
}

// elemOf names the SDK element that carries a content type's content when
// an embedded message's own content field is empty.
var elemOf = map[int32]string{
	Text: "textElem", Picture: "pictureElem", Voice: "soundElem", Video: "videoElem",
	File: "fileElem", AtText: "atTextElem", Merger: "mergeElem", Card: "cardElem",
	Location: "locationElem", Custom: "customElem", Quote: "quoteElem", Face: "faceElem",
	AdvancedText: "advancedTextElem", Markdown: "markdownTextElem",
}

// quotedMessage reads a message embedded in a quote (already projected by
// View for the viewer) as far as Summary needs it.
func quotedMessage(q object) Message {
	m := Message{MsgData: bucket.MsgData{
		Seq:            q.int("seq"),
		SenderNickname: q.str("senderNickname"),
		ContentType:    int32(q.int("contentType")),
		Content:        q.str("content"),
		Status:         int32(q.int("status")),
	}}
	if m.Content == "" && m.Status != bucket.StatusDeleted {
		name, ok := elemOf[m.ContentType]
		if isNotification(m.ContentType) {
			name, ok = "notificationElem", true
		}
		if ok {
			if raw, has := q[name]; has && len(raw) > 0 && raw[0] == '{' {
				m.Content = string(raw)
			}
		}
	}
	return m
}

// orElse is the first non-empty string.
func orElse(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}
