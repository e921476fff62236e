package store

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sort"
	"sync"

	"github.com/chatlens/chatlens/store/bucket"
)

// Which notification told devices of a slot's revoke, delete for someone
// or read mark, and whether a viewer's pull holds it: the inspector's
// "told by n_g1 seq 28, pulled by u3: yes". The server sends them from a
// queue after the write (a storage-level write sends none), into the
// conversation noticeConversation names. Each notification conversation is
// read newest first, at most ToldScanLimit seqs back and no further than
// the message's own send time (nothing older can be about it), and what
// was read is kept for Told and History alike: a second look, even one
// asked at the same moment, reads only what arrived since.

// ToldScanLimit bounds how far back a notification conversation is read.
const ToldScanLimit = 1000

// Told is what was found of one write to a slot.
type Told struct {
	What string // "revoke", "delete for <user>", "read"
	Cid  string // the notification conversation looked in
	Seq  int64  // the notification's seq there; 0 when none was found
	Type int32  // 2101, 2102 or 2200
	// Pulled: Cid is one of the viewer's notification conversations and
	// Seq is inside their window of it.
	Pulled bool
	// From and To are the seqs of Cid read for it (none: From > To).
	From, To int64
}

// Words is the inspector's line for t as viewer sees it.
func (t Told) Words(viewer string) string {
	if t.Seq > 0 {
		yes := map[bool]string{true: "yes", false: "no"}[t.Pulled]
		return fmt.Sprintf("%s: told by %s seq %d, pulled by %s: %s", t.What, t.Cid, t.Seq, viewer, yes)
	}
	read := fmt.Sprintf("seq %d-%d read", t.From, t.To)
	if t.From > t.To {
		read = "it holds none"
	}
	return fmt.Sprintf("%s: no notification found in %s (%s)", t.What, t.Cid, read)
}

// ToldNoneWhy says why a write may have no notification.
const ToldNoneWhy = "a storage-level write sends none, nor a delete for me without IsSyncSelf (delete.go)"

// notice is one revoke, delete, read or clear notification, its tips parsed.
type notice struct {
	seq      int64
	typ      int32
	sendTime int64 // msg.send_time (unix ms)
	tips     noticeTips
}

// noticeTips are the fields of sdkws.RevokeMsgTips, DeleteMsgsTips,
// and MarkAsReadTips the match needs.
type noticeTips struct {
	ConversationID   string  `json:"conversationID"`
	RevokerUserID    string  `json:"revokerUserID"`
	IsAdminRevoke    bool    `json:"isAdminRevoke"`
	Seq              int64   `json:"seq"`
	Seqs             []int64 `json:"seqs"`
	UserID           string  `json:"userID"`
	MarkAsReadUserID string  `json:"markAsReadUserID"`
	HasReadSeq       int64   `json:"hasReadSeq"`
}

// noticeLog is what was read of one notification conversation: seqs
// lo..hi, its notices newest first, and the send time of the oldest
// message read (math.MaxInt64 before any).
type noticeLog struct {
	lo, hi  int64
	oldest  int64
	notices []notice
}

// toldCache keeps the noticeLog of each notification conversation read;
// one reader at a time reads a conversation, so two looks asked at once
// (the inspector's "told by" and its life) read each bucket once.
type toldCache struct {
	mu      sync.Mutex
	logs    map[string]noticeLog
	reading map[string]*sync.Mutex
}

// hold waits until nobody else reads cid and returns its release.
func (c *toldCache) hold(cid string) func() {
	c.mu.Lock()
	if c.reading == nil {
		c.reading = map[string]*sync.Mutex{}
	}
	m := c.reading[cid]
	if m == nil {
		m = &sync.Mutex{}
		c.reading[cid] = m
	}
	c.mu.Unlock()
	m.Lock()
	return m.Unlock
}

func (c *toldCache) get(cid string) (noticeLog, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	l, ok := c.logs[cid]
	return l, ok
}

func (c *toldCache) put(cid string, l noticeLog) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.logs == nil {
		c.logs = map[string]noticeLog{}
	}
	c.logs[cid] = l
}

// toldWant is one write to look for: its notification's type, where it
// goes, and who did it ("" for a group's read: any member but the sender);
// for a revoke, when (the record's time: its notification is sent after).
type toldWant struct {
	what, ncid, by string
	typ            int32
	at             int64
}

// Told finds the notifications of the writes slot st of cid shows: a
// revoke, a delete for each user in its del_list, a read mark; none for a
// slot with none of them, or in a notification conversation itself.
func (s *lookupReads) Told(ctx context.Context, viewer, cid string, st bucket.StoredSlot) ([]Told, error) {
	wants := toldWants(cid, st)
	if len(wants) == 0 {
		return nil, nil
	}
	convs, err := s.backend.Conversations(ctx, viewer)
	if err != nil {
		return nil, err
	}
	var chats []string
	owned := map[string]bucket.Conversation{}
	for _, c := range convs {
		chats, owned[c.ConversationID] = append(chats, c.ConversationID), c
	}
	var ncids []string
	for _, w := range wants {
		if !slices.Contains(ncids, w.ncid) {
			ncids = append(ncids, w.ncid)
		}
	}
	ws, err := s.windows(ctx, viewer, ncids, owned, nil, true)
	if err != nil {
		return nil, err
	}
	mine := notificationIDs(viewer, chats)
	var sender string
	var sent int64 // nothing sent before the message is about it
	if st.Slot.Msg != nil {
		sender, sent = st.Slot.Msg.SendID, st.Slot.Msg.SendTime
	}
	out := make([]Told, 0, len(wants))
	for _, ncid := range ncids {
		var here []toldWant
		for _, w := range wants {
			if w.ncid == ncid {
				here = append(here, w)
			}
		}
		match := func(w toldWant, n notice) bool { return n.matches(w, cid, st.Seq, sender) }
		end := ws[ncid].EndSeq
		log, err := s.noticesIn(ctx, ncid, end, max(1, end-ToldScanLimit+1), func(l noticeLog) bool {
			if l.oldest < sent {
				return true
			}
			for _, w := range here {
				if !slices.ContainsFunc(l.notices, func(n notice) bool { return match(w, n) }) {
					return false
				}
			}
			return true
		})
		if err != nil {
			return nil, err
		}
		for _, w := range here {
			t := Told{What: w.what, Cid: ncid, Type: w.typ, From: log.lo, To: log.hi}
			if i := slices.IndexFunc(log.notices, func(n notice) bool { return match(w, n) }); i >= 0 {
				t.Seq = log.notices[i].seq
				win := ws[ncid]
				t.Pulled = NoticePull{Theirs: slices.Contains(mine, ncid), MinSeq: win.MinSeq, MaxSeq: win.MaxSeq}.Pulled(t.Seq)
			}
			out = append(out, t)
		}
	}
	order := wantOrder(wants) // revoke, deletes, read: as the slot holds them
	sort.SliceStable(out, func(i, j int) bool { return slices.Index(order, out[i].What) < slices.Index(order, out[j].What) })
	return out, nil
}

func wantOrder(wants []toldWant) []string {
	out := make([]string, len(wants))
	for i, w := range wants {
		out[i] = w.what
	}
	return out
}

// toldWants are the writes st shows, each with the conversation its
// notification goes to (noticeConversation, as after a write through the
// API).
func toldWants(cid string, st bucket.StoredSlot) []toldWant {
	if st.Slot == nil || bucket.IsNotificationConversation(cid) {
		return nil
	}
	slots := map[int64]bucket.StoredSlot{st.Seq: st}
	want := func(what, action, by string) toldWant {
		return toldWant{what: what, by: by, typ: noticeType(action),
			ncid: noticeConversation(WriteRequest{Action: action, Cid: cid, By: by}, slots)}
	}
	var out []toldWant
	if r := st.Slot.Revoke; r != nil {
		w := want("revoke", ActionRevoke, r.UserID)
		w.at = r.Time
		out = append(out, w)
	}
	for _, u := range st.Slot.DelList {
		out = append(out, want("delete for "+u, ActionDelete, u))
	}
	if st.Slot.IsRead {
		reader := ""
		if kind, a, b := SplitConversationID(cid); kind == bucket.SessionSingle && st.Slot.Msg != nil {
			// The reader of a single chat's message is its other user.
			reader = map[bool]string{true: b, false: a}[st.Slot.Msg.SendID == a]
		}
		w := want("read", ActionRead, reader)
		if reader == "" && GroupOf(cid) == "" {
			w.ncid = ""
		}
		out = append(out, w)
	}
	return slices.DeleteFunc(out, func(w toldWant) bool { return w.ncid == "" })
}

// matches reports n as the notification of w on seq of cid, by its own
// record (sender: the message's sender, who never reads their own): a
// revoke's 2101 names that revoker (or is an app admin's) and that seq and was sent no earlier
// than the revoke record's time; a delete's 2102 and a read mark's 2200
// (whose slots carry no time) name the user and list the seq.
func (n notice) matches(w toldWant, cid string, seq int64, sender string) bool {
	if n.typ != w.typ || n.tips.ConversationID != cid {
		return false
	}
	switch w.typ {
	case bucket.ContentRevoked:
		// An app admin's revoke names the admin in its tips and, in the
		// record, the user the request named (revoke.go RevokeMsg).
		revoker := n.tips.RevokerUserID == w.by || n.tips.IsAdminRevoke
		return n.tips.Seq == seq && revoker && n.sendTime >= w.at
	case bucket.ContentDeleteNotice:
		return n.tips.UserID == w.by && slices.Contains(n.tips.Seqs, seq)
	}
	reader := n.tips.MarkAsReadUserID
	return slices.Contains(n.tips.Seqs, seq) && (reader == w.by || w.by == "" && reader != sender)
}

// noticesIn is ncid's notices from end back to floor, newest first, read
// from what is kept and the store: what arrived since first, then older
// buckets, a bucket a round trip, until done says enough; with done nil,
// the rest down to floor in one read.
func (s *lookupReads) noticesIn(ctx context.Context, ncid string, end, floor int64, done func(noticeLog) bool) (noticeLog, error) {
	defer s.told.hold(ncid)()
	l, ok := s.told.get(ncid)
	if !ok || l.hi < floor-1 || l.hi > end {
		l = noticeLog{lo: end + 1, hi: end, oldest: math.MaxInt64} // nothing kept is within reach
	}
	read := func(from, to int64) ([]notice, error) {
		slots, err := s.Range(ctx, ncid, from, to, end)
		if err != nil {
			return nil, err
		}
		var out []notice
		for seq := to; seq >= from; seq-- {
			if st := slots[seq]; !st.IsHole() && st.Slot.Msg != nil {
				l.oldest = min(l.oldest, st.Slot.Msg.SendTime)
			}
			if n, ok := parseNotice(slots[seq]); ok {
				out = append(out, n)
			}
		}
		return out, nil
	}
	for top := end; top > l.hi; { // newer than what is kept (down to l.hi+1), a bucket a round trip
		from := max(l.hi+1, bucket.FirstSeq(bucket.BucketIndex(top)))
		ns, err := read(from, top)
		if err != nil {
			return l, err
		}
		l.notices = append(l.notices[:0:0], append(ns, l.notices...)...)
		top = from - 1
	}
	l.hi = end
	for (done == nil || !done(l)) && l.lo > floor {
		to := l.lo - 1
		from := max(floor, bucket.FirstSeq(bucket.BucketIndex(to)))
		if done == nil {
			from = floor
		}
		ns, err := read(from, to)
		if err != nil {
			return l, err
		}
		l.notices = append(l.notices, ns...)
		l.lo = from
	}
	s.told.put(ncid, l)
	return l, nil
}

// parseNotice reads a slot as a revoke, delete or read notification.
func parseNotice(st bucket.StoredSlot) (notice, bool) {
	if st.IsHole() {
		return notice{}, false
	}
	m := st.Slot.Msg
	switch m.ContentType {
	case bucket.ContentRevoked, bucket.ContentDeleteNotice, bucket.ContentReadReceipt:
	default:
		return notice{}, false
	}
	var elem struct {
		Detail string `json:"detail"`
	}
	n := notice{seq: st.Seq, typ: m.ContentType, sendTime: m.SendTime}
	if json.Unmarshal([]byte(m.Content), &elem) != nil || json.Unmarshal([]byte(elem.Detail), &n.tips) != nil {
		return notice{}, false
	}
	return n, true
}
