package projection

import (
	"testing"

	"github.com/chatlens/chatlens/store/bucket"
)

// BenchmarkView projects one bucket's worth of mixed slots for one viewer.
func BenchmarkView(b *testing.B) {
	slots := benchSlots()
	lookup := lookupOf(slots[:10]...)
	b.ReportAllocs()
	for b.Loop() {
		for _, s := range slots {
			_ = View(s, "si_alice_bob:0", "bob", Conv{ID: single}, lookup)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(slots)), "ns/slot")
}

// BenchmarkSummary renders one screen line per projected slot.
func BenchmarkSummary(b *testing.B) {
	slots := benchSlots()
	msgs := make([]Message, len(slots))
	for i, s := range slots {
		msgs[i] = View(s, "", "bob", Conv{ID: single}, lookupOf(slots[:10]...))
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, m := range msgs {
			_ = Summary(m)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(msgs)), "ns/msg")
}

func BenchmarkSanitizePlain(b *testing.B) {
	s := "an ordinary message of a reasonable length, nothing odd in it at all"
	b.ReportAllocs()
	for b.Loop() {
		_ = Sanitize(s)
	}
}

func BenchmarkSanitizeHostile(b *testing.B) {
	s := "你好 \x1b]52;c;Y3VybA==\x07 \u202e\x9b text \x1b[2J 👋🏽"
	b.ReportAllocs()
	for b.Loop() {
		_ = Sanitize(s)
	}
}

// benchSlots is a bucket mixing what a demo conversation holds: mostly
// text, some media, quotes, deletes, revokes, notifications and holes.
func benchSlots() []bucket.StoredSlot {
	out := make([]bucket.StoredSlot, 0, bucket.BucketSize)
	for i := int64(1); i <= bucket.BucketSize; i++ {
		var s bucket.StoredSlot
		switch {
		case i%25 == 0:
			s = stored(i, nil)
		case i%10 == 1:
			s = stored(i, message(i, Quote, quoteOf("agreed", 2+4*(i/10%2), text("earlier")))) // quotes seq 2 (deleted for bob) or 6
		case i%10 == 2:
			s = stored(i, message(i, Picture, `{"sourcePicture":{"width":1024,"height":768,"url":"http://x/y.png"}}`), deletedBy("bob"))
		case i%10 == 3:
			s = stored(i, message(i, File, `{"fileName":"report.pdf","fileSize":1234567}`), revokedBy("alice", "Alice", 100, 1))
		case i%10 == 4:
			s = stored(i, message(i, 1509, notice(map[string]any{"opUser": map[string]any{"nickname": "Alice"}, "invitedUserList": []any{map[string]any{"nickname": "Bob"}}})))
		default:
			s = stored(i, message(i, Text, text("a message of ordinary length with a little 中文 and 👋")), read)
		}
		out = append(out, s)
	}
	return out
}
