package store

import (
	"context"
	"errors"
	"maps"
	"slices"
	"sort"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// Window is what one user may see of one conversation.
type Window struct {
	Cid     string
	MinSeq  int64 // first visible seq (at least 1)
	MaxSeq  int64 // last visible seq; 0 when the conversation is empty
	ReadSeq int64 // the user's read position
	// Last is the newest bucket when reading the window required it (no
	// cache knew the current max seq); nil otherwise. Reuse it, do not re-read.
	Last *Bucket
	// EndSeq is where the conversation's messages end for everyone, before
	// this user's conversation.max_seq cap: what WindowAt needs to compute
	// another user's window without reading a bucket.
	EndSeq int64
}

// Unread is max seq minus read seq, never below 0.
func (w Window) Unread() int64 { return max(0, w.MaxSeq-w.ReadSeq) }

// Windows computes uid's window in each conversation of cids. Conversation
// records are read from the backend unless given in convs (keyed by cid).
// Cost: one round trip per collection read (seq, seq_user, conversation) and
// one find for the newest buckets when the cache does not know max seqs.
func (s *Store) Windows(ctx context.Context, uid string, cids []string, convs map[string]Conversation) (map[string]*Window, error) {
	out := make(map[string]*Window, len(cids))
	if len(cids) == 0 {
		return out, nil
	}
	var cacheMax, cacheRead map[string]int64
	if s.cache != nil {
		var err error
		cacheMax, err = s.cache.MaxSeqs(ctx, cids)
		s.cacheResult(err)
		if err == nil {
			cacheRead, err = s.cache.ReadSeqs(ctx, uid, cids)
			s.cacheResult(err)
		}
	}
	s.trip()
	seqs, err := s.backend.SeqRecords(ctx, cids)
	if err != nil {
		return nil, err
	}
	s.trip()
	users, err := s.backend.SeqUsers(ctx, uid, cids)
	if err != nil {
		return nil, err
	}
	if convs == nil {
		convs = map[string]Conversation{}
		s.trip()
		list, err := s.backend.Conversations(ctx, uid)
		if err != nil {
			return nil, err
		}
		for _, c := range list {
			convs[c.ConversationID] = c
		}
	}
	seqByCid := map[string]SeqRecord{}
	for _, r := range seqs {
		seqByCid[r.ConversationID] = r
	}
	userByCid := map[string]SeqUser{}
	for _, u := range users {
		userByCid[u.ConversationID] = u
	}
	var needLast []string
	for _, cid := range cids {
		conv, su := convs[cid], userByCid[cid]
		w := &Window{Cid: cid, MinSeq: max(1, conv.MinSeq, su.MinSeq), ReadSeq: su.ReadSeq}
		if r, ok := cacheRead[cid]; ok && r > w.ReadSeq {
			w.ReadSeq = r
		}
		if m, ok := cacheMax[cid]; ok {
			w.MaxSeq = m
		} else {
			// seq.max_seq is a reserved upper bound: the newest bucket says
			// where the messages really end.
			w.MaxSeq = seqByCid[cid].MaxSeq
			needLast = append(needLast, cid)
		}
		out[cid] = w
	}
	if err := s.trimToLastFilled(ctx, out, needLast); err != nil {
		return nil, err
	}
	for _, cid := range cids {
		out[cid].capTo(convs[cid])
	}
	return out, nil
}

// capTo ends the window at the owner's conversation.max_seq, if lower.
func (w *Window) capTo(conv Conversation) {
	w.EndSeq = w.MaxSeq
	if conv.MaxSeq > 0 && conv.MaxSeq < w.MaxSeq {
		w.MaxSeq = conv.MaxSeq
	}
}

// WindowAt is uid's window of cid when where the conversation ends is
// already known (another user's Window.EndSeq): two round trips (seq_user,
// conversation) and no bucket read, so switching viewer re-reads nothing.
func (s *Store) WindowAt(ctx context.Context, uid, cid string, endSeq int64) (*Window, error) {
	var cacheRead map[string]int64
	if s.cache != nil {
		var err error
		cacheRead, err = s.cache.ReadSeqs(ctx, uid, []string{cid})
		s.cacheResult(err)
	}
	s.trip()
	users, err := s.backend.SeqUsers(ctx, uid, []string{cid})
	if err != nil {
		return nil, err
	}
	s.trip()
	convs, err := s.backend.Conversations(ctx, uid)
	if err != nil {
		return nil, err
	}
	var conv Conversation
	for _, c := range convs {
		if c.ConversationID == cid {
			conv = c
		}
	}
	var su SeqUser
	for _, u := range users {
		if u.ConversationID == cid {
			su = u
		}
	}
	w := &Window{Cid: cid, MinSeq: max(1, conv.MinSeq, su.MinSeq), ReadSeq: su.ReadSeq, MaxSeq: endSeq}
	if r, ok := cacheRead[cid]; ok && r > w.ReadSeq {
		w.ReadSeq = r
	}
	w.capTo(conv)
	return w, nil
}

// NewestBuckets reads the bucket holding each window's MaxSeq, for every
// conversation at once: one find however many windows. As in Buckets, the
// cache (one round trip per conversation) goes first, its slots replace the
// stored ones, and a bucket it holds entirely is not read from the backend.
// Empty windows are skipped; a bucket neither stored nor cached is left out.
func (s *Store) NewestBuckets(ctx context.Context, windows []Window) (map[string]*Bucket, error) {
	ends := map[string]int64{} // cid -> max seq
	need := map[string]int64{} // the ones the cache did not hold entirely
	cached := map[string]map[int64]*Slot{}
	for _, w := range windows {
		if w.MaxSeq <= 0 {
			continue
		}
		hits, complete := s.cachedUpTo(ctx, w.Cid, w.MaxSeq)
		ends[w.Cid], cached[w.Cid] = w.MaxSeq, hits
		if !complete {
			need[w.Cid] = w.MaxSeq
		}
	}
	found, err := s.bucketsAt(ctx, need)
	if err != nil {
		return nil, err
	}
	for cid, hits := range cached {
		if len(hits) == 0 {
			continue
		}
		b := found[cid]
		if b == nil {
			b = MissingBucket(cid, BucketIndex(ends[cid]))
		}
		for j := range b.Slots {
			if slot := hits[b.Slots[j].Seq]; slot != nil {
				b.Slots[j] = StoredSlot{Seq: b.Slots[j].Seq, Slot: slot, Cached: true}
			}
		}
		found[cid] = b
	}
	return found, nil
}

// cachedUpTo asks the cache for the seqs of the bucket holding maxSeq, up to
// maxSeq; complete is true when it had them all.
func (s *Store) cachedUpTo(ctx context.Context, cid string, maxSeq int64) (map[int64]*Slot, bool) {
	if s.cache == nil {
		return nil, false
	}
	var seqs []int64
	for seq := FirstSeq(BucketIndex(maxSeq)); seq <= maxSeq; seq++ {
		seqs = append(seqs, seq)
	}
	hits, err := s.cache.Slots(ctx, cid, seqs)
	s.cacheResult(err)
	if err != nil {
		return nil, false
	}
	s.cacheHits.Add(int64(len(hits)))
	s.cacheMisses.Add(int64(len(seqs) - len(hits)))
	return hits, len(hits) == len(seqs)
}

// bucketsAt reads, in one find, the bucket of cid holding seq for each
// cid -> seq of ends, keyed by cid.
func (s *Store) bucketsAt(ctx context.Context, ends map[string]int64) (map[string]*Bucket, error) {
	found := map[string]*Bucket{}
	if len(ends) == 0 {
		return found, nil
	}
	want := make(map[string]string, len(ends)) // doc_id -> cid
	ids := make([]string, 0, len(ends))
	for cid, seq := range ends {
		id := DocIDForSeq(cid, seq)
		want[id] = cid
		ids = append(ids, id)
	}
	sort.Strings(ids) // the same query for the same conversations
	s.trip()
	raws, err := s.backend.FindBuckets(ctx, ids)
	if err != nil {
		return nil, err
	}
	for _, raw := range raws {
		b := DecodeBucket(raw)
		if cid, ok := want[b.DocID]; ok {
			found[cid] = b
		}
	}
	return found, nil
}

// trimToLastFilled lowers MaxSeq of the given windows to the last seq that
// holds a message, reading each conversation's newest bucket in one find.
// A conversation without a seq document gets its newest bucket from BucketIDs.
func (s *Store) trimToLastFilled(ctx context.Context, ws map[string]*Window, cids []string) error {
	if len(cids) == 0 {
		return nil
	}
	for _, cid := range cids {
		if ws[cid].MaxSeq == 0 {
			idx, err := s.lastBucketIndex(ctx, cid, -1)
			if err != nil {
				return err
			}
			if idx >= 0 {
				ws[cid].MaxSeq = LastSeq(idx)
			}
		}
	}
	ends := map[string]int64{}
	for _, cid := range cids {
		if ws[cid].MaxSeq > 0 {
			ends[cid] = ws[cid].MaxSeq
		}
	}
	found, err := s.newestStoredBuckets(ctx, ends)
	if err != nil {
		return err
	}
	for _, cid := range cids {
		w := ws[cid]
		if w.MaxSeq == 0 {
			continue
		}
		b := found[cid]
		if b == nil {
			w.MaxSeq = 0 // no bucket at or below the reserved bound: no message stored
			continue
		}
		w.Last = b
		last := b.LastFilledSeq()
		if last == 0 && len(b.Problems) > 0 {
			// Unreadable (msgs missing, not an array): end the window at the
			// end of it, so that the broken bucket is shown.
			last = LastSeq(b.Index)
		} else if last == 0 {
			// An all-empty newest bucket (reserved, or revoke-created):
			// the messages end before it.
			last = FirstSeq(b.Index) - 1
		}
		if last < w.MaxSeq {
			w.MaxSeq = last
		}
	}
	return nil
}

// newestStoredBuckets finds, for each cid -> seq of ends, the newest stored
// bucket of cid at or below the one holding seq. seq.max_seq is a reserved
// bound (the server reserves ahead), so its bucket is often not written yet:
// the bucket holding it is read first, for every conversation in one find;
// for the ones missing, the bucket just below, again in one find; only a
// conversation missing both asks the doc_id index for its buckets.
func (s *Store) newestStoredBuckets(ctx context.Context, ends map[string]int64) (map[string]*Bucket, error) {
	found, err := s.bucketsAt(ctx, ends)
	if err != nil {
		return nil, err
	}
	below := map[string]int64{}
	for cid, seq := range ends {
		if found[cid] == nil && BucketIndex(seq) > 0 {
			below[cid] = FirstSeq(BucketIndex(seq)) - 1
		}
	}
	more, err := s.bucketsAt(ctx, below)
	if err != nil {
		return nil, err
	}
	farther := map[string]int64{}
	for cid, seq := range below {
		if more[cid] != nil {
			found[cid] = more[cid]
			continue
		}
		idx, err := s.lastBucketIndex(ctx, cid, BucketIndex(seq))
		if err != nil {
			return nil, err
		}
		if idx >= 0 {
			farther[cid] = LastSeq(idx)
		}
	}
	more, err = s.bucketsAt(ctx, farther)
	if err != nil {
		return nil, err
	}
	maps.Copy(found, more)
	return found, nil
}

// lastBucketIndex is the highest bucket index of cid below before (any
// index when before < 0), from the doc_id index alone; -1 when none.
func (s *Store) lastBucketIndex(ctx context.Context, cid string, before int64) (int64, error) {
	s.trip()
	ids, err := s.backend.BucketIDs(ctx, cid)
	if err != nil {
		return -1, err
	}
	last := int64(-1)
	for _, id := range ids {
		if c, idx, err := ParseDocID(id); err == nil && c == cid && (before < 0 || idx < before) {
			last = max(last, idx)
		}
	}
	return last, nil
}

// Buckets reads the given buckets of cid, newest state first from the cache
// (seqs up to maxSeq), the rest from the backend in one find per FindBatch
// buckets. Buckets not stored come back as all holes. Order follows indexes.
func (s *Store) Buckets(ctx context.Context, cid string, indexes []int64, maxSeq int64) ([]*Bucket, error) {
	cached := map[int64]*Slot{}
	if s.cache != nil && maxSeq > 0 {
		var seqs []int64
		for _, idx := range indexes {
			for seq := FirstSeq(idx); seq <= LastSeq(idx) && seq <= maxSeq; seq++ {
				seqs = append(seqs, seq)
			}
		}
		if len(seqs) > 0 {
			hits, err := s.cache.Slots(ctx, cid, seqs)
			s.cacheResult(err)
			if err == nil {
				cached = hits
				s.cacheHits.Add(int64(len(hits)))
				s.cacheMisses.Add(int64(len(seqs) - len(hits)))
			}
		}
	}
	// A bucket whose every visible seq is cached needs no backend read.
	var missing []string
	for _, idx := range indexes {
		complete := s.cache != nil && maxSeq > 0
		for seq := FirstSeq(idx); complete && seq <= LastSeq(idx) && seq <= maxSeq; seq++ {
			if cached[seq] == nil {
				complete = false
			}
		}
		if !complete {
			missing = append(missing, DocID(cid, idx))
		}
	}
	byID := map[string]*Bucket{}
	for start := 0; start < len(missing); start += s.FindBatch {
		batch := missing[start:min(start+s.FindBatch, len(missing))]
		s.trip()
		raws, err := s.backend.FindBuckets(ctx, batch)
		if err != nil {
			return nil, err
		}
		for _, raw := range raws {
			b := DecodeBucket(raw)
			byID[b.DocID] = b
		}
	}
	out := make([]*Bucket, len(indexes))
	for i, idx := range indexes {
		b := byID[DocID(cid, idx)]
		if b == nil {
			b = MissingBucket(cid, idx)
		}
		for j := range b.Slots {
			if slot := cached[b.Slots[j].Seq]; slot != nil {
				b.Slots[j] = StoredSlot{Seq: b.Slots[j].Seq, Slot: slot, Cached: true}
			}
		}
		out[i] = b
	}
	return out, nil
}

// ConversationSummary is one row of a user's conversation list.
type ConversationSummary struct {
	Conversation
	Window
	// FromMessages is true when there is no conversation document and the
	// entry was found from doc_id prefixes of the msg collection.
	FromMessages bool
}

// ListLimit bounds the fallback listing of a bare msg collection.
const ListLimit = 10000

// ConversationsOf lists uid's conversations with their windows, pinned
// first, then by conversation ID. Without a conversation collection it lists
// every conversation found in msg (a bare export), single chats filtered to
// those naming uid.
func (s *Store) ConversationsOf(ctx context.Context, uid string) ([]ConversationSummary, error) {
	s.trip()
	convs, err := s.backend.Conversations(ctx, uid)
	if err != nil {
		return nil, err
	}
	fromMsgs := false
	if len(convs) == 0 {
		fromMsgs = true
		all, err := s.AllConversationIDs(ctx)
		if err != nil {
			return nil, err
		}
		for _, cid := range all {
			if t, a, b := SplitConversationID(cid); t == SessionSingle && uid != "" && a != uid && b != uid {
				continue
			}
			convs = append(convs, Conversation{OwnerUserID: uid, ConversationID: cid,
				ConversationType: ConversationTypeOf(cid)})
		}
	}
	byCid := make(map[string]Conversation, len(convs))
	cids := make([]string, 0, len(convs))
	for _, c := range convs {
		byCid[c.ConversationID] = c
		cids = append(cids, c.ConversationID)
	}
	ws, err := s.Windows(ctx, uid, cids, byCid)
	if err != nil {
		return nil, err
	}
	out := make([]ConversationSummary, 0, len(convs))
	for _, c := range convs {
		out = append(out, ConversationSummary{Conversation: c, Window: *ws[c.ConversationID], FromMessages: fromMsgs})
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].IsPinned != out[j].IsPinned {
			return out[i].IsPinned
		}
		return out[i].ConversationID < out[j].ConversationID
	})
	return out, nil
}

// AllConversationIDs walks the doc_id index one conversation at a time
// (one round trip each, at most ListLimit).
func (s *Store) AllConversationIDs(ctx context.Context) ([]string, error) {
	var out []string
	after := ""
	for len(out) < ListLimit {
		s.trip()
		cid, ok, err := s.backend.NextConversationID(ctx, after)
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		out = append(out, cid)
		after = cid
	}
	return out, nil
}

// Member is a participant of a conversation, named where known.
type Member struct {
	UserID    string
	Nickname  string
	RoleLevel int32 // 0 when unknown (single chats, or no group_member collection)
}

// Members lists the participants of cid; MembersFor with no viewer.
func (s *Store) Members(ctx context.Context, cid string) ([]Member, error) {
	return s.MembersFor(ctx, cid, "")
}

// MembersFor lists the participants of cid as viewer would ask for them:
// group members from group_member; the two users of a single chat from its
// conversation ID, without a query (the conversation collection has no
// index on conversation_id in OpenIM). Nicknames come from the user
// collection, read once; that read also settles a conversation ID that
// splits more than one way (user IDs containing "_"), after the viewer.
func (s *Store) MembersFor(ctx context.Context, cid, viewer string) ([]Member, error) {
	var members []Member
	var names map[string]string
	switch kind, a, _ := SplitConversationID(cid); kind {
	case SessionGroup:
		s.trip()
		gms, err := s.backend.GroupMembers(ctx, a)
		if err != nil {
			return nil, err
		}
		for _, m := range gms {
			members = append(members, Member{UserID: m.UserID, Nickname: m.Nickname, RoleLevel: m.RoleLevel})
		}
	default:
		splits := pairSplits(cid)
		var ids []string
		for _, p := range splits {
			ids = append(ids, p[0], p[1])
		}
		if len(ids) == 0 && a != "" {
			ids = []string{a} // n_<id>: one user
		}
		var err error
		if names, err = s.UserNames(ctx, ids); err != nil {
			return nil, err
		}
		if len(splits) > 0 {
			p := pickSplit(splits, viewer, names)
			members = []Member{{UserID: p[0]}, {UserID: p[1]}}
		} else if a != "" {
			members = []Member{{UserID: a}}
		}
	}
	if names == nil {
		if err := s.nameMembers(ctx, members); err != nil {
			return nil, err
		}
	} else {
		for i := range members {
			members[i].Nickname = names[members[i].UserID]
		}
	}
	sort.SliceStable(members, func(i, j int) bool {
		if members[i].RoleLevel != members[j].RoleLevel {
			return members[i].RoleLevel > members[j].RoleLevel
		}
		return members[i].UserID < members[j].UserID
	})
	return slices.CompactFunc(members, func(x, y Member) bool { return x.UserID == y.UserID }), nil
}

// pairSplits lists every way a single or notification chat ID splits into
// two non-empty user IDs in bytewise order ("si_a_b_c": a|b_c and a_b|c).
func pairSplits(cid string) [][2]string {
	var rest string
	switch {
	case strings.HasPrefix(cid, "si_"), strings.HasPrefix(cid, "sn_"):
		rest = cid[3:]
	default:
		return nil
	}
	var out [][2]string
	for i := 1; i < len(rest)-1; i++ {
		if rest[i] == '_' && rest[:i] <= rest[i+1:] {
			out = append(out, [2]string{rest[:i], rest[i+1:]})
		}
	}
	if len(out) == 0 { // not in bytewise order: still the first split
		if a, b, ok := strings.Cut(rest, "_"); ok && a != "" && b != "" {
			out = append(out, [2]string{a, b})
		}
	}
	return out
}

// pickSplit chooses among the splits of a conversation ID: the one naming
// viewer, else the one whose users the user collection knows best, else
// the first (the split at the first "_").
func pickSplit(splits [][2]string, viewer string, known map[string]string) [2]string {
	if viewer != "" {
		for _, p := range splits {
			if p[0] == viewer || p[1] == viewer {
				return p
			}
		}
	}
	best, bestScore := splits[0], -1
	for _, p := range splits {
		score := 0
		for _, id := range p {
			if _, ok := known[id]; ok {
				score++
			}
		}
		if score > bestScore {
			best, bestScore = p, score
		}
	}
	return best
}

func (s *Store) nameMembers(ctx context.Context, members []Member) error {
	if len(members) == 0 {
		return nil
	}
	ids := make([]string, len(members))
	for i, m := range members {
		ids[i] = m.UserID
	}
	names, err := s.UserNames(ctx, ids)
	if err != nil {
		return err
	}
	for i := range members {
		if members[i].Nickname == "" {
			members[i].Nickname = names[members[i].UserID]
		}
	}
	return nil
}

// UserNames maps user IDs to nicknames from the user collection.
func (s *Store) UserNames(ctx context.Context, ids []string) (map[string]string, error) {
	s.trip()
	users, err := s.backend.Users(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := make(map[string]string, len(users))
	for _, u := range users {
		out[u.UserID] = u.Nickname
	}
	return out, nil
}

// GroupNames maps group IDs to names from the group collection.
func (s *Store) GroupNames(ctx context.Context, ids []string) (map[string]string, error) {
	s.trip()
	groups, err := s.backend.Groups(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := make(map[string]string, len(groups))
	for _, g := range groups {
		out[g.GroupID] = g.GroupName
	}
	return out, nil
}

// SplitConversationID tells the session type of cid and its parts: the two
// users of a single or notification chat, or the group ID of a group chat.
// User IDs containing "_" make single-chat IDs ambiguous; the split is at the
// first "_" after the prefix, and MembersFor settles it with the viewer and
// the user collection.
func SplitConversationID(cid string) (kind int32, a, b string) {
	switch {
	case strings.HasPrefix(cid, "si_"):
		a, b, _ = strings.Cut(cid[3:], "_")
		return SessionSingle, a, b
	case strings.HasPrefix(cid, "sg_"):
		return SessionGroup, cid[3:], ""
	case strings.HasPrefix(cid, "g_"):
		return SessionGroup, cid[2:], ""
	case strings.HasPrefix(cid, "sn_"):
		a, b, _ = strings.Cut(cid[3:], "_")
		return SessionNotification, a, b
	case strings.HasPrefix(cid, "n_"):
		return SessionNotification, cid[2:], ""
	}
	return 0, "", ""
}

// ConversationTypeOf is the session type a conversation ID encodes (0 unknown).
func ConversationTypeOf(cid string) int32 {
	kind, _, _ := SplitConversationID(cid)
	return kind
}

// SingleChatID is the conversation ID of users a and b (sorted bytewise).
func SingleChatID(a, b string) string {
	if b < a {
		a, b = b, a
	}
	return "si_" + a + "_" + b
}

// GroupChatID is the conversation ID of a group.
func GroupChatID(groupID string) string { return "sg_" + groupID }

var errFound = errors.New("found")

// IsEmpty reports a backend holding no msg document, reading at most one.
func IsEmpty(ctx context.Context, b Backend) (bool, error) {
	err := b.ScanRaw(ctx, CollMsg, "", func(bson.Raw) error { return errFound })
	if errors.Is(err, errFound) {
		return false, nil
	}
	return err == nil, err
}
