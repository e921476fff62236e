package check

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
)

// TestEveryScanningShapeIsReported: the collections chatlens reads on every
// open (seq, seq_user, conversation, user, group, group_member) matter as
// much as msg: a collection scan on any of them is reported, by name. On msg
// it is a problem; elsewhere it follows from a missing OpenIM index, which
// is advice (issue 9: a database as OpenIM leaves it must pass check).
func TestEveryScanningShapeIsReported(t *testing.T) {
	shapes := []string{"find seq {conversation_id: {$in}}", "find seq_user {user_id, conversation_id: {$in}}",
		"find conversation {owner_user_id}", "find user {user_id: {$in}}", "find group {group_id: {$in}}",
		"find group_member {group_id}", "find msg {doc_id: $gt} sort limit 1 (next conversation)"}
	for _, shape := range shapes {
		t.Run(shape, func(t *testing.T) {
			plans := store.QueryPlans{Plans: []store.PlanReport{
				{Shape: "find msg {doc_id: {$in}} (read buckets)", Stage: "IXSCAN", Index: "doc_id_1"},
				{Shape: shape, Stage: "COLLSCAN"}}}
			_, b := openCleanStore(t)
			r, err := Run(context.Background(), store.New(explaining{Backend: b, plans: &plans}, store.Options{}), "", nil)
			if err != nil {
				t.Fatal(err)
			}
			found := slices.Clone(r.Advice)
			for _, p := range r.Listed {
				if p.Kind == bucket.KindIndex && strings.Contains(p.Reason, "COLLSCAN") {
					found = append(found, p.Reason)
				}
			}
			if len(found) != 1 || !strings.Contains(found[0], shape) {
				t.Errorf("reported %q, want one line naming %q", found, shape)
			}
			if onMsg := strings.HasPrefix(shape, "find msg"); (r.Problems() == 1) != onMsg {
				t.Errorf("%d problems for a scan of %q; a scan is a problem only on msg", r.Problems(), shape)
			}
		})
	}
}
