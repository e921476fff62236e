package check

import (
	"context"
	"fmt"
	"io"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
)

// checkPlans asks a backend that can explain (MongoDB) how it runs each of
// chatlens's query shapes. A query that scans the whole msg collection, and
// a sharded msg whose shard key does not start with doc_id (every query by
// doc_id then goes to every shard), are problems; a scan of seq, seq_user,
// conversation, user, group or group_member follows from a missing OpenIM
// index and is advice.
func (r *Report) checkPlans(ctx context.Context, b store.Backend) {
	ex, ok := b.(store.Explainer)
	if !ok {
		return
	}
	plans, err := ex.Explain(ctx)
	r.Plans, r.PlansErr = plans, err
	if plans == nil {
		return
	}
	for _, p := range plans.Plans {
		if p.Scans() && !r.adviseScan(p.Shape, p.Stage) {
			r.add(Problem{Kind: bucket.KindIndex, Slot: -1,
				Reason: fmt.Sprintf("%s scans the whole collection (%s)", p.Shape, p.Stage)})
		}
	}
	if plans.ShardKey != "" && !plans.ShardKeyByDocID {
		r.add(Problem{Kind: bucket.KindIndex, Slot: -1, Reason: fmt.Sprintf(
			"msg is sharded on {%s}, which does not start with doc_id: every query by doc_id goes to every shard", plans.ShardKey)})
	}
}

// writePlans prints one line per query shape and one for the shard key.
func (r *Report) writePlans(w io.Writer) {
	if r.PlansErr != nil {
		fmt.Fprintf(w, "plans: %s\n", clean(r.PlansErr.Error()))
	}
	if r.Plans == nil {
		return
	}
	for _, p := range r.Plans.Plans {
		var how string
		switch {
		case p.Err != nil:
			how = "explain failed: " + p.Err.Error()
		case p.Stage != "":
			how = p.Stage
			if p.Index != "" {
				how += " " + p.Index
			}
			if p.Shards > 0 {
				how += fmt.Sprintf(", %d shard(s)", p.Shards)
			}
			if p.Detail != "" {
				how += " (" + p.Detail + ")"
			}
		default:
			how = "server says: " + p.Detail
		}
		fmt.Fprintf(w, "plan: %s: %s\n", p.Shape, clean(how))
	}
	if n := r.Plans.UpdatesUnexplained; n > 0 {
		fmt.Fprintf(w, "plans: this engine does not explain updates (%d update shape(s) not explained)\n", n)
	}
	switch {
	case r.Plans.ShardKey == "":
		fmt.Fprintln(w, "shard key: msg is not sharded")
	case r.Plans.ShardKeyByDocID:
		fmt.Fprintf(w, "shard key: msg {%s}: a query by doc_id targets one shard\n", clean(r.Plans.ShardKey))
	default:
		fmt.Fprintf(w, "shard key: msg {%s}: does not start with doc_id, queries by doc_id go to every shard\n", clean(r.Plans.ShardKey))
	}
}
