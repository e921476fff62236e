package timeline

import (
	tea "github.com/charmbracelet/bubbletea"
	"github.com/chatlens/chatlens/ui/pages/timeline/model"

	"slices"
	"strings"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
)

// viewerChoices are the conversation's members once read; until then (or
// without member records) the people already known: the viewer, the list's
// owner and peer, and the senders of the held messages.
func (vs Viewers) viewerChoices() []store.Member {
	t := vs.t
	if len(t.members) > 0 {
		return t.members
	}
	seen := map[string]bool{}
	var out []store.Member
	add := func(id, nick string) {
		if id == "" || seen[id] {
			return
		}
		seen[id] = true
		if nick == "" {
			nick = t.names[id]
		}
		out = append(out, store.Member{UserID: id, Nickname: nick})
	}
	add(t.viewer, "")
	add(t.owner, "")
	add(t.peer, "")
	for _, i := range t.tl.HeldIndexes() {
		b := t.tl.Held(i)
		for _, s := range b.Slots {
			if !s.IsHole() {
				add(s.Slot.Msg.SendID, s.Slot.Msg.SenderNickname)
			}
		}
	}
	slices.SortFunc(out, func(a, b store.Member) int { return strings.Compare(a.UserID, b.UserID) })
	return out
}

// PickerChoices are the viewer choices; comparing the viewer with
// themselves shows nothing, so the compare picker leaves them out.
func (t *Model) PickerChoices(forCompare bool) []store.Member {
	ms := t.Viewers().viewerChoices()
	if !forCompare {
		return ms
	}
	return slices.DeleteFunc(slices.Clone(ms), func(mb store.Member) bool { return mb.UserID == t.viewer })
}

// PickerDefault is who the picker starts on: the viewer when switching;
// when comparing, whoever is most likely to see it differently: the last
// one compared with, the other user of a single chat, the sender of the
// selected message.
func (vs Viewers) PickerDefault(forCompare bool) string {
	t := vs.t
	if !forCompare {
		return t.viewer
	}
	candidates := []string{t.lastCompared, t.Viewers().peerOf(t.viewer)}
	if msg, ok := t.Message(t.tl.Cursor(), t.viewer); ok && !msg.Hole {
		candidates = append(candidates, msg.SendID)
	}
	for _, c := range candidates {
		if c != "" && c != t.viewer {
			return c
		}
	}
	return ""
}

// peerOf is the other user of a single chat, "" for a group.
func (vs Viewers) peerOf(viewer string) string {
	t := vs.t
	if t.conv.SessionType != bucket.SessionSingle {
		return ""
	}
	for _, id := range []string{t.peer, t.owner} {
		if id != "" && id != viewer {
			return id
		}
	}
	return ""
}

// title is the conversation's name as the viewer's list names it: a
// single chat is named after its other user, so it changes with the viewer.
func (vs Viewers) title() string {
	t := vs.t
	if peer := t.Viewers().peerOf(t.viewer); peer != "" && t.viewer != t.owner {
		return t.Viewers().memberName(peer)
	}
	return t.name
}

// choiceIDs are the viewer choices' IDs, in the picker's order: what V
// cycles through, once the members are read.
func (vs Viewers) choiceIDs() []string {
	t := vs.t
	var ids []string
	for _, mb := range t.Viewers().viewerChoices() {
		ids = append(ids, mb.UserID)
	}
	return ids
}

// Cycle is V: the next member in the picker's order, once the members
// are read; presses before that wait in the model with the keys after
// them. A switch made at once is returned, for the root to make in the
// key's own update; one made later comes as a SwitchViewerMsg.
func (vs Viewers) Cycle() (tea.Cmd, SwitchViewerMsg) {
	return vs.t.load.pressAsking(model.Key{Kind: model.CycleViewer})
}

// SwitchTo is a switch to id asked by the user (the picker, u): the model
// makes it once the keys before it are applied and id's window is read
// (ask, as Cycle's). False when the model views as id already (the root
// switches at once).
func (vs Viewers) SwitchTo(id string) (cmd tea.Cmd, ask SwitchViewerMsg, later bool) {
	t := vs.t
	if t.tl.Viewer() == id {
		return nil, SwitchViewerMsg{}, false
	}
	cmd, ask = t.load.pressAsking(model.Key{Kind: model.ViewAs, Viewer: id})
	return cmd, ask, true
}
