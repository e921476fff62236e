package projection

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/chatlens/chatlens/store/bucket"
)

// The words that say why a viewer sees a row as they do. The rules live in
// View (projection) and in store (where a slot came from, the window's
// bounds); this file only names them, for the inspector, the compare view
// and `dump --explain` alike.

// Explain lists the rules that produced what m's viewer sees, in the order
// they apply; w is the viewer's window, loc the zone times are shown in.
func Explain(m Message, w bucket.Window, loc *time.Location) []string {
	who := orElse(m.Viewer, "this viewer")
	var out []string
	add := func(format string, args ...any) { out = append(out, SingleLine(fmt.Sprintf(format, args...))) }
	switch {
	case m.Seq < max(1, w.MinSeq):
		add("below %s's first visible seq %d (%s)", who, w.MinSeq, startWord(w))
	case m.Seq > w.MaxSeq:
		if w.CapField != "" {
			add("above %s's last visible seq %d (%s caps it)", who, w.MaxSeq, w.CapField)
		} else {
			add("above %s's last visible seq %d", who, w.MaxSeq)
		}
	}
	if m.Problem != "" {
		add("malformed: %s", m.Problem)
	}
	if m.Hole {
		add("hole: %s", holeKind(m))
	}
	if m.DeletedForViewer {
		add("in del_list of %s", who)
	}
	if m.Revoke != nil && !m.Hole {
		r := m.Revoke
		add("revoked by %s (%s) at %s", orElse(r.Nickname, r.UserID, "?"), roleWords(r, m), clockIn(r.Time, loc))
	}
	switch {
	case m.IsRead:
		add("read: is_read set by the filtered update")
	case m.SlotIsRead && !m.Hole:
		add("is_read is set but not reported: only single chats have a read flag")
	}
	if m.Cached {
		if m.Unstored {
			add("from Redis (MSG_CACHE), not yet in MongoDB")
		} else {
			add("from Redis (MSG_CACHE)")
		}
	}
	if len(out) == 0 {
		add("shown as stored")
	}
	return out
}

// startWord says which field starts a window after seq 1: the user's own
// seq_user.min_seq, raised by clearing their history and set when they join
// a group later, or the conversation's seq.min_seq.
func startWord(w bucket.Window) string {
	if w.UserMinSeq >= w.SeqMinSeq {
		return "cleared history, or joined later"
	}
	return "cleared for everyone, or expired"
}

// holeKind tells the stored shapes of a hole apart: OpenIM's physical
// delete writes {msg: null} and nothing else, an unused seq of a bucket is
// the full empty slot, and a bucket never inserted has no slots at all.
func holeKind(m Message) string {
	switch {
	case m.BucketMissing:
		return "bucket missing"
	case m.SlotAbsent:
		return "slot absent"
	case m.HasMsg:
		return "message with send_time 0"
	case m.DelList == nil && m.Revoke == nil:
		return "physically deleted"
	default:
		return "never written"
	}
}

// roleWords names the revoker's role: in a group its member role, in a
// single chat the app_manger_level OpenIM records instead.
func roleWords(r *bucket.Revoke, m Message) string {
	role := strconv.Itoa(int(r.Role))
	if m.SessionType == bucket.SessionSingle {
		if r.UserID == m.SendID {
			return "the sender, app_manger_level " + role
		}
		return "app_manger_level " + role
	}
	words := "role " + role
	if r.Role == bucket.RoleOwner || r.Role == bucket.RoleAdmin || r.Role == bucket.RoleMember {
		words = bucket.RoleName(r.Role) + ", " + words
	}
	if r.UserID == m.SendID {
		words = "the sender, " + words
	}
	return words
}

func clockIn(ms int64, loc *time.Location) string {
	if ms == 0 {
		return "an unknown time"
	}
	if loc == nil {
		loc = time.UTC
	}
	return time.UnixMilli(ms).In(loc).Format("2006-01-02 15:04:05 MST")
}

// Diff reasons: the short word of the compare view's reason column, A and B
// being its two viewers. Each fits ReasonWidth cells.
const (
	ReasonOutsideA  = "outside-A-win"
	ReasonOutsideB  = "outside-B-win"
	ReasonDeletedA  = "deleted-for-A"
	ReasonDeletedB  = "deleted-for-B"
	ReasonRevoked   = "revoked"
	ReasonRead      = "read"
	ReasonMalformed = "malformed"
	ReasonQuote     = "quote"
	ReasonOther     = "differs"
	ReasonWidth     = 13
)

// DiffReason is the first rule that sets a and b apart (outsideA, outsideB:
// the seq is beyond that viewer's window), "" when they see it alike.
func DiffReason(a, b Message, outsideA, outsideB bool) string {
	switch {
	case outsideA == outsideB && Same(a, b):
		return ""
	case outsideB && !outsideA:
		return ReasonOutsideB
	case outsideA && !outsideB:
		return ReasonOutsideA
	case a.DeletedForViewer && !b.DeletedForViewer:
		return ReasonDeletedA
	case b.DeletedForViewer && !a.DeletedForViewer:
		return ReasonDeletedB
	case a.Revoked != b.Revoked:
		return ReasonRevoked
	case a.IsRead != b.IsRead:
		return ReasonRead
	case a.Problem != b.Problem:
		return ReasonMalformed
	case a.ContentType == Quote || b.ContentType == Quote:
		return ReasonQuote
	}
	return ReasonOther
}

// ReasonText is a diff reason in words for the inspector, with the viewers
// named.
func ReasonText(reason, a, b string) string {
	switch reason {
	case ReasonOutsideA:
		return "outside " + a + "'s window"
	case ReasonOutsideB:
		return "outside " + b + "'s window"
	case ReasonDeletedA:
		return "deleted for " + a + " only"
	case ReasonDeletedB:
		return "deleted for " + b + " only"
	case ReasonRevoked:
		return "revoked for one of them only"
	case ReasonRead:
		return "read for one of them only"
	case ReasonMalformed:
		return "malformed differently"
	case ReasonQuote:
		return "the quoted message differs"
	case "":
		return "both see it alike"
	}
	return "they see it differently"
}

// Explained is a message with the rules that made it (`dump --explain`).
type Explained struct {
	Message
	Why  []string
	Life []LifeEvent // the slot's life; nil: no "life" field
}

// MarshalJSON is the message's own JSON with one more field, "explain",
// and with Life another, "life".
func (x Explained) MarshalJSON() ([]byte, error) {
	b, err := x.Message.MarshalJSON()
	if err != nil {
		return nil, err
	}
	why, err := json.Marshal(x.Why)
	if err != nil {
		return nil, err
	}
	out := append(append(b[:len(b)-1:len(b)-1], `,"explain":`...), why...)
	if x.Life != nil {
		life, err := json.Marshal(x.Life)
		if err != nil {
			return nil, err
		}
		out = append(append(out, `,"life":`...), life...)
	}
	return append(out, '}'), nil
}

// ExplainedLine is the message's dump line with the rules as a trailing note.
func ExplainedLine(m Message, why []string, loc *time.Location) string {
	return Line(m, loc) + "  ← " + SingleLine(strings.Join(why, "; "))
}
