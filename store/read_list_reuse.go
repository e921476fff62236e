package store

import (
	"context"

	"github.com/chatlens/chatlens/store/bucket"
)

// ViewerRecords are what a switch to another viewer reads of them first:
// their conversation documents and their seq_user documents (of those and
// of the open conversation), once for their window of the open
// conversation and for their list.
type ViewerRecords struct {
	UID   string
	convs []bucket.Conversation
	read  *readSeqUsers
	// Window is their window of the open conversation (ReadViewer's at),
	// as WindowAt gives it; nil when none was asked.
	Window *bucket.Window
}

// ReadViewer reads uid's conversation documents and seq_user documents
// (two round trips, and the cache's read seqs), and with at (a window of
// the open conversation read for someone else) uid's window of it, as
// WindowAt gives it, from the same reads.
func (s *userReads) ReadViewer(ctx context.Context, uid string, at *bucket.Window) (*ViewerRecords, error) {
	convs, err := s.backend.Conversations(ctx, uid)
	if err != nil {
		return nil, err
	}
	v := &ViewerRecords{UID: uid, convs: convs}
	want := make([]string, 0, len(convs)+1)
	listed := map[string]bool{}
	for _, c := range convs {
		want, listed[c.ConversationID] = append(want, c.ConversationID), true
	}
	if at != nil && !listed[at.Cid] {
		want = append(want, at.Cid)
	}
	if len(want) == 0 {
		return v, nil
	}
	if v.read, err = s.seqUsersOf(ctx, uid, want); err != nil {
		return nil, err
	}
	if at != nil {
		if v.Window, err = s.windowAtFrom(ctx, uid, *at, convs, v.read); err != nil {
			return nil, err
		}
	}
	return v, nil
}

// ConversationsReusing is ConversationList of v's user from the records
// ReadViewer read, for a list that replaces another user's: known holds
// windows read for someone else (the rows shown), whose start and end for
// everyone (SeqMinSeq, EndSeq) and newest bucket (Last, StoredNewest) hold
// for v's user too, as WindowAt takes them, so their seq documents and
// newest buckets are not read again; so does the newest message, unless
// v's user's window ends elsewhere (a cap), where it is read. Cost: Windows' reads for the
// conversations known does not hold; ConversationsOf's after the
// conversation documents when the user owns none.
func (s *userReads) ConversationsReusing(ctx context.Context, v *ViewerRecords, known map[string]bucket.Window, o ListOptions) ([]ConversationSummary, error) {
	if len(v.convs) == 0 { // a bare msg export, or nobody's list: the whole path
		return s.conversationsFrom(ctx, v.UID, v.convs, o)
	}
	byCid := make(map[string]bucket.Conversation, len(v.convs))
	var fresh []string // conversations known does not hold
	for _, c := range v.convs {
		byCid[c.ConversationID] = c
		if _, ok := known[c.ConversationID]; !ok {
			fresh = append(fresh, c.ConversationID)
		}
	}
	ws, err := s.windows(ctx, v.UID, fresh, byCid, v.read, len(v.convs) > o.WholeNewest)
	if err != nil {
		return nil, err
	}
	recount := map[string]*bucket.Window{} // the newest message of a window that ends elsewhere
	for cid := range byCid {
		base, ok := known[cid]
		if !ok {
			continue
		}
		w, err := s.windowAtFrom(ctx, v.UID, base, v.convs, v.read)
		if err != nil {
			return nil, err
		}
		w.Last, w.StoredNewest, w.Newest = base.Last, base.StoredNewest, base.Newest
		if w.MaxSeq != base.MaxSeq {
			recount[cid] = w
		}
		ws[cid] = w
	}
	if err := s.setNewest(ctx, recount, nil); err != nil {
		return nil, err
	}
	return summaries(v.convs, ws, false), nil
}
