package projection

import (
	"strconv"
	"strings"

	"github.com/chatlens/chatlens/store/bucket"
)

// Reader is a member of a conversation and their read seq (store.Readers):
// they have read seq S when ReadSeq >= S. Their window starts at MinSeq
// (their seq_user.min_seq: a history cleared, a member added later): a seq
// before it is none of theirs, neither read nor unread.
type Reader struct {
	UserID, Name string
	ReadSeq      int64
	MinSeq       int64
}

// holds says seq is in r's window.
func (r Reader) holds(seq int64) bool { return seq >= r.MinSeq }

// label is how a line names the reader: sanitised once, in NewReadReceipts.
func (r Reader) label() string { return orElse(r.Name, r.UserID) }

// ReadReceipts are a conversation's members with their read seqs, their
// names sanitised once: a dump asks who has read each of 50,000 rows.
type ReadReceipts struct{ members []Reader }

// NewReadReceipts takes the members' read seqs (store.Readers).
func NewReadReceipts(members []Reader) ReadReceipts {
	out := make([]Reader, len(members))
	for i, r := range members {
		out[i] = Reader{UserID: r.UserID, Name: SingleLine(r.label()), ReadSeq: r.ReadSeq, MinSeq: r.MinSeq}
	}
	return ReadReceipts{members: out}
}

// maxReaderNames is how many names a read-by line lists; a large group's
// line ends "and N more" instead of running on.
const maxReaderNames = 20

// ReadBy splits the members into those who have read seq, those who have
// not, and those whose window does not hold it (outside: they were never
// pulled it). The sender is none of them: OpenIM's clients never mark their own
// messages read (openim-sdk-core internal/conversation_msg/read_drawing.go,
// getAsReadMsgMapAndList skips msg.SendID == loginUserID), and a group's
// read list was filled only from other members' receipts.
func ReadBy(seq int64, sender string, members []Reader) (read, unread, outside []Reader) {
	for _, r := range members {
		switch {
		case r.UserID == sender:
		case !r.holds(seq):
			outside = append(outside, r)
		case r.ReadSeq >= seq:
			read = append(read, r)
		default:
			unread = append(unread, r)
		}
	}
	return read, unread, outside
}

// Words says who has read m: in a group "read by 2 of 4: Bob, Carol"
// (of the members other than the sender whose window holds it), then who
// has not, then the members whose window starts after it, apart, with
// where it starts; in a single chat whether the other side has. Nothing
// for a hole or with no members.
func (rr ReadReceipts) Words(m Message) []string {
	members := rr.members
	if m.Hole || len(members) == 0 {
		return nil
	}
	read, unread, outside := ReadBy(m.Seq, m.SendID, members)
	var apart []string
	if len(outside) > 0 {
		apart = []string{"outside the window of " + strconv.Itoa(len(outside)) + outsideList(outside)}
	}
	if len(read)+len(unread) == 0 {
		return apart
	}
	if m.SessionType == bucket.SessionSingle && len(read)+len(unread) == 1 {
		if len(read) == 1 {
			return []string{"read by " + read[0].label() + " (read seq " + strconv.FormatInt(read[0].ReadSeq, 10) + ")"}
		}
		return []string{"not read by " + unread[0].label() + " (read seq " + strconv.FormatInt(unread[0].ReadSeq, 10) + ")"}
	}
	total := strconv.Itoa(len(read) + len(unread))
	out := []string{"read by " + strconv.Itoa(len(read)) + " of " + total + nameList(read)}
	if len(unread) > 0 {
		out = append(out, "not read by "+strconv.Itoa(len(unread))+" of "+total+nameList(unread))
	}
	return append(out, apart...)
}

// outsideList is ": a (starts at seq 60), b (...)", as nameList.
func outsideList(rs []Reader) string {
	named := make([]Reader, len(rs))
	for i, r := range rs {
		named[i] = Reader{Name: r.label() + " (starts at seq " + strconv.FormatInt(r.MinSeq, 10) + ")"}
	}
	return nameList(named)
}

// nameList is ": a, b, c" (at most maxReaderNames, then "and N more").
func nameList(rs []Reader) string {
	if len(rs) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(": ")
	for i, r := range rs[:min(len(rs), maxReaderNames)] {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(r.label())
	}
	out := b.String()
	if len(rs) > maxReaderNames {
		out += " and " + strconv.Itoa(len(rs)-maxReaderNames) + " more"
	}
	return out
}

// Name is the nickname of member uid, "" when unknown.
func (rr ReadReceipts) Name(uid string) string {
	for _, r := range rr.members {
		if r.UserID == uid && r.Name != uid {
			return r.Name
		}
	}
	return ""
}
