package store_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/testkit"
)

// The UI's message log shows the operator's own audit lines: AuditTrail
// reads back the file the writes append to, this operator's lines only,
// newest first, and skips a torn last line a killed process left.
func TestAuditTrailIsTheOperatorsNewestFirst(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.log")
	b := testkit.TempBackend(t)
	for _, op := range []string{"ops", "other"} {
		log, f, err := store.OpenAuditLog(path)
		if err != nil {
			t.Fatal(err)
		}
		st := store.New(b, store.Options{Audit: log, Operator: op, ReadOnly: true})
		_, _ = st.Do(t.Context(), store.WriteRequest{Action: store.ActionRevoke, Cid: "si_a_b", By: "a", Seqs: []int64{1}})
		_, _ = st.Do(t.Context(), store.WriteRequest{Action: store.ActionDelete, Cid: "si_a_b", By: "a", Seqs: []int64{2, 3}})
		f.Close()
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = f.WriteString(`{"time":"2024-`) // torn
	f.Close()
	log, f, err := store.OpenAuditLog(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st := store.New(b, store.Options{Audit: log, Operator: "ops"})
	got, err := st.AuditTrail()
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Action != store.ActionDelete || got[1].Action != store.ActionRevoke ||
		got[0].Operator != "ops" || got[0].Result != store.ResultRefused || store.FormatSeqs(got[0].Seqs) != "2-3" {
		t.Errorf("trail %+v, want ops's delete of 2-3 then ops's revoke, both refused", got)
	}
	if none, err := store.New(b, store.Options{}).AuditTrail(); err != nil || len(none) != 0 {
		t.Errorf("a store with no audit log: %v, %v", none, err)
	}
}
