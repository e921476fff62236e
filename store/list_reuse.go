package store

import (
	"context"

	"github.com/chatlens/chatlens/store/bucket"
)

// ConversationsReusing is ConversationsOf for a list that replaces another
// user's: known holds windows read for someone else (the rows shown), whose
// start and end for everyone (SeqMinSeq, EndSeq) and newest bucket (Last,
// StoredNewest) hold for uid too, as WindowAt takes them, so their seq
// documents and newest buckets are not read again. With at (a window of
// the open conversation read for someone else), uid's window of it, as
// WindowAt gives it, comes from the same reads. Cost: uid's conversation
// and seq_user documents, and Windows' reads for the conversations known
// does not hold; ConversationsOf's when uid owns no conversation document.
func (s *Store) ConversationsReusing(ctx context.Context, uid string, known map[string]bucket.Window, at *bucket.Window) ([]ConversationSummary, *bucket.Window, error) {
	s.trip()
	convs, err := s.backend.Conversations(ctx, uid)
	if err != nil {
		return nil, nil, err
	}
	if len(convs) == 0 { // a bare msg export, or nobody's list: the whole path
		list, err := s.conversationsFrom(ctx, uid, convs)
		if err != nil || at == nil {
			return list, nil, err
		}
		w, err := s.WindowAt(ctx, uid, *at)
		return list, w, err
	}
	byCid := make(map[string]bucket.Conversation, len(convs))
	want := make([]string, 0, len(convs)+1)
	var fresh []string // conversations known does not hold
	for _, c := range convs {
		byCid[c.ConversationID] = c
		want = append(want, c.ConversationID)
		if _, ok := known[c.ConversationID]; !ok {
			fresh = append(fresh, c.ConversationID)
		}
	}
	if at != nil {
		if _, listed := byCid[at.Cid]; !listed {
			want = append(want, at.Cid)
		}
	}
	read, err := s.seqUsersOf(ctx, uid, want)
	if err != nil {
		return nil, nil, err
	}
	ws, err := s.windows(ctx, uid, fresh, byCid, read)
	if err != nil {
		return nil, nil, err
	}
	for cid := range byCid {
		base, ok := known[cid]
		if !ok {
			continue
		}
		w, err := s.windowAtFrom(ctx, uid, base, convs, read)
		if err != nil {
			return nil, nil, err
		}
		w.Last, w.StoredNewest = base.Last, base.StoredNewest
		ws[cid] = w
	}
	var open *bucket.Window
	if at != nil {
		if open, err = s.windowAtFrom(ctx, uid, *at, convs, read); err != nil {
			return nil, nil, err
		}
	}
	return summaries(convs, ws, false), open, nil
}
