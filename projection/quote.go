package projection

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/chatlens/chatlens/store"
)

// QuotedSeq is the seq of the message a quote's content (content type 114)
// embeds, read exactly the way Summary reads the quoted message; ok is false
// when the content names no usable seq (not a JSON object, no quoteMessage
// object, seq missing, not an integer, or below 1). Pure: callers use it to
// find which seqs to read before calling View.
func QuotedSeq(content string) (int64, bool) {
	o, ok := parseObject(content)
	if !ok {
		return 0, false
	}
	return quotedSeqOf(o.obj("quoteMessage"))
}

// quotedSeqOf reads the seq of an embedded quoted message (nil: none).
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
func QuotedBy(s store.StoredSlot) (int64, bool) {
	if s.IsHole() || s.Slot.Revoke != nil || s.Slot.Msg.ContentType != Quote {
		return 0, false
	}
	return QuotedSeq(s.Slot.Msg.Content)
}

// QuotedBuckets lists, ascending and once each, the bucket indexes holding
// the seqs quoted by the slots of buckets with a seq in from..to, leaving out
// those have reports at hand (have may be nil). Reading them and passing a
// Lookup that covers them resolves every quote there (rule 5).
func QuotedBuckets(buckets []*store.Bucket, from, to int64, have func(index int64) bool) []int64 {
	seen := map[int64]bool{}
	var out []int64
	for _, b := range buckets {
		for _, s := range b.Slots {
			if s.Seq < from || s.Seq > to {
				continue
			}
			seq, ok := QuotedBy(s)
			if !ok {
				continue
			}
			i := store.BucketIndex(seq)
			if seen[i] || have != nil && have(i) {
				continue
			}
			seen[i] = true
			out = append(out, i)
		}
	}
	slices.Sort(out)
	return out
}

// projectQuote applies the read-time rules to the message embedded in a
// quote's content (rule 5) and returns the content to show. resolved is true
// only when the quoted message in the returned content was checked against
// the quoted seq's slot; otherwise the content is returned unchanged.
func projectQuote(content, viewer string, quoted Lookup) (shown string, resolved bool) {
	seq, ok := QuotedSeq(content)
	if !ok || quoted == nil {
		return content, false
	}
	slot, ok := quoted(seq)
	if !ok {
		return content, false
	}
	if !(slot.IsHole() || deletedFor(slot.Slot, viewer) || slot.Slot.Revoke != nil) {
		return content, true // the viewer sees the quoted message as stored
	}
	// Rewrite in place, keeping the stored key order. The member rewritten
	// is the one QuotedSeq (and Summary) read: the last "quoteMessage".
	outer, ok := parseOrdered(content)
	if !ok {
		return content, false
	}
	qi := -1
	for i, m := range outer {
		if m.key == "quoteMessage" {
			qi = i
		}
	}
	if qi < 0 {
		return content, false
	}
	inner, ok := parseOrdered(string(outer[qi].val))
	if !ok || seqOf(inner) != seq {
		return content, false
	}
	inner, changed := hideQuoted(inner, slot, viewer)
	if !changed {
		return content, false
	}
	outer[qi].val = json.RawMessage(encodeOrdered(inner))
	return encodeOrdered(outer), true
}

// hideQuoted rewrites the embedded message the way View would show its slot.
func hideQuoted(inner []member, s store.StoredSlot, viewer string) ([]member, bool) {
	hidden := s.IsHole() || deletedFor(s.Slot, viewer)
	revoked := !s.IsHole() && s.Slot.Revoke != nil
	if !hidden && !revoked {
		return inner, false
	}
	if hidden {
		inner = setEvery(inner, "content", jsonString(""))
		inner = setEvery(inner, "status", json.RawMessage(strconv.Itoa(int(store.StatusDeleted))))
	}
	if revoked {
		inner = setEvery(inner, "contentType", json.RawMessage(strconv.Itoa(int(RevokeNotice))))
		inner = setEvery(inner, "content", jsonString(RevokeContent(s.Slot.Msg, s.Slot.Revoke)))
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

// setEvery replaces the value of every member named key (a decoder keeps the
// last of duplicates, so replacing only the first would let the stored value
// show through), appending the key when it is absent.
func setEvery(ms []member, key string, val json.RawMessage) []member {
	for i := range ms {
		if ms[i].key == key {
			ms[i].val = val
		}
	}
	return set(ms, key, val) // appends it when absent
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
