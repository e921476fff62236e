package timeline

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/chatlens/chatlens/projection"
	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"

	"github.com/chatlens/chatlens/ui/common"
)

// Who has read the message under the cursor: the inspector reads every
// member's read seq when it opens (the members, then one round trip per
// layer, store.Readers) and says "read by N of M" with the names. Read
// afresh at each opening, so a mark read meanwhile shows.

//
// A notification conversation has no readers (the server keeps no read
// seq of it): there the inspector reads whose pulls hold the notification
// (store.NoticePulls), by the rule of the "pulled by" line.

type receipts struct {
	req     common.ReqID
	cid     string
	loading bool
	readers projection.ReadReceipts
	pulls   []store.NoticePull // in a notification conversation, instead of readers
	err     error
}

type readersLoadedMsg struct {
	req     common.ReqID
	readers projection.ReadReceipts
	pulls   []store.NoticePull
	members []store.Member // when this read them: kept, as needMembers would read them
	err     error
}

// loadReaders starts reading the members' read seqs, with the members
// already read when there are; else it reads them, and they are kept.
func (in Inspector) loadReaders() tea.Cmd {
	t := in.t
	t.receipts = receipts{req: t.e.NewReq(), cid: t.cid, loading: true}
	e, req, cid, viewer, win := t.e, t.receipts.req, t.cid, t.viewer, t.win
	members := t.members
	if t.membersAt != membersRead {
		members = nil
	}
	return func() tea.Msg {
		var read []store.Member
		if members == nil {
			ms, err := e.Store.MembersFor(e.Ctx, cid, viewer)
			if err != nil {
				return readersLoadedMsg{req: req, err: err}
			}
			members, read = ms, ms
		}
		if bucket.IsNotificationConversation(cid) {
			pulls, err := e.Store.NoticePulls(e.Ctx, win, members)
			return readersLoadedMsg{req: req, pulls: pulls, members: read, err: err}
		}
		rs, err := e.Store.Readers(e.Ctx, cid, members)
		return readersLoadedMsg{req: req, readers: toReaders(rs), members: read, err: err}
	}
}

func toReaders(rs []store.Reader) projection.ReadReceipts {
	out := make([]projection.Reader, len(rs))
	for i, r := range rs {
		out[i] = projection.Reader{UserID: r.UserID, Name: r.Nickname, ReadSeq: r.ReadSeq, MinSeq: r.MinSeq}
	}
	return projection.NewReadReceipts(out)
}

func (in Inspector) readersLoaded(msg readersLoadedMsg) {
	t := in.t
	if msg.req != t.receipts.req {
		return // an older opening's
	}
	t.receipts.loading, t.receipts.readers, t.receipts.pulls, t.receipts.err = false, msg.readers, msg.pulls, msg.err
	if msg.members != nil && t.membersAt == membersUnread {
		t.members, t.membersAt = msg.members, membersRead // the picker and V need no read
	}
}

// readByLines are the inspector's lines on who has read m; in a
// notification conversation, whose pulls hold it.
func (in Inspector) readByLines(m projection.Message) []string {
	t := in.t
	r := t.receipts
	switch {
	case m.Hole || r.cid != t.cid:
		return nil
	case r.loading:
		return []string{"readers     (reading the members' read seqs…)"}
	case r.err != nil:
		return []string{"readers     unknown: " + r.err.Error()}
	}
	head, words := "readers     ", r.readers.Words(m)
	if bucket.IsNotificationConversation(r.cid) {
		head, words = "pulled      ", store.PulledWords(m.Seq, r.pulls)
	}
	var out []string
	for i, l := range words {
		out = append(out, map[bool]string{true: head, false: "            "}[i == 0]+l)
	}
	return out
}
