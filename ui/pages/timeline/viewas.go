package timeline

import (
	"slices"
	"strings"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
)

// viewerChoices are the conversation's members once read; until then (or
// without member records) the people already known: the viewer, the list's
// owner and peer, and the senders of the held messages.
func (t *Model) viewerChoices() []store.Member {
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
	for _, i := range t.heldIndexes() {
		b := t.buckets[i]
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
	ms := t.viewerChoices()
	if !forCompare {
		return ms
	}
	return slices.DeleteFunc(slices.Clone(ms), func(mb store.Member) bool { return mb.UserID == t.viewer })
}

// PickerDefault is who the picker starts on: the viewer when switching;
// when comparing, whoever is most likely to see it differently: the last
// one compared with, the other user of a single chat, the sender of the
// selected message.
func (t *Model) PickerDefault(forCompare bool) string {
	if !forCompare {
		return t.viewer
	}
	candidates := []string{t.lastCompared, t.peerOf(t.viewer)}
	if msg, ok := t.Message(t.cursor, t.viewer); ok && !msg.Hole {
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
func (t *Model) peerOf(viewer string) string {
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

// NextViewer is the member after the viewer among the choices, wrapping
// around; false when no one is known yet (said so).
func (t *Model) NextViewer() (string, bool) {
	ms := t.viewerChoices()
	if len(ms) == 0 {
		t.say("no members known yet", true)
		return "", false
	}
	next := ms[0].UserID
	for i, mb := range ms {
		if mb.UserID == t.viewer {
			next = ms[(i+1)%len(ms)].UserID
		}
	}
	return next, true
}
