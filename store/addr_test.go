package store_test

import (
	"slices"
	"testing"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
)

func TestAddressing(t *testing.T) {
	tests := []struct {
		seq         int64
		index       int64
		slot        int
		docID       string
		first, last int64
	}{
		// The test vectors of OPENIM.md.
		{1, 0, 0, "c:0", 1, 100},
		{100, 0, 99, "c:0", 1, 100},
		{101, 1, 0, "c:1", 101, 200},
		{250, 2, 49, "c:2", 201, 300},
		{10086, 100, 85, "c:100", 10001, 10100},
		// Off by one around the edges: seq/100 would put 100 and 200 in the next bucket.
		{99, 0, 98, "c:0", 1, 100},
		{200, 1, 99, "c:1", 101, 200},
		{201, 2, 0, "c:2", 201, 300},
	}
	for _, tt := range tests {
		if got := bucket.BucketIndex(tt.seq); got != tt.index {
			t.Errorf("BucketIndex(%d) = %d, want %d", tt.seq, got, tt.index)
		}
		if got := bucket.SlotIndex(tt.seq); got != tt.slot {
			t.Errorf("SlotIndex(%d) = %d, want %d", tt.seq, got, tt.slot)
		}
		if got := bucket.DocIDForSeq("c", tt.seq); got != tt.docID {
			t.Errorf("DocIDForSeq(c, %d) = %s, want %s", tt.seq, got, tt.docID)
		}
		if f, l := bucket.FirstSeq(tt.index), bucket.LastSeq(tt.index); f != tt.first || l != tt.last {
			t.Errorf("bucket %d holds %d..%d, want %d..%d", tt.index, f, l, tt.first, tt.last)
		}
	}
}

// TestAddressingRoundTrip checks every seq of the first buckets comes back
// from its (bucket, slot) and no two seqs share a position.
func TestAddressingRoundTrip(t *testing.T) {
	seen := map[[2]int64]int64{}
	for seq := int64(1); seq <= 1000; seq++ {
		idx, slot := bucket.BucketIndex(seq), bucket.SlotIndex(seq)
		if slot < 0 || slot >= bucket.BucketSize {
			t.Fatalf("seq %d: slot %d out of range", seq, slot)
		}
		if back := bucket.FirstSeq(idx) + int64(slot); back != seq {
			t.Fatalf("seq %d -> (%d, %d) -> seq %d", seq, idx, slot, back)
		}
		if other, dup := seen[[2]int64{idx, int64(slot)}]; dup {
			t.Fatalf("seqs %d and %d share bucket %d slot %d", other, seq, idx, slot)
		}
		seen[[2]int64{idx, int64(slot)}] = seq
	}
}

func TestParseDocID(t *testing.T) {
	tests := []struct {
		docID string
		cid   string
		index int64
		ok    bool
	}{
		{"si_a_b:0", "si_a_b", 0, true},
		{"sg_g1:100", "sg_g1", 100, true},
		{"a:b:3", "a:b", 3, true}, // split at the last colon
		{"x:abc", "x", 0, false},
		{"x:007", "x", 0, false}, // not the canonical form of 7
		{"x:-1", "x", 0, false},
		{"x:", "x", 0, false},
		{":5", "", 0, false},
		{"noindex", "", 0, false},
		{"", "", 0, false},
	}
	for _, tt := range tests {
		cid, index, err := bucket.ParseDocID(tt.docID)
		if (err == nil) != tt.ok || cid != tt.cid || index != tt.index {
			t.Errorf("ParseDocID(%q) = %q, %d, %v; want %q, %d, ok %v", tt.docID, cid, index, err, tt.cid, tt.index, tt.ok)
		}
		if tt.ok && bucket.DocID(cid, index) != tt.docID {
			t.Errorf("DocID(%q, %d) does not give back %q", cid, index, tt.docID)
		}
	}
}

func TestBucketsCovering(t *testing.T) {
	tests := []struct {
		from, to int64
		want     []int64
	}{
		{1, 100, []int64{0}},
		{100, 101, []int64{0, 1}},
		{95, 310, []int64{0, 1, 2, 3}},
		{-5, 1, []int64{0}}, // seqs start at 1
		{10, 9, nil},
		{201, 201, []int64{2}},
	}
	for _, tt := range tests {
		if got := bucket.BucketsCovering(tt.from, tt.to); !slices.Equal(got, tt.want) {
			t.Errorf("BucketsCovering(%d, %d) = %v, want %v", tt.from, tt.to, got, tt.want)
		}
	}
}

// TestConversationIDs: the kinds of OpenIM's pkg/msgprocessor/conversation.go
// (GetConversationIDBySessionType, IsGroupConversationID, IsNotification):
// "g_" is the legacy group chat, session type 2 (WriteGroupChatType), a group
// all the same; "n_" is a notification conversation and "sn_" is not one.
func TestConversationIDs(t *testing.T) {
	tests := []struct {
		cid  string
		kind int32
		a, b string
	}{
		{"si_alice_bob", bucket.SessionSingle, "alice", "bob"},
		{"sg_g1", bucket.SessionGroup, "g1", ""},
		{"g_legacy", bucket.SessionWriteGroup, "legacy", ""},
		{"sn_sys_bob", bucket.SessionNotification, "sys", "bob"},
		{"n_x", bucket.SessionNotification, "x", ""},
		{"si_a_b_c", bucket.SessionSingle, "", ""}, // a|b_c or a_b|c: no guess
		{"weird", 0, "", ""},
	}
	for _, tt := range tests {
		kind, a, b := store.SplitConversationID(tt.cid)
		if kind != tt.kind || a != tt.a || b != tt.b {
			t.Errorf("SplitConversationID(%q) = %d %q %q, want %d %q %q", tt.cid, kind, a, b, tt.kind, tt.a, tt.b)
		}
	}
	for cid, want := range map[string][3]bool{ // group, notification conversation
		"sg_g1": {true, false}, "g_legacy": {true, false}, "n_g1": {false, true}, "sn_sys_bob": {false, false}, "si_a_b": {false, false},
	} {
		if g, n := store.IsGroupConversation(cid), bucket.IsNotificationConversation(cid); g != want[0] || n != want[1] {
			t.Errorf("%s: group %v notification %v, want %v %v", cid, g, n, want[0], want[1])
		}
	}
	if store.SingleChatID("bob", "alice") != "si_alice_bob" || store.SingleChatID("alice", "bob") != "si_alice_bob" {
		t.Errorf("SingleChatID does not sort the two users bytewise")
	}
}
