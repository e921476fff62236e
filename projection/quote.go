package projection

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/chatlens/chatlens/store/bucket"
)

// quoteContent is a quote's content (content type 114) the way OpenIM
// reads and re-encodes it when it rewrites a quote (controller/msg.go
// handlerDBMsg): only these members survive a rewrite, in this order.
type quoteContent struct {
	Text              string          `json:"text,omitempty"`
	QuoteMessage      *quotedMsg      `json:"quoteMessage,omitempty"`
	MessageEntityList json.RawMessage `json:"messageEntityList,omitempty"`
}

// quotedMsg is the message embedded in a quote, with OpenIM's JSON names.
type quotedMsg struct {
	sdkMsg
	KeyVersion int32    `json:"keyVersion"`
	DstUserIDs []string `json:"dstUserIDs"`
}

// offlinePushInfo is the push block of an embedded message (sdkws.OfflinePushInfo).
type offlinePushInfo struct {
	Title         string `json:"title"`
	Desc          string `json:"desc"`
	Ex            string `json:"ex"`
	IOSPushSound  string `json:"iOSPushSound"`
	IOSBadgeCount bool   `json:"iOSBadgeCount"`
	SignalInfo    string `json:"signalInfo"`
}

// emptyObjectBase64 is "{}" as a []byte field of a protobuf message
// encodes in JSON; OpenIM turns it back into "{}".
const emptyObjectBase64 = "e30="

// parseQuote reads content as OpenIM does; ok is false when OpenIM would
// leave the content alone (not JSON of that shape, or no quoted message).
func parseQuote(content string) (quoteContent, bool) {
	var q quoteContent
	if json.Unmarshal([]byte(content), &q) != nil || q.QuoteMessage == nil {
		return q, false
	}
	if q.QuoteMessage.Content == nil { // null or absent: OpenIM reads ""
		q.QuoteMessage.Content = new(string)
	}
	return q, true
}

// QuotedSeq is the seq of the message a quote's content embeds, as OpenIM
// reads it; ok is false when OpenIM looks nothing up for it (content it
// cannot read, no quoted message, a seq of 0 or less). Pure: callers use
// it to find which seqs to read before calling View.
func QuotedSeq(content string) (int64, bool) {
	q, ok := parseQuote(content)
	if !ok || q.QuoteMessage.Seq <= 0 {
		return 0, false
	}
	return q.QuoteMessage.Seq, true
}

// quotedSeqOf reads the seq of an embedded quoted message (nil: none), for
// showing an unresolved quote by seq.
func quotedSeqOf(q object) (int64, bool) {
	if q == nil {
		return 0, false
	}
	if seq := seqValue(q["seq"]); seq >= 1 {
		return seq, true
	}
	return 0, false
}

// QuotedBy is the seq the stored slot quotes when View may look it up for
// some viewer: a quote that is not a hole and not revoked (a revoked quote
// shows the revoke, not what it quoted).
func QuotedBy(s bucket.StoredSlot) (int64, bool) {
	if s.IsHole() || s.Slot.Revoke != nil || s.Slot.Msg.ContentType != Quote {
		return 0, false
	}
	return QuotedSeq(s.Slot.Msg.Content)
}

// QuotedSeqs lists, ascending and once each, the seqs quoted by the slots
// of buckets with a seq in from..to whose bucket have does not report at
// hand: what a Lookup must add, read slot by slot, to resolve every quote
// there (rule 5).
func QuotedSeqs(buckets []*bucket.Bucket, from, to int64, have func(index int64) bool) []int64 {
	var out []int64
	for _, b := range buckets {
		for _, s := range b.Slots {
			if s.Seq < from || s.Seq > to {
				continue
			}
			if seq, ok := QuotedBy(s); ok && !slices.Contains(out, seq) && (have == nil || !have(bucket.BucketIndex(seq))) {
				out = append(out, seq)
			}
		}
	}
	slices.Sort(out)
	return out
}

// projectQuote rewrites a quote's content exactly when OpenIM does
// (controller/msg.go handlerDBMsg, looking the quoted seq up with
// mgo/msg.go GetMsgBySeqIndexIn1Doc): when the quoted slot is revoked, the
// quoted message becomes type 2101 with the revoked slot's projected
// content; when the quoted seq is 0 or less, type 2101 with content "{}".
// A quoted hole, a quoted seq in a missing bucket and a quoted message the
// viewer deleted are left exactly as stored. A rewrite re-encodes the
// content the way OpenIM does, keeping only the members it knows.
// resolved is false only when the quoted slot was needed and not at hand:
// the content is then as stored, and may not be what OpenIM returns.
func projectQuote(content, viewer string, quoted bucket.Lookup) (shown string, resolved bool) {
	q, ok := parseQuote(content)
	if !ok {
		return content, true
	}
	shown = content
	qm := q.QuoteMessage
	if *qm.Content == emptyObjectBase64 {
		*qm.Content = "{}"
		if data, err := json.Marshal(&q); err == nil {
			shown = string(data)
		}
	}
	if qm.Seq <= 0 && qm.ContentType == RevokeNotice {
		return shown, true
	}
	quotedContent := "{}" // what a quoted seq of 0 or less gets
	if qm.Seq > 0 {
		if quoted == nil {
			return shown, false
		}
		slot, ok := quoted(qm.Seq)
		if !ok {
			return shown, false
		}
		if slot.Slot == nil || slot.Slot.Msg == nil {
			return shown, true // a hole or a missing bucket: left as it is
		}
		ct, c := quotedProjection(slot.Slot, viewer)
		if ct != RevokeNotice {
			return shown, true
		}
		quotedContent = c
	}
	qm.ContentType, qm.Content = RevokeNotice, &quotedContent
	data, err := json.Marshal(&q)
	if err != nil {
		return shown, true
	}
	return string(data), true
}

// quotedProjection is the content type and content the viewer gets for a
// quoted slot holding a message (rules 2 and 3, as GetMsgBySeqIndexIn1Doc
// applies them).
func quotedProjection(slot *bucket.Slot, viewer string) (int32, string) {
	ct, content := slot.Msg.ContentType, slot.Msg.Content
	if deletedFor(slot, viewer) {
		content = ""
	}
	if slot.Revoke != nil {
		return RevokeNotice, RevokeContent(slot.Msg, slot.Revoke)
	}
	return ct, content
}

// seqValue reads a seq written as a number or a numeric string; 0 if neither.
func seqValue(raw json.RawMessage) int64 {
	n, err := strconv.ParseInt(strings.Trim(string(raw), `" `), 10, 64)
	if err != nil {
		return 0
	}
	return n
}
