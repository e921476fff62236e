package rediscache

import (
	"slices"
	"testing"
)

// Known slots, as answered by `CLUSTER KEYSLOT` of a Redis 7 cluster node.
func TestKeySlot(t *testing.T) {
	tests := []struct {
		key  string
		slot int
	}{
		{"foo", 12182},
		{"somekey", 11058},
		{"hello", 866},
		{"123456789", 12739}, // CRC16-XMODEM check value 0x31C3
		{"user1000", 3443},
		{"{user1000}.following", 3443},
		{"{user1000}.followers", 3443},
		{"foo{}{bar}", 8363},    // empty tag: the whole key is hashed
		{"{}foo", 9500},         // empty tag
		{"foo{{bar}}zap", 4015}, // tag is "{bar"
		{"foo{bar}{zap}", 5061}, // first tag only: "bar"
		{"MSG_CACHE:si_a_b:1", 4159},
	}
	for _, tt := range tests {
		if got := KeySlot(tt.key); got != tt.slot {
			t.Errorf("KeySlot(%q) = %d, want %d", tt.key, got, tt.slot)
		}
	}
}

func TestGroupBySlot(t *testing.T) {
	keys := []string{"{user1000}.following", "foo", "{user1000}.followers", "hello", "user1000"}
	got := GroupBySlot(keys)
	want := []SlotGroup{
		{Slot: 866, Keys: []string{"hello"}},
		{Slot: 3443, Keys: []string{"{user1000}.following", "{user1000}.followers", "user1000"}},
		{Slot: 12182, Keys: []string{"foo"}},
	}
	if !slices.EqualFunc(got, want, func(a, b SlotGroup) bool { return a.Slot == b.Slot && slices.Equal(a.Keys, b.Keys) }) {
		t.Errorf("GroupBySlot = %v, want %v", got, want)
	}
	// The message keys of one conversation spread over many slots: a Cluster
	// cannot put them in one MULTI, which is why each key is tagged alone.
	var msgKeys []string
	for seq := int64(1); seq <= 100; seq++ {
		msgKeys = append(msgKeys, MsgCacheKey("si_a_b", seq))
	}
	if n := len(GroupBySlot(msgKeys)); n < 50 {
		t.Errorf("100 MSG_CACHE keys fall in %d slots; expected them spread", n)
	}
}
