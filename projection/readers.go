package projection

import (
	"strconv"
	"strings"

	"github.com/chatlens/chatlens/store/bucket"
)

// Reader is a member of a conversation and their read seq (store.Readers):
// they have read seq S when ReadSeq >= S.
type Reader struct {
	UserID, Name string
	ReadSeq      int64
}

func (r Reader) label() string { return orElse(r.Name, r.UserID) }

// maxReaderNames is how many names a read-by line lists; a large group's
// line ends "and N more" instead of running on.
const maxReaderNames = 20

// ReadBy splits the members into those who have read seq and those who
// have not. The sender is neither: OpenIM's clients never mark their own
// messages read (openim-sdk-core internal/conversation_msg/read_drawing.go,
// getAsReadMsgMapAndList skips msg.SendID == loginUserID), and a group's
// read list was filled only from other members' receipts.
func ReadBy(seq int64, sender string, members []Reader) (read, unread []Reader) {
	for _, r := range members {
		switch {
		case r.UserID == sender:
		case r.ReadSeq >= seq:
			read = append(read, r)
		default:
			unread = append(unread, r)
		}
	}
	return read, unread
}

// ReadByWords says who has read m: in a group "read by 2 of 4: Bob, Carol"
// (of the members other than the sender), then who has not; in a single
// chat whether the other side has. Nothing for a hole or with no members.
func ReadByWords(m Message, members []Reader) []string {
	if m.Hole || len(members) == 0 {
		return nil
	}
	read, unread := ReadBy(m.Seq, m.SendID, members)
	if m.SessionType == bucket.SessionSingle && len(read)+len(unread) == 1 {
		if len(read) == 1 {
			return []string{SingleLine("read by " + read[0].label() + " (read seq " + strconv.FormatInt(read[0].ReadSeq, 10) + ")")}
		}
		return []string{SingleLine("not read by " + unread[0].label() + " (read seq " + strconv.FormatInt(unread[0].ReadSeq, 10) + ")")}
	}
	total := strconv.Itoa(len(read) + len(unread))
	out := []string{"read by " + strconv.Itoa(len(read)) + " of " + total + nameList(read)}
	if len(unread) > 0 {
		out = append(out, "not read by "+strconv.Itoa(len(unread))+" of "+total+nameList(unread))
	}
	return out
}

// nameList is ": a, b, c" (at most maxReaderNames, then "and N more").
func nameList(rs []Reader) string {
	if len(rs) == 0 {
		return ""
	}
	names := make([]string, 0, min(len(rs), maxReaderNames))
	for _, r := range rs[:min(len(rs), maxReaderNames)] {
		names = append(names, SingleLine(r.label()))
	}
	out := ": " + strings.Join(names, ", ")
	if len(rs) > maxReaderNames {
		out += " and " + strconv.Itoa(len(rs)-maxReaderNames) + " more"
	}
	return out
}
