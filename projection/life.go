package projection

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/chatlens/chatlens/store/bucket"
)

// A message's life: the changes its slot shows (and the viewer's window
// around it), each dated by the record that gives its time, from the same
// evidence --at reads back (bucket.History). A change no record dates is
// listed last, "time unknown": never guessed.

// LifeEvent is one change in a slot's life.
type LifeEvent struct {
	At     int64  // unix ms; 0: no record dates it
	What   string // "sent", "read", "revoked", "deleted for bob", "physically deleted", "got the conversation"
	Who    string // who made it ("" none known)
	Source string // the record that dates it, or why none does
}

// Why none dates a change.
const (
	lifeNoDelete = "no 2102 (deleted without IsSyncSelf, or by another tool)"
	lifeNoRevoke = "the revoke record has none"
	lifeErased   = "no 2102 (an admin's DeleteMsgPhysicalBySeq sends none, nor does another tool), and the content is gone"
	lifeNoJoin   = "no create_time stored"
	lifeNoRead   = "no 2200 (mark_conversation_as_read, set_conversation_has_read_seq, or another tool)"
)

// Life is the life of slot st as viewer sees it, given the viewer's
// History of its conversation: sent, each read mark that covers it, its
// revoke, each delete for someone, a physical delete, and when the viewer
// got the conversation (a cleared history has no time stored: OpenIM
// stores no notification of a clear), in time order, the undated last.
func Life(st bucket.StoredSlot, h bucket.History) []LifeEvent {
	var out []LifeEvent
	if st.Erased {
		ev := LifeEvent{What: "physically deleted", Source: lifeErased}
		if e, ok := (AsOf{H: h}).erase(st.Seq); ok {
			ev = LifeEvent{At: e.At, What: ev.What, Who: e.User, Source: e.Source + "; the content is gone"}
		}
		out = append(out, ev)
	}
	sender := ""
	if s := st.Slot; s != nil && s.Msg != nil {
		sender = s.Msg.SendID
		out = append(out, LifeEvent{At: max(0, s.Msg.SendTime), What: "sent", Who: sender, Source: "send_time"})
	}
	switch {
	case !h.Owned:
	case h.Created > 0:
		out = append(out, LifeEvent{At: h.Created, What: "got the conversation", Who: h.Viewer, Source: h.CreatedFrom})
	case h.Created < 0:
		out = append(out, LifeEvent{What: "got the conversation", Who: h.Viewer, Source: lifeNoJoin})
	}
	covers := func(e bucket.Evidence) bool { return slices.Contains(e.Seqs, st.Seq) }
	for _, e := range h.Evidence {
		if e.Kind == bucket.EvidenceRead && e.User != sender && (covers(e) || e.ReadSeq >= st.Seq) {
			out = append(out, LifeEvent{At: e.At, What: "read", Who: e.User, Source: e.Source})
		}
	}
	if s := st.Slot; s != nil {
		if s.IsRead && !slices.ContainsFunc(out, func(e LifeEvent) bool { return e.What == "read" }) {
			out = append(out, LifeEvent{What: "read", Source: "is_read set; " + lifeNoRead})
		}
		if r := s.Revoke; r != nil {
			ev := LifeEvent{At: max(0, r.Time), What: "revoked", Who: fmt.Sprintf("%s (%s)", r.UserID, bucket.RoleName(r.Role)), Source: "the slot's revoke record"}
			if ev.At == 0 {
				ev.Source = lifeNoRevoke
			}
			out = append(out, ev)
		}
		for _, u := range s.DelList {
			dated := false
			for _, e := range h.Evidence {
				if e.Kind == bucket.EvidenceDelete && e.User == u && covers(e) {
					out, dated = append(out, LifeEvent{At: e.At, What: "deleted for " + u, Who: u, Source: e.Source}), true
				}
			}
			if !dated {
				out = append(out, LifeEvent{What: "deleted for " + u, Who: u, Source: lifeNoDelete})
			}
		}
	}
	slices.SortStableFunc(out, func(a, b LifeEvent) int {
		if (a.At == 0) != (b.At == 0) {
			return map[bool]int{true: 1, false: -1}[a.At == 0]
		}
		return cmp.Compare(a.At, b.At)
	})
	return out
}

// Words is e as one line, its time in loc.
func (e LifeEvent) Words(loc *time.Location) string {
	at := "time unknown           "
	if e.At > 0 {
		at = time.UnixMilli(e.At).In(loc).Format("2006-01-02 15:04:05.000")
	}
	what := e.What
	if e.Who != "" && e.What != "deleted for "+e.Who {
		what += " by " + e.Who
	}
	return SingleLine(fmt.Sprintf("%s  %s  (%s)", at, what, e.Source))
}

// MarshalJSON: {"at": RFC 3339 in UTC or null, "what", "who", "source"}.
func (e LifeEvent) MarshalJSON() ([]byte, error) {
	var at *string
	if e.At > 0 {
		s := millis(e.At)
		at = &s
	}
	return json.Marshal(struct {
		At     *string `json:"at"`
		What   string  `json:"what"`
		Who    string  `json:"who"`
		Source string  `json:"source"`
	}{at, e.What, e.Who, e.Source})
}
