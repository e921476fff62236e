package store_test

import (
	"context"
	"slices"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store"
)

// noConversationScan fails the test when the conversation collection is
// read by conversation_id: OpenIM indexes it by (owner_user_id,
// conversation_id) only, so that find scans the whole collection.
type noConversationScan struct {
	store.Backend
	t *testing.T
}

func (n noConversationScan) ConversationsByID(context.Context, string) ([]store.Conversation, error) {
	n.t.Error("members read the conversation collection by conversation_id (a collection scan in OpenIM)")
	return nil, nil
}

func insertRaw(t *testing.T, b store.Backend, coll string, docs ...bson.D) {
	t.Helper()
	raws := make([]bson.Raw, len(docs))
	for i, d := range docs {
		raw, err := bson.Marshal(d)
		if err != nil {
			t.Fatal(err)
		}
		raws[i] = raw
	}
	if _, err := b.InsertRaw(t.Context(), coll, raws, store.RawUpsert); err != nil {
		t.Fatal(err)
	}
}

// TestMembersOfASingleChatFromItsID: the two users come from the
// conversation ID with one read (the user collection, for nicknames); a
// user ID containing "_" is settled by the viewer, else by the users the
// user collection knows.
func TestMembersOfASingleChatFromItsID(t *testing.T) {
	b := newBackend(t)
	insertRaw(t, b, store.CollUser,
		bson.D{{Key: "user_id", Value: "a_b"}, {Key: "nickname", Value: "Ab"}},
		bson.D{{Key: "user_id", Value: "c"}, {Key: "nickname", Value: "Cee"}},
		bson.D{{Key: "user_id", Value: "alice"}, {Key: "nickname", Value: "Alice"}})
	insertRaw(t, b, store.CollConversation,
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

// TestRevokerNicknameFromTheUserCollection: the server writes the revoker's
// nickname from the user collection; the group nickname only stands in
// when the user has none. The role comes from group_member.
func TestRevokerNicknameFromTheUserCollection(t *testing.T) {
	b := newBackend(t)
	insertRaw(t, b, store.CollUser,
		bson.D{{Key: "user_id", Value: "u1"}, {Key: "nickname", Value: "Una"}},
		bson.D{{Key: "user_id", Value: "u3"}, {Key: "nickname", Value: "Tres"}})
	insertRaw(t, b, store.CollGroupMember,
		bson.D{{Key: "group_id", Value: "g1"}, {Key: "user_id", Value: "u1"}, {Key: "nickname", Value: "Boss"}, {Key: "role_level", Value: store.RoleOwner}},
		bson.D{{Key: "group_id", Value: "g1"}, {Key: "user_id", Value: "u2"}, {Key: "nickname", Value: "Helper"}, {Key: "role_level", Value: store.RoleAdmin}})
	s := store.New(noConversationScan{Backend: b, t: t}, store.Options{})
	tests := []struct {
		cid, uid, nick string
		role           int32
	}{
		{"sg_g1", "u1", "Una", store.RoleOwner},    // user nickname over group nickname
		{"sg_g1", "u2", "Helper", store.RoleAdmin}, // no user document: the group nickname
		{"si_u1_u3", "u3", "Tres", 0},
	}
	for _, tt := range tests {
		rev, err := s.RevokerAs(t.Context(), tt.cid, tt.uid)
		if err != nil {
			t.Fatal(err)
		}
		if rev.UserID != tt.uid || rev.Nickname != tt.nick || rev.Role != tt.role {
			t.Errorf("revoker %s in %s = %+v, want nickname %q role %d", tt.uid, tt.cid, rev, tt.nick, tt.role)
		}
	}
}
