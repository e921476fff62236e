package rediscache

import (
	"slices"
	"sort"
	"strings"
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

// The Cluster slot model below lives with its tests: chatlens never sends a
// command that spans keys, so no production code needs it; it documents why.

// SlotCount is the number of hash slots of a Redis Cluster.
const SlotCount = 16384

// KeySlot is the Redis Cluster hash slot of key: CRC16-XMODEM of the key, or
// of its {hashtag} when the key has a non-empty one, modulo 16384.
func KeySlot(key string) int {
	if open := strings.IndexByte(key, '{'); open >= 0 {
		if end := strings.IndexByte(key[open+1:], '}'); end > 0 {
			key = key[open+1 : open+1+end]
		}
	}
	return int(crc16(key)) % SlotCount
}

// SlotGroup is the keys that share one hash slot: the only keys a Cluster
// lets one MULTI or multi-key command touch together.
type SlotGroup struct {
	Slot int
	Keys []string
}

// GroupBySlot groups keys by hash slot, slots ascending, keys in input order.
// It models what a go-redis ClusterClient does with a pipeline (one batch per
// slot owner). chatlens never sends a command that spans keys, so no caller
// depends on it to be correct; it documents and tests the Cluster behaviour.
func GroupBySlot(keys []string) []SlotGroup {
	bySlot := map[int][]string{}
	for _, k := range keys {
		s := KeySlot(k)
		bySlot[s] = append(bySlot[s], k)
	}
	out := make([]SlotGroup, 0, len(bySlot))
	for s, ks := range bySlot {
		out = append(out, SlotGroup{Slot: s, Keys: ks})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Slot < out[j].Slot })
	return out
}

// crc16 is CRC-16/XMODEM (poly 0x1021, init 0), the checksum Redis Cluster uses.
func crc16(s string) uint16 {
	var crc uint16
	for i := 0; i < len(s); i++ {
		crc ^= uint16(s[i]) << 8
		for b := 0; b < 8; b++ {
			if crc&0x8000 != 0 {
				crc = crc<<1 ^ 0x1021
			} else {
				crc <<= 1
			}
		}
	}
	return crc
}
