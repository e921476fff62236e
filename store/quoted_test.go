package store_test

import (
	"strings"
	"testing"

	"github.com/chatlens/chatlens/projection"
	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/testkit"
)

// quoteMsg is a quote (content type 114) of seq, in the shape OpenIM stores.
func quoteMsg(seq string) *bucket.MsgData {
	return &bucket.MsgData{SendID: "bob", ContentType: projection.Quote, SendTime: 1700000000000,
		Content: `{"text":"re","quoteMessage":{"seq":` + seq + `,"contentType":101,"content":"{\"content\":\"hi\"}"}}`}
}

// TestScanQuotedResolvesQuotesOutsideTheRange: a range read through
// ScanQuoted shows a quote of a revoked message as OpenIM returns it (the
// quoted message rewritten to a revoke, controller/msg.go handlerDBMsg in
// open-im-server), whether the quoted seq is in the batch before or two
// buckets back, and only the slots the quotes name are read besides.
func TestScanQuotedResolvesQuotesOutsideTheRange(t *testing.T) {
	const cid = "si_alice_bob"
	b := testkit.TempBackend(t)
	s := store.New(b, store.Options{})
	s.FindBatch = 1 // one bucket per batch: the batch before is bucket 1 only
	msgs := textMsgs(250)
	msgs[239] = quoteMsg("5")   // seq 240 quotes seq 5, two buckets back
	msgs[240] = quoteMsg("150") // seq 241 quotes seq 150, in the batch before
	if _, err := s.InsertMessages(t.Context(), cid, 1, msgs); err != nil {
		t.Fatal(err)
	}
	for _, seq := range []int64{5, 150} {
		if _, err := s.Revoke(t.Context(), cid, []int64{seq}, bucket.Revoke{Role: bucket.RoleMember, UserID: "alice", Time: 1700000001000}); err != nil {
			t.Fatal(err)
		}
	}
	ws, err := s.Windows(t.Context(), "bob", []string{cid}, nil)
	if err != nil {
		t.Fatal(err)
	}
	conv := projection.Conv{ID: cid, SessionType: bucket.SessionSingle}
	shown := map[int64]projection.Message{}
	var farRead []int64
	err = s.ScanQuoted(t.Context(), ws[cid], 101, 250, projection.QuotedSeqs, func(batch []*bucket.Bucket, lookup bucket.Lookup) error {
		for _, seq := range []int64{5, 7} {
			if _, ok := lookup(seq); ok {
				farRead = append(farRead, seq)
			}
		}
		for _, bk := range batch {
			for _, slot := range bk.Slots {
				if slot.Seq == 240 || slot.Seq == 241 {
					shown[slot.Seq] = projection.View(slot, bk.DocID, "bob", conv, lookup)
				}
			}
		}
		return nil
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, seq := range []int64{240, 241} {
		m := shown[seq]
		if !m.QuoteResolved {
			t.Errorf("seq %d: quote left unresolved", seq)
		}
		if want := `"contentType":2101`; !strings.Contains(m.Content, want) {
			t.Errorf("seq %d shows %s, want the quoted revoked message rewritten (%s)", seq, m.Content, want)
		}
	}
	if len(farRead) != 1 || farRead[0] != 5 {
		t.Errorf("the lookup of bucket 2 holds %v of seqs 5 and 7, want only the quoted 5", farRead)
	}
}
