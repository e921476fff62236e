package store_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/testkit"
)

// noConversationScan fails the test when the conversation collection is
// read by conversation_id: OpenIM indexes it by (owner_user_id,
// conversation_id) only, so that find scans the whole collection.
// It serves store.Directory's ConversationsByID; every other call goes
// to the Backend it wraps.
type noConversationScan struct {
	store.Backend
	t *testing.T
}

func (n noConversationScan) ConversationsByID(context.Context, string) ([]bucket.Conversation, error) {
	n.t.Error("members read the conversation collection by conversation_id (a collection scan in OpenIM)")
	return nil, nil
}

// TestMembersOfASingleChatFromItsID: the two users come from the
// conversation ID with one read (the user collection, for nicknames); a
// user ID containing "_" is settled by the viewer, else by the users the
// user collection knows.
func TestMembersOfASingleChatFromItsID(t *testing.T) {
	b := testkit.TempBackend(t)
	testkit.Insert(t, b, bucket.CollUser,
		bson.D{{Key: "user_id", Value: "a_b"}, {Key: "nickname", Value: "Ab"}},
		bson.D{{Key: "user_id", Value: "c"}, {Key: "nickname", Value: "Cee"}},
		bson.D{{Key: "user_id", Value: "alice"}, {Key: "nickname", Value: "Alice"}})
	testkit.Insert(t, b, bucket.CollConversation,
		bson.D{{Key: "owner_user_id", Value: "alice"}, {Key: "conversation_id", Value: "si_alice_bob"}},
		bson.D{{Key: "owner_user_id", Value: "bob"}, {Key: "conversation_id", Value: "si_alice_bob"}})
	s := store.New(noConversationScan{Backend: b, t: t}, store.Options{})
	tests := []struct {
		cid, viewer string
		want        []string
	}{
		{"si_alice_bob", "", []string{"alice/Alice", "bob/"}},
		{"si_alice_bob", "bob", []string{"alice/Alice", "bob/"}},
		{"si_a_b_c", "a", []string{"a/", "b_c/"}},      // the viewer names the split
		{"si_a_b_c", "c", []string{"a_b/Ab", "c/Cee"}}, // c is only in a_b|c
		{"si_a_b_c", "", []string{"a_b/Ab", "c/Cee"}},  // the user collection knows a_b and c
		{"si_a_b_c", "ops", []string{"a_b/Ab", "c/Cee"}},
		{"sn_a_b_c", "a", []string{"a/", "b_c/"}},
	}
	for _, tt := range tests {
		before := s.Stats().RoundTrips
		members, err := s.MembersFor(t.Context(), tt.cid, tt.viewer)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, m := range members {
			got = append(got, m.UserID+"/"+m.Nickname)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("members of %s for %q = %q, want %q", tt.cid, tt.viewer, got, tt.want)
		}
		if trips := s.Stats().RoundTrips - before; trips != 1 {
			t.Errorf("members of %s took %d round trips, want 1 (the user collection)", tt.cid, trips)
		}
	}
	if _, err := s.Members(t.Context(), "si_alice_bob"); err != nil {
		t.Error(err)
	}
}

// TestAmbiguousSingleChatIDIsNotGuessed: "si_a_b_c" is a+b_c or a_b+c
// (OpenIM joins the two sorted user IDs with "_",
// pkg/util/conversationutil GenConversationIDForSingle). When the viewer
// and the user collection do not settle it, chatlens says it is ambiguous
// instead of splitting at the first "_"; the owner's conversation.user_id
// settles the peer.
func TestAmbiguousSingleChatIDIsNotGuessed(t *testing.T) {
	b := testkit.TempBackend(t)
	for _, id := range []string{"a", "b_c", "a_b", "c"} {
		testkit.Insert(t, b, bucket.CollUser, bson.D{{Key: "user_id", Value: id}, {Key: "nickname", Value: "N" + id}})
	}
	s := store.New(b, store.Options{})
	_, err := s.MembersFor(t.Context(), "si_a_b_c", "ops")
	var amb *store.AmbiguousIDError
	if !errors.As(err, &amb) || !strings.Contains(err.Error(), "a + b_c or a_b + c") {
		t.Errorf("members of si_a_b_c for ops = %v, want it called ambiguous (a + b_c or a_b + c)", err)
	}
	if ms, err := s.MembersFor(t.Context(), "si_a_b_c", "c"); err != nil || len(ms) != 2 || ms[0].UserID != "a_b" {
		t.Errorf("members for c = %v, %v; want a_b and c (only one split names c)", ms, err)
	}
	if p := store.PeerOf(bucket.Conversation{ConversationID: "si_a_b_c"}, "ops"); p != "" {
		t.Errorf("peer of ops in si_a_b_c = %q, want none (ambiguous)", p)
	}
	if p := store.PeerOf(bucket.Conversation{ConversationID: "si_a_b_c", OwnerUserID: "a", UserID: "b_c"}, "a"); p != "b_c" {
		t.Errorf("peer with conversation.user_id b_c = %q", p)
	}
}

// TestMembersOfLegacyAndNotificationGroups: "g_<group>" is a group chat
// (msgprocessor.IsGroupConversationID) and "n_<group>" the notification
// conversation of a group (msgprocessor.GetNotificationConversationIDByMsg):
// both read their members from group_member.
func TestMembersOfLegacyAndNotificationGroups(t *testing.T) {
	b := testkit.TempBackend(t)
	testkit.Insert(t, b, bucket.CollGroupMember,
		bson.D{{Key: "group_id", Value: "g_1"}, {Key: "user_id", Value: "ann"}, {Key: "role_level", Value: bucket.RoleOwner}},
		bson.D{{Key: "group_id", Value: "g_1"}, {Key: "user_id", Value: "bob"}, {Key: "role_level", Value: bucket.RoleMember}})
	s := store.New(b, store.Options{})
	for _, cid := range []string{"g_g_1", "n_g_1", "sg_g_1"} {
		ms, err := s.Members(t.Context(), cid)
		if err != nil || len(ms) != 2 || ms[0].UserID != "ann" || ms[1].UserID != "bob" {
			t.Errorf("members of %s = %+v, %v; want ann and bob from group_member", cid, ms, err)
		}
	}
	if ms, err := s.Members(t.Context(), "n_ann_bob"); err != nil || len(ms) != 2 || ms[0].UserID != "ann" {
		t.Errorf("members of n_ann_bob = %+v, %v; want its two users", ms, err)
	}
}
