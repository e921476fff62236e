package ui

import (
	"context"
	"errors"
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

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

// findScopes are where I looks, in turn: the open conversation, the
// viewer's conversations; every conversation when there is no viewer.
func (m *Model) findScopes() []store.FindScope {
	var out []store.FindScope
	if m.tl != nil {
		out = append(out, store.FindScope{Conversation: m.tl.ID()})
	}
	if v := m.viewer(); v != "" {
		out = append(out, store.FindScope{As: v})
	}
	if len(out) == 0 {
		out = append(out, store.FindScope{})
	}
	return out
}

// findPrompt says where I looks first, and what a miss offers.
func (m *Model) findPrompt() string {
	v := m.viewer()
	if v == "" {
		return "find message by client or server msg ID: "
	}
	first := ""
	if m.tl != nil {
		first = " (" + projection.SingleLine(m.tl.ID()) + " first)"
	}
	return fmt.Sprintf("find msg ID in %s's conversations%s — %s: all: ", projection.SingleLine(v), first,
		m.e.Keys.FindAll.Help().Key)
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

// startFind looks for value in scopes, in turn.
func (m *Model) startFind(value string, scopes []store.FindScope) tea.Cmd {
	value = strings.TrimSpace(value)
	if value == "" {
		return nil
	}
	m.cancelFind()
	m.lastFind = value
	req := m.e.NewReq()
	ctx, cancel := context.WithCancel(m.e.Ctx)
	events := make(chan findEvent, 8)
	scoped := false
	for _, sc := range scopes {
		scoped = scoped || sc != store.FindScope{}
	}
	m.find = &finding{req: req, value: value, scoped: scoped, cancel: cancel, events: events}
	m.setStatus(fmt.Sprintf("finding %s…", projection.SingleLine(value)), false)
	st := m.e.Store
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
	return waitFind(events)
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

// cancelFind stops a running find; true if there was one.
func (m *Model) cancelFind() bool {
	if m.find == nil {
		return false
	}
	m.find.cancel()
	m.find = nil
	return true
}

func (m *Model) findEvent(ev findEvent) tea.Cmd {
	f := m.find
	if f == nil || ev.req != f.req {
		return nil // cancelled or replaced: its reports are dropped
	}
	switch {
	case ev.plan != nil && ev.plan.Index == "":
		m.setStatus(fmt.Sprintf("no index on msgs.msg.%s: scanning %d buckets in %d conversations · %s cancels",
			ev.field, ev.plan.Buckets, ev.plan.Conversations, m.e.Keys.Back.Help().Key), false)
	case !ev.final && ev.total > 0:
		m.setStatus(fmt.Sprintf("finding %s by %s: %d/%d buckets scanned · %s cancels",
			projection.SingleLine(f.value), ev.field, ev.done, ev.total, m.e.Keys.Back.Help().Key), false)
	case ev.final:
		m.find = nil
		return m.found(f, ev)
	}
	return waitFind(f.events)
}

// found opens the conversation of the first hit at its seq.
func (m *Model) found(f *finding, ev findEvent) tea.Cmd {
	value := f.value
	switch {
	case errors.Is(ev.err, context.Canceled):
		m.setStatus("find cancelled", false)
		return nil
	case ev.err != nil:
		m.setStatus("find failed: "+ev.err.Error(), true)
		return nil
	case len(ev.found) == 0 && f.scoped:
		m.findWider = value
		// What to do first: a narrow status line cuts the end (L has it whole).
		m.setStatus(fmt.Sprintf("not in %s's conversations (%s: search all): no message has client or server msg ID %s",
			projection.SingleLine(m.viewer()), m.e.Keys.FindAll.Help().Key, projection.SingleLine(value)), true)
		return nil
	case len(ev.found) == 0:
		m.setStatus(fmt.Sprintf("no stored message has client or server msg ID %s", projection.SingleLine(value)), true)
		return nil
	}
	hit := ev.found[0]
	where := fmt.Sprintf("%s seq %d (bucket %s slot %d)", projection.SingleLine(hit.ConversationID), hit.Seq,
		projection.SingleLine(hit.DocID), hit.Slot)
	if n := len(ev.found) - 1; n > 0 {
		where += fmt.Sprintf(", and %d more slots", n)
	}
	items := m.list.Items()
	for i := range items {
		it := &items[i]
		if it.Sum.ConversationID != hit.ConversationID {
			continue
		}
		m.setStatus("found by "+ev.field+" in "+where, false)
		m.list.Select(hit.ConversationID) // the list shows what is open
		if m.tl == nil || m.tl.ID() != hit.ConversationID {
			m.tl = timeline.New(m.e, conversation(it), m.list.Owner(), m.list.Names())
		}
		m.focus = paneTimeline
		return m.tl.Moves().To(hit.Seq)
	}
	// What to do first: a narrow status line cuts the end (L has it whole).
	m.setStatus(fmt.Sprintf("in %s seq %d, not a conversation of %s: %s %s, then %s again (it offers the ID)%s; found by %s in %s",
		projection.SingleLine(hit.ConversationID), hit.Seq, projection.SingleLine(m.list.Owner()), m.e.Keys.ViewAsAny.Help().Key,
		memberHint(ev.members), m.e.Keys.FindByID.Help().Key, memberList(ev.members), ev.field, where), false)
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
