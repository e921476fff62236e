package demo

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/embedded"
)

// small keeps the tests quick while still spanning several buckets per
// chat, with generated conversations beyond the fixed ones; tiny is for
// comparing whole stores.
var (
	small = Options{Seed: 7, Conversations: 12, Messages: 120, LongMessages: 1200}
	tiny  = Options{Seed: 7, Conversations: 3, Messages: 60, LongMessages: 250}
)

// seededSmall is one store with the small dataset, shared by the tests that
// only read it (seeding is the slow part of these tests).
var seededSmall = sync.OnceValues(func() (string, Summary) {
	dir, err := os.MkdirTemp("", "chatlens-demo-test")
	if err != nil {
		panic(err)
	}
	path := filepath.Join(dir, "demo.db")
	b, err := embedded.Open(path, embedded.Options{NoSync: true})
	if err != nil {
		panic(err)
	}
	sum, err := Seed(context.Background(), store.New(b, store.Options{}), small, nil)
	if err != nil {
		panic(err)
	}
	if err := b.Close(context.Background()); err != nil {
		panic(err)
	}
	return path, sum
})

func TestMain(m *testing.M) {
	code := m.Run()
	if path, _ := seededSmall(); path != "" {
		os.RemoveAll(filepath.Dir(path))
	}
	os.Exit(code)
}

// openSmall opens the shared small store read-only.
func openSmall(t *testing.T) (*store.Store, Summary) {
	t.Helper()
	path, sum := seededSmall()
	b, err := embedded.Open(path, embedded.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	st := store.New(b, store.Options{})
	t.Cleanup(func() { _ = st.Close(context.Background()) })
	return st, sum
}

func seedInto(t testing.TB, opts Options) (*store.Store, Summary) {
	t.Helper()
	b, err := embedded.Open(filepath.Join(t.TempDir(), "demo.db"), embedded.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	st := store.New(b, store.Options{})
	t.Cleanup(func() { _ = st.Close(context.Background()) })
	sum, err := Seed(context.Background(), st, opts, nil)
	if err != nil {
		t.Fatal(err)
	}
	return st, sum
}

// dump is every document of every collection, _id removed (the backend
// assigns fresh ObjectIDs on insert), as canonical BSON bytes.
func dump(t *testing.T, st *store.Store) map[string][][]byte {
	t.Helper()
	out := map[string][][]byte{}
	for _, coll := range bucket.Collections {
		err := st.Backend().ScanRaw(context.Background(), coll, "", func(raw bson.Raw) error {
			var d bson.D
			if err := bson.Unmarshal(raw, &d); err != nil {
				return err
			}
			var kept bson.D
			for _, e := range d {
				if e.Key != "_id" {
					kept = append(kept, e)
				}
			}
			b, err := bson.Marshal(kept)
			out[coll] = append(out[coll], b)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return out
}

func TestSeedIsDeterministic(t *testing.T) {
	a, _ := seedInto(t, tiny)
	b, _ := seedInto(t, tiny)
	da, db := dump(t, a), dump(t, b)
	for _, coll := range bucket.Collections {
		if len(da[coll]) == 0 {
			t.Errorf("collection %s is empty", coll)
		}
		if len(da[coll]) != len(db[coll]) {
			t.Fatalf("%s: %d documents vs %d", coll, len(da[coll]), len(db[coll]))
		}
		for i := range da[coll] {
			if !bytes.Equal(da[coll][i], db[coll][i]) {
				t.Fatalf("%s document %d differs between two seeds with the same seed:\n%s\n%s",
					coll, i, bson.Raw(da[coll][i]), bson.Raw(db[coll][i]))
			}
		}
	}
	other := tiny
	other.Seed = 8
	c, _ := seedInto(t, other)
	if dc := dump(t, c); bytes.Equal(bytes.Join(dc[bucket.CollMsg], nil), bytes.Join(da[bucket.CollMsg], nil)) {
		t.Error("a different seed produced the same messages")
	}
}

// census counts what the stored msg documents show.
type census struct {
	types                       map[int32]int
	messages, holes, deletes    int
	senderRevokes, adminRevokes int
	readInSingle, readInGroup   int
	revokedAndDeleted           int
	cjk, emoji, escapes         bool
	malformed                   []string
	perConversation             map[string]int
	badContent                  []string
}

func take(t *testing.T, st *store.Store) census {
	t.Helper()
	c := census{types: map[int32]int{}, perConversation: map[string]int{}}
	err := st.Backend().ScanRaw(context.Background(), bucket.CollMsg, "", func(raw bson.Raw) error {
		b := bucket.DecodeBucket(raw)
		c.malformed = append(c.malformed, b.Problems...)
		for _, s := range b.Slots {
			if s.Problem != "" {
				c.malformed = append(c.malformed, b.DocID+": "+s.Problem)
			}
			if s.IsHole() {
				c.holes++
				continue
			}
			m := s.Slot.Msg
			c.messages++
			c.perConversation[b.Cid]++
			c.types[m.ContentType]++
			c.deletes += len(s.Slot.DelList)
			if r := s.Slot.Revoke; r != nil {
				if r.UserID == m.SendID {
					c.senderRevokes++
				} else if r.Role == bucket.RoleAdmin || r.Role == bucket.RoleOwner {
					c.adminRevokes++
				}
				if len(s.Slot.DelList) > 0 {
					c.revokedAndDeleted++
				}
			}
			if s.Slot.IsRead {
				if m.SessionType == bucket.SessionSingle {
					c.readInSingle++
				} else {
					c.readInGroup++
				}
			}
			var obj map[string]any
			if err := json.Unmarshal([]byte(m.Content), &obj); err != nil {
				c.badContent = append(c.badContent, b.DocID)
			} else if m.ContentType >= 1000 {
				var detail map[string]any
				if d, ok := obj["detail"].(string); !ok || json.Unmarshal([]byte(d), &detail) != nil {
					c.badContent = append(c.badContent, b.DocID)
				}
			}
			c.cjk = c.cjk || strings.ContainsRune(m.Content, '王') || strings.Contains(m.SenderNickname, "王")
			c.emoji = c.emoji || strings.Contains(m.Content, "🚀") || strings.Contains(m.SenderNickname, "🌸")
			c.escapes = c.escapes || strings.Contains(m.Content, `\u001b`)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestSeedShowsEveryFeature(t *testing.T) {
	st, sum := openSmall(t)
	c := take(t, st)
	if len(c.malformed) > 0 {
		t.Errorf("the demo should be well formed; check would report %v", c.malformed)
	}
	if len(c.badContent) > 0 {
		t.Errorf("content that is not valid JSON (or a notification without a JSON detail) in %v", c.badContent)
	}
	for _, ct := range []int32{ctText, ctPicture, ctVoice, ctVideo, ctFile, ctAtText, ctMerger, ctCard,
		ctLocation, ctCustom, ctQuote, ctAdvancedText, ctMarkdown,
		ntGroupCreated, ntMemberQuit, ntMemberKicked, ntMemberInvited, ntMemberEnter, ntMemberMuted, ntGroupAnnouncement} {
		if c.types[ct] == 0 {
			t.Errorf("no message of content type %d", ct)
		}
	}
	checks := []struct {
		what string
		ok   bool
	}{
		{"revoked by their sender", c.senderRevokes > 0},
		{"revoked by a group admin or owner", c.adminRevokes > 0},
		{"deleted for one participant", c.deletes > 0},
		{"revoked and deleted", c.revokedAndDeleted > 0},
		{"read flags in single chats", c.readInSingle > 0},
		{"CJK text", c.cjk},
		{"emoji", c.emoji},
		{"hostile escape sequences", c.escapes},
	}
	for _, ck := range checks {
		if !ck.ok {
			t.Errorf("no message %s", ck.what)
		}
	}
	// The demo marks reads as mark_msgs_as_read does, which sets is_read in
	// groups too (as_read.go MarkMsgsAsRead); only single chats show it.
	if c.readInGroup == 0 {
		t.Error("no group slot carries is_read: the demo's mark reads in groups set none")
	}
	if c.messages != sum.Messages+sum.Notices || c.deletes != sum.Deleted || c.senderRevokes+c.adminRevokes != sum.Revoked {
		t.Errorf("summary %+v disagrees with the store: %d messages, %d deletes, %d revokes",
			sum, c.messages, c.deletes, c.senderRevokes+c.adminRevokes)
	}
	if got := c.perConversation[LongGroupID]; got != small.LongMessages {
		t.Errorf("long group holds %d messages, want %d", got, small.LongMessages)
	}
	if sum.Conversations != small.Conversations+1 {
		t.Errorf("%d conversations, want %d ordinary + the long one", sum.Conversations, small.Conversations)
	}
}

// Holes lie inside the conversation (seqs below the newest message), both
// within one bucket and across a bucket edge.
func TestSeedLeavesHolesInsideConversations(t *testing.T) {
	st, sum := openSmall(t)
	if sum.Holes == 0 {
		t.Fatal("no holes seeded")
	}
	ctx := context.Background()
	for _, cid := range []string{ShowcaseSingleID, LongGroupID} {
		w, err := st.Windows(ctx, "alice", []string{cid}, nil)
		if err != nil {
			t.Fatal(err)
		}
		var holes []int64
		bs, err := st.Buckets(ctx, cid, bucket.BucketsCovering(1, w[cid].MaxSeq), w[cid].MaxSeq)
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range bs {
			for _, s := range b.Slots {
				if s.Seq <= w[cid].MaxSeq && s.IsHole() {
					holes = append(holes, s.Seq)
				}
			}
		}
		if len(holes) == 0 {
			t.Errorf("%s: no holes below max seq %d", cid, w[cid].MaxSeq)
		}
		if cid == LongGroupID && bucket.BucketIndex(holes[0]) == bucket.BucketIndex(holes[len(holes)-1]) {
			t.Errorf("%s: holes %v do not cross a bucket edge", cid, holes)
		}
	}
}

// The showcase group's members see different windows: a late joiner starts
// at the invitation, a kicked member stops at the kick.
func TestSeedGivesMembersTheirOwnWindows(t *testing.T) {
	st, _ := openSmall(t)
	ctx := context.Background()
	win := func(uid string) *bucket.Window {
		w, err := st.Windows(ctx, uid, []string{ShowcaseGroupID}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return w[ShowcaseGroupID]
	}
	owner, late, kicked := win(groupTeam.Owner), win(groupTeam.Invited), win(groupTeam.Kicked)
	if late.MinSeq <= owner.MinSeq {
		t.Errorf("late joiner sees from %d, the owner from %d", late.MinSeq, owner.MinSeq)
	}
	if kicked.MaxSeq >= owner.MaxSeq || kicked.MaxSeq == 0 {
		t.Errorf("kicked member sees up to %d, the owner up to %d", kicked.MaxSeq, owner.MaxSeq)
	}
	members, err := st.Members(ctx, ShowcaseGroupID)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range members {
		if m.UserID == groupTeam.Kicked || m.UserID == groupTeam.Quit {
			t.Errorf("%s left the group but is still a member", m.UserID)
		}
	}
	list, err := st.ConversationsOf(ctx, "alice")
	if err != nil {
		t.Fatal(err)
	}
	unread := false
	for _, c := range list {
		unread = unread || c.Unread() > 0
	}
	if len(list) < 3 || !unread {
		t.Errorf("alice has %d conversations, unread somewhere: %v", len(list), unread)
	}
}

// Writing a conversation while it is planned (a window of messages in
// memory) stores exactly what planning it whole first stored.
func TestSeedWrittenAsPlannedIsTheSame(t *testing.T) {
	opts := Options{Seed: 4, Conversations: 3, Messages: 1300, LongMessages: 2600}
	seedWithWindow := func(size int) map[string][][]byte {
		defer func(old int) { windowSize = old }(windowSize)
		windowSize = size
		st, _ := seedInto(t, opts)
		return dump(t, st)
	}
	whole := seedWithWindow(1 << 30)
	for _, size := range []int{1, windowSize} {
		got := seedWithWindow(size)
		for _, coll := range bucket.Collections {
			if !slices.EqualFunc(got[coll], whole[coll], bytes.Equal) {
				t.Errorf("window of %d messages: %s differs from the seed planned whole", size, coll)
			}
		}
	}
}
