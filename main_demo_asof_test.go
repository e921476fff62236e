package main

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/demo"
)

// The demo tells its own story with evidence: bob deleted two messages of
// the showcase chat for himself, one with IsSyncSelf (the 2102 in
// n_bob_bob dates it) and one without (nothing does). `dump --at` shows
// the dated one as pulled just before its 2102 and deleted just after,
// and the other deleted at both moments, marked unknown.
func TestDemoDumpAtShowsAKnownAndAnUnknownDelete(t *testing.T) {
	t.Parallel()
	s := seeded(t)
	cid := demo.ShowcaseSingleID
	st := s.stored(t)
	var deleted []int64
	for seq, sl := range slotsOf(t, st, cid, 100) {
		if !sl.IsHole() && slices.Contains(sl.Slot.DelList, "bob") {
			deleted = append(deleted, seq)
		}
	}
	var dated, at int64
	for _, sl := range slotsOf(t, st, store.SelfNotificationID("bob"), 200) {
		if sl.IsHole() || sl.Slot.Msg.ContentType != bucket.ContentDeleteNotice {
			continue
		}
		var elem struct{ Detail string }
		var tips struct {
			ConversationID string
			Seqs           []int64
		}
		if json.Unmarshal([]byte(sl.Slot.Msg.Content), &elem) != nil || json.Unmarshal([]byte(elem.Detail), &tips) != nil {
			t.Fatalf("a 2102 of the demo is not DeleteMsgsTips: %s", sl.Slot.Msg.Content)
		}
		if tips.ConversationID == cid && len(tips.Seqs) == 1 {
			dated, at = tips.Seqs[0], sl.Slot.Msg.SendTime
		}
	}
	_ = st.Close(t.Context())
	slices.Sort(deleted)
	if len(deleted) != 2 || !slices.Contains(deleted, dated) {
		t.Fatalf("bob's deletes in %s: %v, the one a 2102 dates: %d; want two, one dated", cid, deleted, dated)
	}
	undated := deleted[0] + deleted[1] - dated
	from, to := fmt.Sprint(deleted[0]), fmt.Sprint(deleted[1])
	for _, moment := range []struct {
		at          int64
		datedGone   bool
		description string
	}{{at - 1, false, "just before the 2102"}, {at + 1, true, "just after the 2102"}} {
		rows := map[int64]map[string]any{}
		for _, r := range s.dumpJSON(t, cid, "bob", "--from", from, "--to", to, "--at", fmt.Sprint(moment.at)) {
			rows[int64(r["seq"].(float64))] = r
		}
		gone := func(seq int64) bool { return rows[seq]["status"] == float64(bucket.StatusDeleted) }
		unknown := func(seq int64) string { return fmt.Sprint(rows[seq]["unknown"]) }
		if gone(dated) != moment.datedGone || strings.Contains(unknown(dated), "deleted") {
			t.Errorf("%s: seq %d (deleted with IsSyncSelf) deleted %v, unknown %s; want deleted %v, nothing unknown of it",
				moment.description, dated, gone(dated), unknown(dated), moment.datedGone)
		}
		if !gone(undated) || !strings.Contains(unknown(undated), "deleted for bob, time unknown: no 2102") {
			t.Errorf("%s: seq %d (deleted without IsSyncSelf) deleted %v, unknown %s; want deleted, its time unknown",
				moment.description, undated, gone(undated), unknown(undated))
		}
	}
}
