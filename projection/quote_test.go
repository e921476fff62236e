package projection

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chatlens/chatlens/store/bucket"
)

// quoteOf is a reply quoting the message at seq, the way clients embed it.
func quoteOf(reply string, seq any, content string) string {
	return `{"text":` + jsonOf(reply) + `,"quoteMessage":{"clientMsgID":"c","seq":` + jsonOf(seq) +
		`,"contentType":101,"content":` + jsonOf(content) + `,"status":2,"senderNickname":"Alice",` +
		`"textElem":{"content":"secret"}},"messageEntityList":[]}`
}

// The rules below are OpenIM's (open-im-server pkg/common/storage/
// controller/msg.go handlerDBMsg, which looks the quoted seq up with
// mgo/msg.go GetMsgBySeqIndexIn1Doc): a quote is rewritten only when the
// quoted slot is revoked, or when the quoted seq is 0 or less.
func TestQuoteRewrittenOnlyWhenOpenIMRewrites(t *testing.T) {
	quotedText := text("secret")
	reply := func(seq any) bucket.StoredSlot {
		m := message(9, Quote, quoteOf("yes", seq, quotedText))
		m.SendID = "bob"
		return stored(9, m)
	}
	plain := stored(3, message(3, Text, quotedText))
	deleted := stored(3, message(3, Text, quotedText), deletedBy("bob"))
	revoked := stored(3, message(3, Text, quotedText), revokedBy("alice", "Alice", 100, 1700000005000))
	revokedAndDeleted := stored(3, message(3, Text, quotedText), deletedBy("bob"), revokedBy("alice", "Alice", 100, 1700000005000))
	hole := stored(3, nil)
	missingBucket := bucket.MissingBucket(single, 0).Slots[2]
	standIn := stored(3, &bucket.MsgData{Seq: 3, Status: bucket.StatusDeleted, SendTime: 1700000000002})
	revokeContent := RevokeContent(revoked.Slot.Msg, revoked.Slot.Revoke)

	tests := []struct {
		name        string
		slot        bucket.StoredSlot
		lookup      bucket.Lookup
		unchanged   bool
		wantType    int32
		wantContent string
		wantSummary string
	}{
		{"quoted message visible", reply(3), lookupOf(plain), true, 0, "", `yes ↩ "secret"`},
		{"quoted message deleted for the viewer: left as stored", reply(3), lookupOf(deleted), true, 0, "", `yes ↩ "secret"`},
		{"quoted slot a hole: left as stored", reply(3), lookupOf(hole), true, 0, "", `yes ↩ "secret"`},
		{"quoted slot a cached stand-in: left as stored", reply(3), lookupOf(standIn), true, 0, "", `yes ↩ "secret"`},
		{"quoted seq in a missing bucket: left as stored", reply(3), lookupOf(missingBucket), true, 0, "", `yes ↩ "secret"`},
		{"quoted message revoked", reply(3), lookupOf(revoked), false, RevokeNotice, revokeContent, `yes ↩ "Alice revoked a message"`},
		{"quoted message revoked and deleted for the viewer", reply(3), lookupOf(revokedAndDeleted), false, RevokeNotice, revokeContent, `yes ↩ "Alice revoked a message"`},
		{"quoted seq 0", reply(0), nil, false, RevokeNotice, "{}", `yes ↩ "someone revoked a message"`},
		{"quoted seq below 0", reply(-3), nil, false, RevokeNotice, "{}", `yes ↩ "someone revoked a message"`},
		{"seq written as a string: OpenIM cannot read it", reply("3"), lookupOf(revoked), true, 0, "", `yes ↩ "secret"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := View(tc.slot, "", "bob", Conv{ID: single}, tc.lookup)
			if m.ContentType != Quote || !m.QuoteResolved {
				t.Fatalf("outer content type %d, resolved %v", m.ContentType, m.QuoteResolved)
			}
			if got := Summary(m); got != tc.wantSummary {
				t.Errorf("Summary = %q, want %q", got, tc.wantSummary)
			}
			if tc.unchanged {
				if m.Content != m.RawContent {
					t.Errorf("content changed:\n got %s\nwant %s", m.Content, m.RawContent)
				}
				return
			}
			var c struct {
				Text              string
				QuoteMessage      map[string]json.RawMessage
				MessageEntityList json.RawMessage
			}
			if err := json.Unmarshal([]byte(m.Content), &c); err != nil {
				t.Fatalf("content is not JSON: %v\n%s", err, m.Content)
			}
			var ct int32
			var content string
			json.Unmarshal(c.QuoteMessage["contentType"], &ct)
			json.Unmarshal(c.QuoteMessage["content"], &content)
			if ct != tc.wantType || content != tc.wantContent {
				t.Errorf("quoted: type %d content %q, want %d %q", ct, content, tc.wantType, tc.wantContent)
			}
			if _, kept := c.QuoteMessage["textElem"]; kept {
				t.Error("textElem survived OpenIM's re-encoding")
			}
			if c.Text != "yes" || string(c.MessageEntityList) != "[]" || string(c.QuoteMessage["clientMsgID"]) != `"c"` {
				t.Errorf("other fields lost: %s", m.Content)
			}
		})
	}
}

// A rewritten quote is encoded as OpenIM's handlerDBMsg encodes it: its
// own members only, in its order, every field of the quoted message.
func TestQuoteRewriteIsOpenIMsEncoding(t *testing.T) {
	content := `{"text":"ok","z":1,"quoteMessage":{"seq":-1,"contentType":101,"content":"<x>","ex":"e","extra":1}}`
	m := View(stored(9, message(9, Quote, content)), "", "bob", Conv{ID: single}, nil)
	want := `{"text":"ok","quoteMessage":{"sendID":"","recvID":"","groupID":"","clientMsgID":"","serverMsgID":"",` +
		`"senderPlatformID":0,"senderNickname":"","senderFaceURL":"","sessionType":0,"msgFrom":0,"contentType":2101,` +
		`"content":"{}","seq":-1,"sendTime":0,"createTime":0,"status":0,"isRead":false,"offlinePushInfo":null,` +
		`"atUserIDList":null,"attachedInfo":"","ex":"e","keyVersion":0,"dstUserIDs":null}}`
	if m.Content != want {
		t.Errorf("content:\n got %s\nwant %s", m.Content, want)
	}
	// A quoted content of "e30=" (base64 of "{}") is turned back into "{}",
	// the only rewrite OpenIM makes of a visible quoted message.
	b64 := `{"text":"ok","quoteMessage":{"seq":3,"contentType":101,"content":"e30="}}`
	m = View(stored(9, message(9, Quote, b64)), "", "bob", Conv{ID: single}, lookupOf(stored(3, message(3, Text, text("x")))))
	var c quoteContent
	if err := json.Unmarshal([]byte(m.Content), &c); err != nil || c.QuoteMessage.Content == nil || *c.QuoteMessage.Content != "{}" || c.QuoteMessage.ContentType != Text {
		t.Errorf("e30= quote became %s", m.Content)
	}
	// A quoted seq of 0 already shown as revoked is left alone.
	done := `{"text":"ok","quoteMessage":{"seq":0,"contentType":2101,"content":"x"}}`
	if m := View(stored(9, message(9, Quote, done)), "", "bob", Conv{ID: single}, nil); m.Content != done {
		t.Errorf("revoked seq 0 quote became %s", m.Content)
	}
}

func TestQuoteOfDeletedOrRevokedReply(t *testing.T) {
	calls := 0
	lookup := func(seq int64) (bucket.StoredSlot, bool) { calls++; return bucket.StoredSlot{}, false }
	content := quoteOf("yes", 3, text("x"))
	del := View(stored(9, message(9, Quote, content), deletedBy("bob")), "", "bob", Conv{ID: single}, lookup)
	if del.Content != "" || del.Status != 4 || calls != 0 {
		t.Errorf("deleted reply: content %q status %d lookups %d", del.Content, del.Status, calls)
	}
	rev := View(stored(9, message(9, Quote, content), revokedBy("alice", "Alice", 100, 1)), "", "bob", Conv{ID: single}, lookup)
	if rev.ContentType != 2101 || calls != 0 {
		t.Errorf("revoked reply: type %d lookups %d", rev.ContentType, calls)
	}
}

// Quote content OpenIM cannot read as a quote is left as stored.
func TestMalformedQuotesLeftAlone(t *testing.T) {
	revoked := lookupOf(stored(3, message(3, Text, text("x")), revokedBy("alice", "Alice", 100, 1)))
	for _, content := range []string{
		``, `not json`, `[]`, `{"text":"a"}`, `{"quoteMessage":"str"}`, `{"quoteMessage":{"seq":"x"}}`,
		`{"quoteMessage":{"seq":3}} trailing`, `{"quoteMessage":{"seq":3}`, `{"quoteMessage":null}`,
		`{"quoteMessage":{"seq":3,"sendID":5}}`, `{"text":1,"quoteMessage":{"seq":3}}`,
	} {
		m := View(stored(9, message(9, Quote, content)), "", "bob", Conv{ID: single}, revoked)
		if m.Content != content {
			t.Errorf("%q became %q", content, m.Content)
		}
		_ = Summary(m)
	}
}

// A quote whose quoted slot was needed and not at hand never shows the
// quoted message's stored text, in Summary or in Detail: OpenIM may show
// it revoked. The content itself stays as stored (QuoteResolved false).
func TestUnresolvedQuoteNeverShowsQuotedText(t *testing.T) {
	secret := text("secret")
	tests := []struct {
		name    string
		content string
		lookup  bucket.Lookup
		want    string
	}{
		{"no lookup", quoteOf("yes", 3, secret), nil, "yes ↩ [quoted seq 3]"},
		{"quoted seq not at hand", quoteOf("yes", 3, secret), lookupOf(stored(4, message(4, Text, secret))), "yes ↩ [quoted seq 3]"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := View(stored(9, message(9, Quote, tc.content)), "", "bob", Conv{ID: single}, tc.lookup)
			if got := Summary(m); got != tc.want {
				t.Errorf("Summary = %q, want %q", got, tc.want)
			}
			if m.QuoteResolved {
				t.Error("QuoteResolved is true for a quote nobody checked")
			}
			if m.Content != tc.content {
				t.Errorf("content changed:\n got %s\nwant %s", m.Content, tc.content)
			}
			for _, line := range append(Detail(m, time.UTC), Line(m, time.UTC)) {
				if strings.Contains(line, "secret") {
					t.Errorf("the quoted text shows: %q", line)
				}
			}
		})
	}
}

// The quoted seq is read as OpenIM's encoding/json reads it: the last of
// two "seq" members, a member name in another letter case.
func TestQuoteReadAsOpenIMReadsIt(t *testing.T) {
	secret := text("secret")
	revoked := stored(3, message(3, Text, secret), revokedBy("alice", "Alice", 100, 1))
	visible5 := stored(5, message(5, Text, text("fine")))
	for _, tc := range []struct {
		name, content string
		rewritten     bool
	}{
		{"content named twice", `{"text":"yes","quoteMessage":{"seq":3,"contentType":101,"content":"","content":` + jsonOf(secret) + `}}`, true},
		{"seq named twice: the last counts", `{"text":"yes","quoteMessage":{"seq":5,"seq":3,"contentType":101,"content":` + jsonOf(secret) + `}}`, true},
		{"seq named twice: the last is visible", `{"text":"yes","quoteMessage":{"seq":3,"seq":5,"contentType":101,"content":` + jsonOf(secret) + `}}`, false},
		{"another letter case", `{"text":"yes","QUOTEMESSAGE":{"Seq":3,"contentType":101,"content":` + jsonOf(secret) + `}}`, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := View(stored(9, message(9, Quote, tc.content)), "", "bob", Conv{ID: single}, lookupOf(revoked, visible5))
			if got := m.Content != tc.content; got != tc.rewritten {
				t.Errorf("rewritten %v, want %v: %s", got, tc.rewritten, m.Content)
			}
			if tc.rewritten && strings.Contains(m.Content, "secret") {
				t.Errorf("content still holds the quoted text: %s", m.Content)
			}
		})
	}
}

func TestQuotedSeq(t *testing.T) {
	tests := []struct {
		content string
		want    int64
		ok      bool
	}{
		{quoteOf("a", 3, text("x")), 3, true},
		{quoteOf("a", "250", text("x")), 0, false},
		{`{"quoteMessage":{"seq":7,"seq":8}}`, 8, true},
		{`{"quoteMessage":"{\"seq\":4}"}`, 0, false},
		{`{"quoteMessage":{"seq":0}}`, 0, false},
		{`{"quoteMessage":{"seq":-2}}`, 0, false},
		{`{"quoteMessage":{"seq":1.5}}`, 0, false},
		{`{"quoteMessage":{}}`, 0, false},
		{`{"quoteMessage":null}`, 0, false},
		{`{"QuoteMessage":{"seq":3}}`, 3, true},
		{`{"text":"a"}`, 0, false},
		{`not json`, 0, false},
		{``, 0, false},
	}
	for _, tc := range tests {
		got, ok := QuotedSeq(tc.content)
		if got != tc.want || ok != tc.ok {
			t.Errorf("QuotedSeq(%s) = %d, %v, want %d, %v", tc.content, got, ok, tc.want, tc.ok)
		}
	}
}

func TestQuotedSeqs(t *testing.T) {
	bucketWith := func(index int64, slots ...bucket.StoredSlot) *bucket.Bucket {
		b := bucket.MissingBucket(single, index)
		for _, s := range slots {
			b.Slots[bucket.SlotIndex(s.Seq)] = s
		}
		return b
	}
	quote := func(seq, quoted int64, mods ...func(*bucket.Slot)) bucket.StoredSlot {
		return stored(seq, message(seq, Quote, quoteOf("re", quoted, text("x"))), mods...)
	}
	b5 := bucketWith(5,
		quote(501, 750), // bucket 7, outside the range asked for
		quote(502, 250), // bucket 2
		quote(503, 201), // bucket 2 again
		quote(504, 420), // bucket 4: held
		quote(505, 1),   // bucket 0
		quote(510, 3),   // bucket 0 again
		quote(506, 1000, revokedBy("alice", "Alice", 100, 1)), // revoked: shows the revoke
		quote(507, 450, deletedBy("bob")),                     // deleted for bob, not for alice
		stored(508, message(508, Text, text("plain"))),
		stored(509, message(509, Quote, `{"quoteMessage":{"seq":0}}`)),
	)
	b6 := bucketWith(6, quote(601, 999)) // bucket 9
	held := func(i int64) bool { return i == 4 || i == 5 || i == 6 }
	got := QuotedSeqs([]*bucket.Bucket{b6, b5}, 502, 699, held)
	want := []int64{1, 3, 201, 250, 999}
	if !slices.Equal(got, want) {
		t.Errorf("QuotedSeqs = %v, want %v", got, want)
	}
	if got := QuotedSeqs([]*bucket.Bucket{b5}, 1, 1<<40, nil); !slices.Equal(got, []int64{1, 3, 201, 250, 420, 450, 750}) {
		t.Errorf("QuotedSeqs with nothing at hand = %v, want [1 3 201 250 420 450 750]", got)
	}
	if got := QuotedSeqs(nil, 1, 100, nil); len(got) != 0 {
		t.Errorf("QuotedSeqs of nothing = %v", got)
	}
}
