package projection

import (
	"slices"
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store/bucket"
)

// decodedSlots decodes a bucket of cid whose first slots are given as raw
// documents (the rest written as empty slots), as the store reads it.
func decodedSlots(t *testing.T, first ...bson.M) *bucket.Bucket {
	t.Helper()
	msgs := bson.A{}
	for _, s := range first {
		msgs = append(msgs, s)
	}
	for len(msgs) < bucket.BucketSize {
		msgs = append(msgs, bson.M{"msg": nil, "revoke": nil, "del_list": bson.A{}, "is_read": false})
	}
	raw, err := bson.Marshal(bson.M{"doc_id": single + ":0", "msgs": msgs})
	if err != nil {
		t.Fatal(err)
	}
	return bucket.DecodeBucket(raw)
}

func explainOf(m Message, w bucket.Window) string { return strings.Join(Explain(m, w, time.UTC), "; ") }

var everything = bucket.Window{Cid: single, MinSeq: 1, MaxSeq: 1000}

// TestExplainNamesTheRuleOfEachRow: the inspector and dump --explain say
// which read-time rule (the numbered list in doc.go) made the row:
// the del_list entry, the revoke record with its revoker and role, the
// slot-level is_read that OpenIM's filtered update sets
// (mgo/msg.go MarkSingleChatMsgsAsRead), or nothing at all.
func TestExplainNamesTheRuleOfEachRow(t *testing.T) {
	at := time.Date(2024, 1, 8, 10, 54, 38, 0, time.UTC).UnixMilli()
	g := groupMessage(7, Text, `{"content":"hi"}`)
	cases := []struct {
		name string
		m    Message
		want string
	}{
		{"plain", View(stored(5, message(5, Text, `{"content":"hi"}`)), "", "alice", Conv{ID: single}, nil), "shown as stored"},
		{"deleted", View(stored(5, message(5, Text, `{"content":"hi"}`), deletedBy("bob")), "", "bob", Conv{ID: single}, nil), "in del_list of bob"},
		{"revoked in a group", View(stored(7, g, revokedBy("carol", "Carol", bucket.RoleOwner, at)), "", "bob", Conv{ID: group}, nil),
			"revoked by Carol (owner, role 100) at 2024-01-08 10:54:38 UTC"},
		{"revoked in a group by its sender", View(stored(7, g, revokedBy("alice", "Alice", bucket.RoleMember, at)), "", "bob", Conv{ID: group}, nil),
			"revoked by Alice (the sender, ordinary member, role 20) at 2024-01-08 10:54:38 UTC"},
		{"read", View(stored(5, message(5, Text, `{"content":"hi"}`), read), "", "bob", Conv{ID: single}, nil), "read: is_read set by the filtered update"},
		{"deleted and read", View(stored(5, message(5, Text, `{"content":"hi"}`), deletedBy("bob"), read), "", "bob", Conv{ID: single}, nil),
			"in del_list of bob; read: is_read set by the filtered update"},
	}
	for _, c := range cases {
		if got := explainOf(c.m, everything); got != c.want {
			t.Errorf("%s: explained as %q, want %q", c.name, got, c.want)
		}
	}
}

// TestExplainTellsHolesApart: OpenIM's physical delete
// (mgo/msg.go DeleteMsgsPhysicalBySeqs) leaves {msg: null} and nothing
// else; an unused seq is the full empty slot; a bucket never inserted has
// no slots. All three read as the same hole; the explanation names which.
func TestExplainTellsHolesApart(t *testing.T) {
	b := decodedSlots(t, bson.M{"msg": nil})
	physical := View(b.Slots[0], b.DocID, "bob", Conv{ID: single}, nil)
	never := View(b.Slots[1], b.DocID, "bob", Conv{ID: single}, nil)
	missing := bucket.MissingBucket(single, 3)
	gone := View(missing.Slots[0], missing.DocID, "bob", Conv{ID: single}, nil)
	for _, c := range []struct {
		m    Message
		want string
	}{{physical, "hole: physically deleted"}, {never, "hole: never written"}, {gone, "hole: bucket missing"}} {
		if got := Explain(c.m, everything, time.UTC); !slices.Contains(got, c.want) {
			t.Errorf("seq %d explained as %q, want %q among them", c.m.Seq, got, c.want)
		}
	}
}

// TestExplainSaysWhereTheWindowStarts: a seq before the viewer's window
// (GetMsgBySeqsRange pulls from max(seq.min_seq, seq_user.min_seq)) is
// explained by the field that set the start.
func TestExplainSaysWhereTheWindowStarts(t *testing.T) {
	w := bucket.Window{Cid: single, MinSeq: 120, MaxSeq: 300, UserMinSeq: 120}
	m := View(stored(5, message(5, Text, `{"content":"hi"}`)), "", "bob", Conv{ID: single}, nil)
	if got, want := explainOf(m, w), "below bob's first visible seq 120 (cleared history, or joined later)"; got != want {
		t.Errorf("explained as %q, want %q", got, want)
	}
}

// TestExplainSaysACachedMessageIsNotStoredYet: Redis holds new messages
// before MongoDB does (OPENIM.md, Redis).
func TestExplainSaysACachedMessageIsNotStoredYet(t *testing.T) {
	s := stored(5, message(5, Text, `{"content":"hi"}`))
	s.Cached, s.Unstored = true, true
	if got, want := explainOf(View(s, "", "bob", Conv{ID: single}, nil), everything), "from Redis (MSG_CACHE), not yet in MongoDB"; got != want {
		t.Errorf("explained as %q, want %q", got, want)
	}
}

// TestDiffReasonNamesWhoseRuleDiffers: the compare view's reason column.
func TestDiffReasonNamesWhoseRuleDiffers(t *testing.T) {
	s := stored(5, message(5, Text, `{"content":"hi"}`), deletedBy("alice"))
	a, b := View(s, "", "alice", Conv{ID: single}, nil), View(s, "", "bob", Conv{ID: single}, nil)
	if got := DiffReason(a, b, false, false); got != ReasonDeletedA {
		t.Errorf("deleted for alice only: reason %q", got)
	}
	if got := DiffReason(b, a, false, false); got != ReasonDeletedB {
		t.Errorf("deleted for the second viewer only: reason %q", got)
	}
	if got := DiffReason(b, b, false, true); got != ReasonOutsideB {
		t.Errorf("outside B's window: reason %q", got)
	}
	if got := DiffReason(b, b, false, false); got != "" {
		t.Errorf("seen alike: reason %q", got)
	}
}
