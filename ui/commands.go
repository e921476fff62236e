package ui

import (
	"fmt"
	"os"
	"strings"

	osc52 "github.com/aymanbagabas/go-osc52/v2"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/chatlens/chatlens/store"
)

// Every read and write runs in one of these commands, off the UI goroutine.
// Each reply carries what it was asked for (a request ID, a generation or a
// conversation), so a reply that arrives after the user moved on is dropped.

type firstViewerMsg struct {
	viewer string
	err    error
}

// findFirstViewer picks a user to start as when --as is not given: a member
// of the first conversation stored.
func findFirstViewer(e *env) tea.Cmd {
	return func() tea.Msg {
		cid, ok, err := e.st.Backend().NextConversationID(e.ctx, "")
		if err != nil || !ok {
			return firstViewerMsg{err: err}
		}
		kind, a, _ := store.SplitConversationID(cid)
		if kind == store.SessionGroup {
			ms, err := e.st.Members(e.ctx, cid)
			if err != nil || len(ms) == 0 {
				return firstViewerMsg{err: err}
			}
			return firstViewerMsg{viewer: ms[0].UserID}
		}
		return firstViewerMsg{viewer: a}
	}
}

type listLoadedMsg struct {
	id    int
	owner string
	items []convItem
	err   error
}

// previewLimit bounds the extra bucket reads made for list previews when the
// window read did not bring the newest bucket along (a cache knew max seq).
const previewLimit = 50

func loadList(e *env, id int, owner string) tea.Cmd {
	return func() tea.Msg {
		sums, err := e.st.ConversationsOf(e.ctx, owner)
		if err != nil {
			return listLoadedMsg{id: id, owner: owner, err: err}
		}
		items := make([]convItem, len(sums))
		var userIDs, groupIDs []string
		for i, s := range sums {
			items[i] = convItem{sum: s, peer: peerOf(s, owner)}
			if items[i].peer != "" {
				userIDs = append(userIDs, items[i].peer)
			}
			if kind, g, _ := store.SplitConversationID(s.ConversationID); kind == store.SessionGroup {
				items[i].group = g
				groupIDs = append(groupIDs, g)
			}
		}
		users, groups := map[string]string{}, map[string]string{}
		if len(userIDs) > 0 {
			if users, err = e.st.UserNames(e.ctx, userIDs); err != nil {
				return listLoadedMsg{id: id, owner: owner, err: err}
			}
		}
		if len(groupIDs) > 0 {
			if groups, err = e.st.GroupNames(e.ctx, groupIDs); err != nil {
				return listLoadedMsg{id: id, owner: owner, err: err}
			}
		}
		extra := 0
		for i := range items {
			it := &items[i]
			it.name = nameOf(it, users, groups)
			last := it.sum.Last
			if last == nil && it.sum.Window.MaxSeq > 0 && extra < previewLimit {
				extra++
				if bs, err := e.st.Buckets(e.ctx, it.sum.ConversationID,
					[]int64{store.BucketIndex(it.sum.Window.MaxSeq)}, it.sum.Window.MaxSeq); err == nil {
					last = bs[0]
				}
			}
			if last != nil {
				if seq := last.LastFilledSeq(); seq > 0 && seq <= it.sum.Window.MaxSeq {
					it.last = &last.Slots[store.SlotIndex(seq)]
					it.lastDoc = last.DocID
				}
			}
		}
		return listLoadedMsg{id: id, owner: owner, items: items}
	}
}

// peerOf is the other user of a single chat, "" for other kinds.
func peerOf(s store.ConversationSummary, owner string) string {
	kind, a, b := store.SplitConversationID(s.ConversationID)
	if kind != store.SessionSingle {
		return ""
	}
	if s.UserID != "" && s.UserID != owner {
		return s.UserID
	}
	if a == owner {
		return b
	}
	return a
}

func nameOf(it *convItem, users, groups map[string]string) string {
	switch {
	case it.peer != "" && users[it.peer] != "":
		return users[it.peer]
	case it.peer != "":
		return it.peer
	case it.group != "" && groups[it.group] != "":
		return groups[it.group]
	case it.group != "":
		return it.group
	}
	return it.sum.ConversationID
}

type bucketsLoadedMsg struct {
	gen     int
	cid     string
	indexes []int64
	buckets []*store.Bucket
	refresh bool // a re-read after a write: replace what is held
	err     error
}

func loadBuckets(e *env, gen int, cid string, indexes []int64, maxSeq int64, refresh bool) tea.Cmd {
	return func() tea.Msg {
		bs, err := e.st.Buckets(e.ctx, cid, indexes, maxSeq)
		return bucketsLoadedMsg{gen: gen, cid: cid, indexes: indexes, buckets: bs, refresh: refresh, err: err}
	}
}

type membersLoadedMsg struct {
	cid     string
	members []store.Member
	err     error
}

func loadMembers(e *env, cid string) tea.Cmd {
	return func() tea.Msg {
		ms, err := e.st.Members(e.ctx, cid)
		return membersLoadedMsg{cid: cid, members: ms, err: err}
	}
}

type windowLoadedMsg struct {
	cid, viewer string
	win         store.Window
	err         error
}

func loadWindow(e *env, cid, viewer string) tea.Cmd {
	return func() tea.Msg {
		ws, err := e.st.Windows(e.ctx, viewer, []string{cid}, nil)
		if err != nil {
			return windowLoadedMsg{cid: cid, viewer: viewer, err: err}
		}
		w := *ws[cid]
		w.Last = nil // the timeline reads its own buckets
		return windowLoadedMsg{cid: cid, viewer: viewer, win: w}
	}
}

// action names a write the timeline offers.
type action string

const (
	actRevoke action = "revoke"
	actDelete action = "delete"
	actRead   action = "mark read"
)

type actionDoneMsg struct {
	cid    string
	act    action
	viewer string
	seqs   []int64
	res    store.WriteResult
	err    error
}

func runAction(e *env, cid string, act action, viewer string, seqs []int64, rev store.Revoke) tea.Cmd {
	return func() tea.Msg {
		if e.readOnly {
			return actionDoneMsg{cid: cid, act: act, viewer: viewer, seqs: seqs, err: store.ErrReadOnly}
		}
		var res store.WriteResult
		var err error
		switch act {
		case actRevoke:
			res, err = e.st.Revoke(e.ctx, cid, seqs, rev)
		case actDelete:
			res, err = e.st.DeleteForMe(e.ctx, cid, seqs, viewer)
		case actRead:
			res, err = e.st.MarkRead(e.ctx, cid, seqs, viewer)
		}
		return actionDoneMsg{cid: cid, act: act, viewer: viewer, seqs: seqs, res: res, err: err}
	}
}

type copiedMsg struct {
	chars int
	err   error
}

// copyText hands text to the terminal's clipboard with OSC52. The text is
// sanitised first, so a message can never smuggle its own sequence out.
func copyText(e *env, text string) tea.Cmd {
	return func() tea.Msg {
		seq := osc52.New(text)
		if os.Getenv("TMUX") != "" {
			seq = seq.Tmux()
		} else if strings.HasPrefix(os.Getenv("TERM"), "screen") {
			seq = seq.Screen()
		}
		_, err := fmt.Fprint(e.clip, seq.String())
		return copiedMsg{chars: len([]rune(text)), err: err}
	}
}
