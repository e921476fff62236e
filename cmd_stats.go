package main

import (
	"fmt"
	"strconv"

	"github.com/chatlens/chatlens/store"
)

// readStats is --stats of the commands that read (conversations, dump,
// find, check, export): what the command cost the store, on stderr.
type readStats struct {
	Stats bool `name:"stats" help:"Print round trips, bytes read and cache hits to stderr."`
}

// counting runs body and, with --stats, says afterwards what it cost,
// whether it succeeded or not: a failed find has read as much.
func (r readStats) counting(s *session, st *store.Store, body func() error) error {
	err := body()
	if r.Stats {
		fmt.Fprintln(s.stderr, "chatlens: "+statsLine(st))
	}
	return err
}

// statsLine says the round trips and bytes read the backend counted
// (every request since the store was opened, the ones made to open it
// too), or the store's own count of round trips where the backend keeps
// none, and the cache's figures.
func statsLine(st *store.Store) string {
	stats := st.Stats()
	trips, read := stats.RoundTrips, "bytes read not counted by this backend"
	if t, ok := st.Traffic(); ok {
		trips, read = t.Requests, groupDigits(t.BytesRead)+" bytes read"
	}
	return fmt.Sprintf("%d round trips, %s; cache: %d round trips, %d hits, %d misses",
		trips, read, stats.CacheRoundTrips, stats.CacheHits, stats.CacheMisses)
}

// groupDigits writes n with thousands separated by commas: 1,234,567.
func groupDigits(n int64) string {
	s := strconv.FormatInt(n, 10)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
