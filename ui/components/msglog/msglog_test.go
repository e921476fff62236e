package msglog

import (
	"testing"
	"time"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/themes"
	"github.com/chatlens/chatlens/ui/common"
)

// The log shows an audit line as what was done, to what: a seed or an
// import names no conversation and no seq, and shows none (it read
// "seed 1  seq : ok").
func TestAuditLineShowsOnlyTheFieldsItHas(t *testing.T) {
	th, err := themes.Get("dark")
	if err != nil {
		t.Fatal(err)
	}
	b := &Box{e: &common.Common{Theme: th}}
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, c := range []struct {
		entry store.AuditEntry
		want  string
	}{
		{store.AuditEntry{Time: at, Action: "seed 1", Result: store.ResultOK}, "audit: seed 1: ok"},
		{store.AuditEntry{Time: at, Action: "import user from u.json", Result: store.ResultFailed, Error: "disk full"},
			"audit: import user from u.json: failed: disk full"},
		{store.AuditEntry{Time: at, Action: "revoke", Conversation: "si_alice_bob", Seqs: store.SeqList{3, 4, 5}, As: "alice", Result: store.ResultOK},
			"audit: revoke si_alice_bob seq 3-5 as alice: ok"},
	} {
		if got := b.auditItem(c.entry).text; got != c.want {
			t.Errorf("audit line %+v shows %q; want %q", c.entry, got, c.want)
		}
	}
}
