package projection

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/chatlens/chatlens/store"
)

// projectQuote applies the read-time rules to the message embedded in a
// quote's content (rule 5) and returns the content to show. Content that
// cannot be read, or whose quoted seq is not at hand, is returned unchanged.
func projectQuote(content, viewer string, quoted Lookup) string {
	// Most quoted messages are visible: find that out with one plain decode
	// before paying for an order-keeping rewrite.
	var probe struct {
		QuoteMessage struct {
			Seq json.RawMessage `json:"seq"`
		} `json:"quoteMessage"`
	}
	if json.Unmarshal([]byte(content), &probe) != nil {
		return content
	}
	seq := seqValue(probe.QuoteMessage.Seq)
	if seq < 1 {
		return content
	}
	slot, ok := quoted(seq)
	if !ok || !(slot.IsHole() || deletedFor(slot.Slot, viewer) || slot.Slot.Revoke != nil) {
		return content
	}
	outer, ok := parseOrdered(content)
	if !ok {
		return content
	}
	qi := -1
	for i, m := range outer {
		if m.key == "quoteMessage" {
			qi = i
		}
	}
	if qi < 0 {
		return content
	}
	inner, ok := parseOrdered(string(outer[qi].val))
	if !ok || seqOf(inner) != seq {
		return content
	}
	inner, changed := hideQuoted(inner, slot, viewer)
	if !changed {
		return content
	}
	outer[qi].val = json.RawMessage(encodeOrdered(inner))
	return encodeOrdered(outer)
}

// hideQuoted rewrites the embedded message the way View would show its slot.
func hideQuoted(inner []member, s store.StoredSlot, viewer string) ([]member, bool) {
	hidden := s.IsHole() || deletedFor(s.Slot, viewer)
	revoked := !s.IsHole() && s.Slot.Revoke != nil
	if !hidden && !revoked {
		return inner, false
	}
	if hidden {
		inner = set(inner, "content", jsonString(""))
		inner = set(inner, "status", json.RawMessage(strconv.Itoa(int(store.StatusDeleted))))
	}
	if revoked {
		inner = set(inner, "contentType", json.RawMessage(strconv.Itoa(int(RevokeNotice))))
		inner = set(inner, "content", jsonString(RevokeContent(s.Slot.Msg, s.Slot.Revoke)))
	}
	// SDK messages also carry their content as elements (textElem,
	// pictureElem, ...); drop them so the hidden content cannot show
	// through a second path.
	kept := inner[:0]
	for _, m := range inner {
		if !strings.HasSuffix(m.key, "Elem") {
			kept = append(kept, m)
		}
	}
	return kept, true
}

// seqOf reads the last "seq" member (the one a decoder keeps).
func seqOf(ms []member) int64 {
	var seq int64
	for _, m := range ms {
		if m.key == "seq" {
			seq = seqValue(m.val)
		}
	}
	return seq
}

// seqValue reads a seq written as a number or a numeric string; 0 if neither.
func seqValue(raw json.RawMessage) int64 {
	n, err := strconv.ParseInt(strings.Trim(string(raw), `" `), 10, 64)
	if err != nil {
		return 0
	}
	return n
}

func jsonString(s string) json.RawMessage {
	b, _ := json.Marshal(s)
	return b
}
