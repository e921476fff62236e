package check

import (
	"fmt"
	"strings"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
)

// adviseIndexes compares the indexes of a database OpenIM Server also uses
// with the ones OpenIM creates at start-up. A missing one costs scans, not
// correctness, so it is advice, not a problem; one that differs from
// OpenIM's (same keys or same name, other spec) would make MongoDB refuse
// OpenIM's own createIndexes, which is said plainly. Nothing is ever to be
// dropped: the advice says what OpenIM will do, not what to remove. The
// unique doc_id index is checkIndexes' problem, not advice.
func (r *Report) adviseIndexes(b store.Backend, have map[string][]store.IndexInfo) {
	if shared, ok := b.(store.OpenIMIndexed); !ok || !shared.SharesIndexesWithOpenIM() {
		return // the embedded store's key layouts are its own
	}
	for _, want := range store.OpenIMIndexes {
		present, exists := have[want.Coll]
		if !exists {
			continue // a collection this database does not have: nothing reads it
		}
		state, got := store.CompareIndex(want, present)
		switch {
		case state == store.IndexMissing:
			r.Advice = append(r.Advice, fmt.Sprintf(
				"%s has no index on %s: OpenIM creates %s at start-up (import and seed create it too); until then reads of %s scan the collection",
				want.Coll, want.Describe(), want.Name, want.Coll))
		case state == store.IndexConflict && !(want.Coll == bucket.CollMsg && !got.Unique):
			r.Advice = append(r.Advice, fmt.Sprintf(
				"%s index %s is not OpenIM's %s %s: OpenIM's createIndexes at start-up will be refused by MongoDB (code 85/86) while it stands",
				want.Coll, got.Describe(), want.Name, want.Describe()))
		}
	}
}

// adviseScan turns a whole-collection scan of a collection other than msg
// into advice: it follows from a missing OpenIM index and costs time only.
func (r *Report) adviseScan(shape, stage string) bool {
	fields := strings.Fields(shape)
	if len(fields) < 2 || fields[1] == bucket.CollMsg {
		return false
	}
	r.Advice = append(r.Advice, shape+" scans the whole collection ("+stage+")")
	return true
}
