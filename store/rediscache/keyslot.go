package rediscache

import (
	"sort"
	"strings"
)

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
