package list

import "github.com/chatlens/chatlens/store/bucket"

// The rows stay as live as the timeline, from what it holds (no round
// trip): where a followed conversation ends and its newest message, and a
// read seq a mark read moved.

// Follow moves the row of cid to end, the seq the conversation ends at now
// for everyone, and its preview to the newest message the timeline holds
// (newest: the stored slot of a seq and its bucket's doc_id, when held),
// so its unread count and preview follow. The rows are in the owner's
// window; the newest stored slot is everyone's.
func (l *Model) Follow(cid string, end int64, newest func(seq int64) (bucket.StoredSlot, string, bool)) {
	if l.itemsFor != l.owner {
		return
	}
	for i := range l.items {
		it := &l.items[i]
		if it.Sum.ConversationID != cid {
			continue
		}
		if end > it.Sum.Window.EndSeq {
			it.Sum.Window.EndSeq = end
			if it.Sum.Window.CapSeq == 0 {
				it.Sum.Window.MaxSeq = end
			}
		}
		if s, doc, ok := newest(it.Sum.Window.MaxSeq); ok && (it.Preview == nil || it.Preview.Seq < s.Seq) {
			it.Preview, it.PreviewDoc, it.PreviewQuoted = &s, doc, nil
		}
	}
}

// SetReadSeq puts viewer's read seq of cid where the row shows it (its
// unread count), when the rows are viewer's.
func (l *Model) SetReadSeq(viewer, cid string, readSeq int64) {
	if l.itemsFor != viewer {
		return
	}
	for i := range l.items {
		if it := &l.items[i]; it.Sum.ConversationID == cid {
			it.Sum.Window.ReadSeq = readSeq
		}
	}
}
