package ui

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/chatlens/chatlens/keymap"
	"github.com/chatlens/chatlens/projection"
	"github.com/chatlens/chatlens/store"

	"github.com/chatlens/chatlens/ui/common"

	"github.com/chatlens/chatlens/ui/pages/timeline"
)

// Find by message ID: the ID is looked up as a client_msg_id, then as a
// server_msg_id (store.FindMessage), in the open conversation first, then
// in the viewer's conversations (the ticket names a user); a miss there
// offers every conversation (FindAll). Without an index the status line
// says how many buckets the scan reads and shows its progress; esc or
// ctrl+c cancels it. A hit opens its conversation at the message, when
// the viewer has that conversation.

// finding is a find in flight.
type finding struct {
	req    common.ReqID
	value  string
	scoped bool // in the viewer's conversations only
	cancel context.CancelFunc
	events <-chan findEvent
}

// finder is the part that finds a message by ID: the find in flight, and
// what I and FindAll offer next.
type finder struct {
	cur *finding
	// wider is the ID a find missed in the viewer's conversations, until
	// the next key: FindAll looks in every conversation.
	wider string
	// last is the ID the last find looked for: I offers it again
	// (selected), so a find outside the viewer's conversations is one key
	// away after u.
	last string
}

// findScopes are where I looks, in turn: the open conversation (open, ""
// for none), the viewer's conversations; every conversation when there is
// no viewer.
func findScopes(open, viewer string) []store.FindScope {
	var out []store.FindScope
	if open != "" {
		out = append(out, store.FindScope{Conversation: open})
	}
	if viewer != "" {
		out = append(out, store.FindScope{As: viewer})
	}
	if len(out) == 0 {
		out = append(out, store.FindScope{})
	}
	return out
}

// prompt says where I looks first, and what a miss offers.
func (f *finder) prompt(viewer, open string, keys keymap.KeyMap) string {
	if viewer == "" {
		return "find message by client or server msg ID: "
	}
	first := ""
	if open != "" {
		first = " (" + projection.SingleLine(open) + " first)"
	}
	return fmt.Sprintf("find msg ID in %s's conversations%s — %s: all: ", projection.SingleLine(viewer), first,
		keys.FindAll.Help().Key)
}

// widerAsked takes the ID a find missed, offered until the next key k:
// ok when k is FindAll.
func (f *finder) widerAsked(k tea.KeyMsg, keys keymap.KeyMap) (string, bool) {
	wider := f.wider
	f.wider = ""
	return wider, wider != "" && key.Matches(k, keys.FindAll)
}

// findEvent is one report of a running find: a plan, progress, or the end.
type findEvent struct {
	req         common.ReqID
	field       string
	plan        *store.FindPlan
	done, total int
	found       []store.Found
	members     []store.Member // of the hit's conversation, when every conversation was searched
	err         error
	final       bool
}

// start looks for value in scopes, in turn; status is what the status
// line says meanwhile ("" when there is nothing to find).
func (f *finder) start(e *common.Common, value string, scopes []store.FindScope) (cmd tea.Cmd, status string) {
	value = strings.TrimSpace(value)
	if value == "" {
		return nil, ""
	}
	f.cancel()
	f.last = value
	req := e.NewReq()
	ctx, cancel := context.WithCancel(e.Ctx)
	events := make(chan findEvent, 8)
	scoped := false
	for _, sc := range scopes {
		scoped = scoped || sc != store.FindScope{}
	}
	f.cur = &finding{req: req, value: value, scoped: scoped, cancel: cancel, events: events}
	st := e.Store
	go func() {
		defer close(events)
		send := func(ev findEvent) {
			ev.req = req
			select {
			case events <- ev:
			case <-ctx.Done():
			}
		}
		for _, scope := range scopes {
			for _, field := range []string{store.FieldClientMsgID, store.FieldServerMsgID} {
				found, _, err := st.FindMessage(ctx, field, value, store.FindOptions{Scope: scope,
					Plan:     func(p store.FindPlan) { send(findEvent{field: field, plan: &p}) },
					Progress: func(done, total int) { send(findEvent{field: field, done: done, total: total}) },
				})
				if err != nil || len(found) > 0 {
					ev := findEvent{field: field, found: found, err: err, final: true}
					if err == nil && scope == (store.FindScope{}) {
						// Maybe none of the viewer's: the members to view it as.
						ev.members, _ = st.MembersFor(ctx, found[0].ConversationID, "")
					}
					send(ev)
					return
				}
			}
		}
		send(findEvent{final: true})
	}()
	return waitFind(events), fmt.Sprintf("finding %s…", projection.SingleLine(value))
}

func waitFind(events <-chan findEvent) tea.Cmd {
	return func() tea.Msg {
		ev, ok := <-events
		if !ok {
			return nil
		}
		return ev
	}
}

// cancel stops a running find; true if there was one.
func (f *finder) cancel() bool {
	if f.cur == nil {
		return false
	}
	f.cur.cancel()
	f.cur = nil
	return true
}

// findHit is where a find ended: the first slot found and how.
type findHit struct {
	store.Found
	field   string
	where   string         // the slot, and how many more were found
	members []store.Member // of its conversation, when every conversation was searched
}

// event takes a report of the find in flight: what the status line says,
// the next report to wait for, and at the end, the hit (nil for none).
func (f *finder) event(ev findEvent, keys keymap.KeyMap, viewer string) (tea.Cmd, common.Note, *findHit) {
	cur := f.cur
	if cur == nil || ev.req != cur.req {
		return nil, common.Note{}, nil // cancelled or replaced: its reports are dropped
	}
	switch {
	case ev.plan != nil && ev.plan.Index == "":
		return waitFind(cur.events), common.Note{Text: fmt.Sprintf("no index on msgs.msg.%s: scanning %d buckets in %d conversations · %s cancels",
			ev.field, ev.plan.Buckets, ev.plan.Conversations, keys.Back.Help().Key)}, nil
	case !ev.final && ev.total > 0:
		return waitFind(cur.events), common.Note{Text: fmt.Sprintf("finding %s by %s: %d/%d buckets scanned · %s cancels",
			projection.SingleLine(cur.value), ev.field, ev.done, ev.total, keys.Back.Help().Key)}, nil
	case !ev.final:
		return waitFind(cur.events), common.Note{}, nil
	}
	f.cur = nil
	value := cur.value
	switch {
	case errors.Is(ev.err, context.Canceled):
		return nil, common.Note{Text: "find cancelled"}, nil
	case ev.err != nil:
		return nil, common.Note{Text: "find failed: " + ev.err.Error(), IsErr: true}, nil
	case len(ev.found) == 0 && cur.scoped:
		f.wider = value
		// What to do first: a narrow status line cuts the end (L has it whole).
		return nil, common.Note{Text: fmt.Sprintf("not in %s's conversations (%s: search all): no message has client or server msg ID %s",
			projection.SingleLine(viewer), keys.FindAll.Help().Key, projection.SingleLine(value)), IsErr: true}, nil
	case len(ev.found) == 0:
		return nil, common.Note{Text: fmt.Sprintf("no stored message has client or server msg ID %s", projection.SingleLine(value)), IsErr: true}, nil
	}
	hit := ev.found[0]
	where := fmt.Sprintf("%s seq %d (bucket %s slot %d)", projection.SingleLine(hit.ConversationID), hit.Seq,
		projection.SingleLine(hit.DocID), hit.Slot)
	if n := len(ev.found) - 1; n > 0 {
		where += fmt.Sprintf(", and %d more slots", n)
	}
	return nil, common.Note{}, &findHit{Found: hit, field: ev.field, where: where, members: ev.members}
}

// elsewhere says that the hit is in none of owner's conversations, and how
// to view it as one of its members.
func (h *findHit) elsewhere(owner string, keys keymap.KeyMap) string {
	// What to do first: a narrow status line cuts the end (L has it whole).
	return fmt.Sprintf("in %s seq %d, not a conversation of %s: %s %s, then %s again (it offers the ID)%s; found by %s in %s",
		projection.SingleLine(h.ConversationID), h.Seq, projection.SingleLine(owner), keys.ViewAsAny.Help().Key,
		memberHint(h.members), keys.FindByID.Help().Key, memberList(h.members), h.field, h.where)
}

// findEvent shows a find's progress and opens the conversation of its hit
// at the message, when the viewer has that conversation.
func (m *Model) findEvent(ev findEvent) tea.Cmd {
	cmd, note, hit := m.find.event(ev, m.e.Keys, m.viewer())
	if note.Text != "" {
		m.setStatus(note.Text, note.IsErr)
	}
	if hit == nil {
		return cmd
	}
	items := m.list.Items()
	for i := range items {
		it := &items[i]
		if it.Sum.ConversationID != hit.ConversationID {
			continue
		}
		m.setStatus("found by "+hit.field+" in "+hit.where, false)
		m.list.Select(hit.ConversationID) // the list shows what is open
		if m.tl == nil || m.tl.ID() != hit.ConversationID {
			m.tl = timeline.New(m.e, conversation(it), m.list.Owner(), m.list.Names())
		}
		m.focus = paneTimeline
		return m.tl.Moves().To(hit.Seq)
	}
	m.setStatus(hit.elsewhere(m.list.Owner(), m.e.Keys), false)
	return nil
}

// memberHint is the user ID to type after u: the first member's, or a
// placeholder when none is known.
func memberHint(members []store.Member) string {
	if len(members) == 0 {
		return "a member's ID"
	}
	return projection.SingleLine(members[0].UserID)
}

// memberList names the members a find's hit can be viewed as, a few of them.
func memberList(members []store.Member) string {
	if len(members) == 0 {
		return ""
	}
	var ids []string
	for _, mb := range members[:min(5, len(members))] {
		ids = append(ids, projection.SingleLine(projection.Truncate(mb.UserID, 40)))
	}
	more := ""
	if len(members) > 5 {
		more = fmt.Sprintf(", and %d more", len(members)-5)
	}
	return " (members: " + strings.Join(ids, ", ") + more + ")"
}
