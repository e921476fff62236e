package timeline

import (
	"strings"
	"testing"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/ui/uitest"
)

// TestRetryReReadsWhatOthersWrote: another process revokes a message on
// screen while the UI is open (the embedded store is shared per
// transaction); R re-reads the held buckets and the row shows the revoke.
func TestRetryReReadsWhatOthersWrote(t *testing.T) {
	st, _ := uitest.NewStore(t, false)
	uitest.SeedSmall(t, st)
	p := newPage(t, st, "alice", 120, 40)
	p.open("si_alice_bob")
	row := func() string {
		for _, l := range strings.Split(p.view(), "\n") {
			if strings.Contains(l, " 119 ") {
				return l
			}
		}
		return ""
	}
	if strings.Contains(row(), "revoked") {
		t.Fatalf("seq 119 revoked before anyone revoked it: %s", row())
	}
	// A write that does not come from this UI: a second Store on the same backend.
	other := store.New(st.Backend(), store.Options{})
	if _, err := other.Revoke(t.Context(), "si_alice_bob", []int64{119}, bucket.Revoke{UserID: "alice", Nickname: "Alice"}); err != nil {
		t.Fatal(err)
	}
	p.do(p.tl.Reload()) // R, with nothing failed
	if !strings.Contains(row(), "revoked") {
		t.Errorf("after R, seq 119 still reads as before the revoke: %s\n%s", row(), p.view())
	}
}
