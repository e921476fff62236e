package uitest

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/testkit"

	"strconv"
)

// Base is when message 0 of every seed was sent; message i is i minutes
// later.
var Base = time.Date(2024, 5, 1, 9, 0, 0, 0, time.UTC)

// Now is the clock of every UI test: the year of Base, so rows show no
// year unless a test moves the clock.
var Now = time.Date(2024, 6, 1, 12, 0, 0, 0, time.UTC)

// TextMsg is text message i from from to to (a user) or group.
func TextMsg(from, to, group string, session int32, i int, text string) *bucket.MsgData {
	return &bucket.MsgData{SendID: from, RecvID: to, GroupID: group, SenderNickname: strings.ToUpper(from[:1]) + from[1:],
		ClientMsgID: fmt.Sprintf("c%d", i), ServerMsgID: fmt.Sprintf("s%d", i), SessionType: session,
		MsgFrom: bucket.MsgFromUser, ContentType: 101, Content: textContent(text),
		SendTime: Base.Add(time.Duration(i) * time.Minute).UnixMilli(), Status: bucket.StatusSent,
		Options: map[string]bool{}, AtUserIDList: []string{}}
}

// textContent is the JSON content of a text message (json.Marshal, not %q:
// Go's quoting writes \x1b, which is not JSON).
func textContent(text string) string {
	b, err := json.Marshal(map[string]string{"content": text})
	if err != nil {
		panic(err)
	}
	return string(b)
}

// The conversations of SeedSmall.
const (
	ChatAB = "si_alice_bob"
	ChatT  = "sg_team"
)

// SeedSmall writes a single chat of alice and bob (120 seqs over two
// buckets: seq 5 deleted for alice, seq 7 revoked by bob, 106-109 holes,
// seq 115 malformed) and a group "Team" of three.
func SeedSmall(t testing.TB, st *store.Store) {
	t.Helper()
	ctx := context.Background()
	var ab []*bucket.MsgData
	for i := 1; i <= 120; i++ {
		from, to := "alice", "bob"
		if i%2 == 0 {
			from, to = "bob", "alice"
		}
		ab = append(ab, TextMsg(from, to, "", bucket.SessionSingle, i, fmt.Sprintf("hello %d from %s", i, from)))
	}
	must := func(_ store.WriteResult, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(st.InsertMessages(ctx, ChatAB, 1, ab[:105]))
	must(st.InsertMessages(ctx, ChatAB, 110, ab[109:]))
	must(st.DeleteForMe(ctx, ChatAB, []int64{5}, "alice"))
	must(st.Revoke(ctx, ChatAB, []int64{7}, bucket.Revoke{UserID: "bob", Nickname: "Bob", Time: Base.UnixMilli()}))
	bad := TextMsg("bob", "alice", "", bucket.SessionSingle, 115, "bad")
	bad.Seq = 999
	testkit.SetSlotField(t, st, bucket.DocIDForSeq(ChatAB, 115), bucket.SlotIndex(115), "msg", bad)
	var team []*bucket.MsgData
	for i := 1; i <= 30; i++ {
		from := []string{"alice", "bob", "carol"}[i%3]
		team = append(team, TextMsg(from, "", "team", bucket.SessionGroup, i, fmt.Sprintf("team note %d", i)))
	}
	must(st.InsertMessages(ctx, ChatT, 1, team))
	Insert(t, st, bucket.CollUser,
		bucket.User{UserID: "alice", Nickname: "Alice"}, bucket.User{UserID: "bob", Nickname: "Bob"},
		bucket.User{UserID: "carol", Nickname: "Carol"})
	Insert(t, st, bucket.CollGroup, bucket.Group{GroupID: "team", GroupName: "Team"})
	Insert(t, st, bucket.CollGroupMember,
		bucket.GroupMember{GroupID: "team", UserID: "alice", Nickname: "Alice", RoleLevel: bucket.RoleOwner},
		bucket.GroupMember{GroupID: "team", UserID: "bob", Nickname: "Bob", RoleLevel: bucket.RoleMember},
		bucket.GroupMember{GroupID: "team", UserID: "carol", Nickname: "Carol", RoleLevel: bucket.RoleAdmin})
	Insert(t, st, bucket.CollConversation,
		bucket.Conversation{OwnerUserID: "alice", ConversationID: ChatAB, ConversationType: 1, UserID: "bob"},
		bucket.Conversation{OwnerUserID: "bob", ConversationID: ChatAB, ConversationType: 1, UserID: "alice"},
		// Pinned: first in alice's list, above the newer single chat.
		bucket.Conversation{OwnerUserID: "alice", ConversationID: ChatT, ConversationType: 3, GroupID: "team", IsPinned: true},
		bucket.Conversation{OwnerUserID: "bob", ConversationID: ChatT, ConversationType: 3, GroupID: "team"},
		bucket.Conversation{OwnerUserID: "carol", ConversationID: ChatT, ConversationType: 3, GroupID: "team"})
	Insert(t, st, bucket.CollSeqUser,
		bucket.SeqUser{UserID: "alice", ConversationID: ChatAB, ReadSeq: 100},
		bucket.SeqUser{UserID: "bob", ConversationID: ChatAB, ReadSeq: 118},
		bucket.SeqUser{UserID: "alice", ConversationID: ChatT, ReadSeq: 30})
}

// ChatQ is the single chat of SeedFarQuotes.
const ChatQ = "si_alice_carol"

// SeedFarQuotes writes 350 messages of alice and carol (four buckets): seq 3
// revoked by carol, seq 4 deleted for alice, and quotes at the newest end
// reaching back to them: 340 → 3, 341 → 4, 342 → 5 (visible), 343 → 250,
// and the last message, 350 → 3.
func SeedFarQuotes(t *testing.T, st *store.Store) {
	t.Helper()
	ctx := context.Background()
	quotes := map[int]int{340: 3, 341: 4, 342: 5, 343: 250, 350: 3}
	var msgs []*bucket.MsgData
	for i := 1; i <= 350; i++ {
		from, to := "carol", "alice"
		if i%2 == 0 {
			from, to = "alice", "carol"
		}
		m := TextMsg(from, to, "", bucket.SessionSingle, i, fmt.Sprintf("hello %d", i))
		if q, ok := quotes[i]; ok {
			quoted := msgs[q-1]
			content, _ := json.Marshal(map[string]any{"text": fmt.Sprint("re ", q), "quoteMessage": map[string]any{
				"seq": q, "sendID": quoted.SendID, "senderNickname": quoted.SenderNickname, "contentType": 101,
				"content": quoted.Content, "status": 2, "textElem": map[string]string{"content": fmt.Sprint("hello ", q)}}})
			m.ContentType, m.Content = 114, string(content)
		}
		msgs = append(msgs, m)
	}
	for _, err := range []error{
		second(st.InsertMessages(ctx, ChatQ, 1, msgs)),
		second(st.Revoke(ctx, ChatQ, []int64{3}, bucket.Revoke{UserID: "carol", Nickname: "Carol", Role: 100, Time: Base.UnixMilli()})),
		second(st.DeleteForMe(ctx, ChatQ, []int64{4}, "alice")),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	Insert(t, st, bucket.CollConversation,
		bucket.Conversation{OwnerUserID: "alice", ConversationID: ChatQ, ConversationType: 1, UserID: "carol"},
		// carol's own: without it OpenIM pulls her nothing of the chat.
		bucket.Conversation{OwnerUserID: "carol", ConversationID: ChatQ, ConversationType: 1, UserID: "alice"})
}

func second[T any](_ T, err error) error { return err }

// WriteLongConversation stores n messages of cid as whole buckets straight
// through the backend (the reading is what is measured here, not the state
// machine), its seq document, and alice's conversation document.
func WriteLongConversation(t testing.TB, st *store.Store, cid string, n int) {
	t.Helper()
	for idx := int64(0); idx <= bucket.BucketIndex(int64(n)); idx++ {
		doc := bucket.NewDoc(bucket.DocID(cid, idx))
		for seq := bucket.FirstSeq(idx); seq <= min(bucket.LastSeq(idx), int64(n)); seq++ {
			m := TextMsg("alice", "", "long", bucket.SessionGroup, int(seq), "message "+strconv.FormatInt(seq, 10))
			m.Seq = seq
			doc.Msgs[bucket.SlotIndex(seq)].Msg = m
		}
		testkit.InsertBucket(t, st, doc)
	}
	testkit.RaiseMaxSeq(t, st, cid, int64(n))
	Insert(t, st, bucket.CollConversation, bucket.Conversation{OwnerUserID: "alice", ConversationID: cid, ConversationType: 3, GroupID: "long"})
}

// ChatFar holds seqs 1-10 and, ten million buckets later, seqs
// 1,000,000,001-1,000,000,010: a stored bucket at index 10,000,000.
const (
	ChatFar = "sg_far"
	FarSeq  = 1_000_000_001
)

// SeedFar stores ChatFar, "the needle" at seq 5.
func SeedFar(t testing.TB, st *store.Store) {
	t.Helper()
	ctx := context.Background()
	for _, first := range []int64{1, FarSeq} {
		var msgs []*bucket.MsgData
		for i := range 10 {
			text := fmt.Sprintf("far note %d", i)
			if first == 1 && i == 4 {
				text = "the needle"
			}
			msgs = append(msgs, TextMsg("alice", "", "far", bucket.SessionGroup, i, text))
		}
		if _, err := st.InsertMessages(ctx, ChatFar, first, msgs); err != nil {
			t.Fatal(err)
		}
	}
	Insert(t, st, bucket.CollConversation,
		bucket.Conversation{OwnerUserID: "alice", ConversationID: ChatFar, ConversationType: 3, GroupID: "far"})
}

// SeedNotices adds to the small seed what the server tells devices of:
// alice (the owner) revoked carol's team note 5 and the server told the
// group in n_team seq 1; bob's read receipt of the single chat is in
// n_alice_bob seq 1. Bob's revoke of seq 7 (the seed's) was a
// storage-level write: nothing tells of it.
func SeedNotices(t testing.TB, st *store.Store) {
	t.Helper()
	ctx := t.Context()
	notice := func(from, to, group string, session int32, i int, ct int32, detail string) *bucket.MsgData {
		m := TextMsg(from, to, group, session, i, "")
		m.ContentType, m.MsgFrom = ct, bucket.MsgFromSystem
		m.Content = `{"detail":` + strings.ReplaceAll(`"`+strings.ReplaceAll(detail, `"`, `\"`)+`"`, "\n", "") + `}`
		return m
	}
	for _, err := range []error{
		second(st.Revoke(ctx, ChatT, []int64{5}, bucket.Revoke{UserID: "alice", Nickname: "Alice", Role: bucket.RoleOwner, Time: Base.Add(31 * time.Minute).UnixMilli()})),
		second(st.InsertMessages(ctx, "n_team", 1, []*bucket.MsgData{notice("alice", "", "team", bucket.SessionGroup, 31, bucket.ContentRevoked,
			`{"revokerUserID":"alice","seq":5,"conversationID":"sg_team","isAdminRevoke":false}`)})),
		second(st.InsertMessages(ctx, "n_alice_bob", 1, []*bucket.MsgData{notice("bob", "alice", "", bucket.SessionSingle, 121, bucket.ContentReadReceipt,
			`{"markAsReadUserID":"bob","conversationID":"si_alice_bob","seqs":[117,118],"hasReadSeq":118}`)})),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
}

// SeedMany writes n conversations of alice, alternately single chats and
// groups, each with 150 messages over two buckets, and names for all.
func SeedMany(t testing.TB, st *store.Store, n int) map[string]int64 {
	t.Helper()
	ctx := context.Background()
	maxSeqs := map[string]int64{}
	for i := range n {
		peer, group := fmt.Sprintf("u%02d", i), fmt.Sprintf("g%02d", i)
		cid, conv, session := store.SingleChatID("alice", peer), bucket.Conversation{OwnerUserID: "alice", ConversationType: 1, UserID: peer}, bucket.SessionSingle
		if i%2 == 1 {
			cid, conv, session = store.GroupChatID(group), bucket.Conversation{OwnerUserID: "alice", ConversationType: 3, GroupID: group}, bucket.SessionGroup
		}
		conv.ConversationID = cid
		var msgs []*bucket.MsgData
		for s := 1; s <= 150; s++ {
			g := ""
			if session == bucket.SessionGroup {
				g = group
			}
			msgs = append(msgs, TextMsg("alice", peer, g, session, s, fmt.Sprintf("last of %s", cid)))
		}
		if _, err := st.InsertMessages(ctx, cid, 1, msgs); err != nil {
			t.Fatal(err)
		}
		Insert(t, st, bucket.CollConversation, conv)
		Insert(t, st, bucket.CollUser, bucket.User{UserID: peer, Nickname: "Peer " + peer})
		Insert(t, st, bucket.CollGroup, bucket.Group{GroupID: group, GroupName: "Group " + group})
		maxSeqs[cid] = 150
	}
	Insert(t, st, bucket.CollUser, bucket.User{UserID: "alice", Nickname: "Alice"})
	return maxSeqs
}

// SeedFarApart stores ChatQ, a single chat of alice and carol, with
// messages at seqs 1 and 1001 only: buckets 1 to 9 were never written.
func SeedFarApart(t testing.TB, st *store.Store) {
	t.Helper()
	for _, seq := range []int{1, 1001} {
		m := TextMsg("carol", "alice", "", bucket.SessionSingle, seq, "far message")
		if _, err := st.InsertMessages(context.Background(), ChatQ, int64(seq), []*bucket.MsgData{m}); err != nil {
			t.Fatal(err)
		}
	}
	Insert(t, st, bucket.CollConversation,
		bucket.Conversation{OwnerUserID: "alice", ConversationID: ChatQ, ConversationType: 1, UserID: "carol"})
}

// ClearedBefore41 stores that alice cleared her history of ChatAB (of
// SeedSmall) before seq 41: seq_user.min_seq 41.
func ClearedBefore41(t testing.TB, st *store.Store) {
	t.Helper()
	Insert(t, st, bucket.CollSeqUser, bucket.SeqUser{UserID: "alice", ConversationID: ChatAB, MinSeq: 41, ReadSeq: 100})
}

// CarolMissesNTeam adds the notices of SeedNotices and starts carol's
// window of n_team after its seq 1 (the notice of alice's revoke of team
// note 5), and bob's read seq of the team before it.
func CarolMissesNTeam(t testing.TB, st *store.Store) {
	t.Helper()
	SeedNotices(t, st)
	Insert(t, st, bucket.CollSeqUser,
		bucket.SeqUser{UserID: "carol", ConversationID: "n_team", MinSeq: 2},
		bucket.SeqUser{UserID: "bob", ConversationID: ChatT, ReadSeq: 3})
}
