package timeline

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/ui/uitest"
)

// TestSearchHitsWhatRowsDraw: a hit is a row whose drawn text holds the
// query, both made alike: a sender's name is drawn, so "🌸" finds Hana's
// rows as the dump's lines do; a skin tone is left out of rows and query
// alike, so "👍🏽" finds a "👍🏾" and a "👍".
func TestSearchHitsWhatRowsDraw(t *testing.T) {
	const cid = "sg_search"
	st, _ := uitest.NewStore(t, false)
	var msgs []*bucket.MsgData
	for i := 1; i <= 6; i++ {
		from, text := "alice", fmt.Sprintf("plain %d", i)
		switch i {
		case 2, 5:
			from = "hana"
		case 3:
			text = "ok 👍🏾"
		case 4:
			text = "ok 👍"
		}
		m := uitest.TextMsg(from, "", "search", bucket.SessionGroup, i, text)
		if from == "hana" {
			m.SenderNickname = "Hana 🌸"
		}
		msgs = append(msgs, m)
	}
	if _, err := st.InsertMessages(context.Background(), cid, 1, msgs); err != nil {
		t.Fatal(err)
	}
	d := newPage(t, st, "alice", 120, 40)
	d.open(cid)
	for _, c := range []struct {
		query string
		want  []int64
	}{
		{"🌸", []int64{2, 5}},
		{"👍🏽", []int64{3, 4}},
		{"HANA", []int64{2, 5}},
	} {
		d.do(d.tl.Search().Start(c.query))
		if h, _ := d.tl.tl.Search().Hits(); !slices.Equal(h.Seqs, c.want) {
			got := h.Seqs
			t.Errorf("search %q hits %v, want %v", c.query, got, c.want)
		}
	}
}
