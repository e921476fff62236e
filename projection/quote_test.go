package projection

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/chatlens/chatlens/store"
)

// quoteOf is a reply quoting the message at seq, the way clients embed it.
func quoteOf(reply string, seq any, content string) string {
	return `{"text":` + jsonOf(reply) + `,"quoteMessage":{"clientMsgID":"c","seq":` + jsonOf(seq) +
		`,"contentType":101,"content":` + jsonOf(content) + `,"status":2,"senderNickname":"Alice",` +
		`"textElem":{"content":"secret"}},"messageEntityList":[]}`
}

func TestQuotedMessageTreatment(t *testing.T) {
	quotedText := text("secret")
	reply := func(seq any) *store.MsgData {
		m := message(9, Quote, quoteOf("yes", seq, quotedText))
		m.SendID = "bob"
		return m
	}
	plain := stored(3, message(3, Text, quotedText))
	deleted := stored(3, message(3, Text, quotedText), deletedBy("bob"))
	revoked := stored(3, message(3, Text, quotedText), revokedBy("alice", "Alice", 100, 1700000005000))
	hole := stored(3, nil)
	revokeContent := RevokeContent(revoked.Slot.Msg, revoked.Slot.Revoke)

	tests := []struct {
		name        string
		slot        store.StoredSlot
		viewer      string
		lookup      Lookup
		unchanged   bool
		wantType    int32
		wantContent string
		wantStatus  int32
		wantSummary string
	}{
		{"quoted message visible: content untouched", stored(9, reply(3)), "bob", lookupOf(plain), true, 0, "", 0, `yes ↩ "secret"`},
		{"quoted message deleted for the viewer", stored(9, reply(3)), "bob", lookupOf(deleted), false, Text, "", 4, `yes ↩ "[deleted]"`},
		{"quoted message deleted for someone else", stored(9, reply(3)), "alice", lookupOf(deleted), true, 0, "", 0, `yes ↩ "secret"`},
		{"quoted message revoked", stored(9, reply(3)), "bob", lookupOf(revoked), false, 2101, revokeContent, 2, `yes ↩ "Alice revoked a message"`},
		{"quoted slot is a hole", stored(9, reply(3)), "bob", lookupOf(hole), false, Text, "", 4, `yes ↩ "[deleted]"`},
		{"quoted slot not at hand: stored, shown by seq only", stored(9, reply(3)), "bob", lookupOf(), true, 0, "", 0, `yes ↩ [quoted seq 3]`},
		{"no lookup: stored, shown by seq only", stored(9, reply(3)), "bob", nil, true, 0, "", 0, `yes ↩ [quoted seq 3]`},
		{"seq written as a string", stored(9, reply("3")), "bob", lookupOf(deleted), false, Text, "", 4, `yes ↩ "[deleted]"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := View(tc.slot, "", tc.viewer, Conv{ID: single}, tc.lookup)
			if m.ContentType != Quote {
				t.Fatalf("outer content type became %d", m.ContentType)
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
			var ct, status int32
			var content string
			json.Unmarshal(c.QuoteMessage["contentType"], &ct)
			json.Unmarshal(c.QuoteMessage["status"], &status)
			json.Unmarshal(c.QuoteMessage["content"], &content)
			if ct != tc.wantType || content != tc.wantContent || status != tc.wantStatus {
				t.Errorf("quoted: type %d content %q status %d, want %d %q %d", ct, content, status, tc.wantType, tc.wantContent, tc.wantStatus)
			}
			if _, leaked := c.QuoteMessage["textElem"]; leaked {
				t.Error("the quoted text is still readable in textElem")
			}
			if c.Text != "yes" || string(c.MessageEntityList) != "[]" || string(c.QuoteMessage["clientMsgID"]) != `"c"` {
				t.Errorf("other fields lost: %s", m.Content)
			}
		})
	}
}

// The re-encoded content keeps the stored key order and every other field.
func TestQuoteReencodingExact(t *testing.T) {
	content := `{"text":"ok","quoteMessage":{"seq":3,"contentType":101,"content":"{\"content\":\"x\"}","status":2,"ex":"e"},"z":1}`
	m := View(stored(9, message(9, Quote, content)), "", "bob", Conv{ID: single}, lookupOf(stored(3, message(3, Text, text("x")), deletedBy("bob"))))
	want := `{"text":"ok","quoteMessage":{"seq":3,"contentType":101,"content":"","status":4,"ex":"e"},"z":1}`
	if m.Content != want {
		t.Errorf("content:\n got %s\nwant %s", m.Content, want)
	}
}

func TestQuoteOfDeletedOrRevokedReply(t *testing.T) {
	calls := 0
	lookup := func(seq int64) (store.StoredSlot, bool) { calls++; return store.StoredSlot{}, false }
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

// Quote content that does not have the expected shape is left as stored.
func TestMalformedQuotesLeftAlone(t *testing.T) {
	gone := lookupOf(stored(3, nil))
	for _, content := range []string{
		``, `not json`, `[]`, `{"text":"a"}`, `{"quoteMessage":"str"}`, `{"quoteMessage":{"seq":"x"}}`,
		`{"quoteMessage":{"seq":0}}`, `{"quoteMessage":{"seq":-3}}`, `{"quoteMessage":{"seq":3}} trailing`,
		`{"quoteMessage":{"seq":3}`, `{"quoteMessage":null}`,
	} {
		m := View(stored(9, message(9, Quote, content)), "", "bob", Conv{ID: single}, gone)
		if m.Content != content {
			t.Errorf("%q became %q", content, m.Content)
		}
		_ = Summary(m)
	}
}

// A quote whose quoted seq was not checked against its slot never shows the
// quoted message's stored text, in Summary or in Detail: it may have been
// revoked or deleted for the viewer since. The content itself stays as stored
// (Message.QuoteResolved says it is unverified).
func TestUnresolvedQuoteNeverShowsQuotedText(t *testing.T) {
	secret := text("secret")
	everything := func(seq int64) (store.StoredSlot, bool) { return stored(seq, message(seq, Text, text("x"))), true }
	deleted := lookupOf(stored(3, message(3, Text, secret), deletedBy("bob")))
	tests := []struct {
		name    string
		content string
		lookup  Lookup
		want    string
	}{
		{"no lookup", quoteOf("yes", 3, secret), nil, "yes ↩ [quoted seq 3]"},
		{"quoted seq not at hand", quoteOf("yes", 3, secret), lookupOf(stored(4, message(4, Text, secret))), "yes ↩ [quoted seq 3]"},
		{"seq written as a string, no lookup", quoteOf("yes", "3", secret), nil, "yes ↩ [quoted seq 3]"},
		{"no seq to check", `{"text":"yes","quoteMessage":{"contentType":101,"content":` + jsonOf(secret) + `}}`, everything, "yes ↩ [quoted message]"},
		{"seq 0", quoteOf("yes", 0, secret), everything, "yes ↩ [quoted message]"},
		{"seq not an integer", quoteOf("yes", 2.5, secret), everything, "yes ↩ [quoted message]"},
		// Summary reads a quoted message nested as a JSON string too; the
		// rewrite cannot reach it there, so it must not count as treated.
		{"quoted message nested in a string", `{"text":"yes","quoteMessage":` + jsonOf(`{"seq":3,"contentType":101,"content":`+jsonOf(secret)+`}`) + `}`, deleted, "yes ↩ [quoted seq 3]"},
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
			for _, line := range append(Detail(m), Line(m)) {
				if strings.Contains(line, "secret") {
					t.Errorf("the quoted text shows: %q", line)
				}
			}
		})
	}
}

// The treatment of a revoked or deleted quoted message holds against content
// that names its parts twice or in another letter case.
func TestQuoteTreatmentCannotBeSidestepped(t *testing.T) {
	secret := text("secret")
	revoked := stored(3, message(3, Text, secret), revokedBy("alice", "Alice", 100, 1))
	deleted := stored(3, message(3, Text, secret), deletedBy("bob"))
	visible5 := stored(5, message(5, Text, text("fine")))
	twoContents := `{"text":"yes","quoteMessage":{"seq":3,"contentType":101,"content":"","content":` + jsonOf(secret) + `}}`
	otherCase := `{"text":"yes","quoteMessage":{"seq":3,"contentType":101,"content":` + jsonOf(secret) + `},"QuoteMessage":{"seq":5}}`
	twoSeqs := `{"text":"yes","quoteMessage":{"seq":5,"seq":3,"contentType":101,"content":` + jsonOf(secret) + `}}`
	tests := []struct {
		name, content string
		quoted        store.StoredSlot
		want          string
	}{
		{"content named twice, revoked", twoContents, revoked, `yes ↩ "Alice revoked a message"`},
		{"content named twice, deleted", twoContents, deleted, `yes ↩ "[deleted]"`},
		{"another letter case naming a visible seq", otherCase, revoked, `yes ↩ "Alice revoked a message"`},
		{"seq named twice: the last counts", twoSeqs, deleted, `yes ↩ "[deleted]"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := View(stored(9, message(9, Quote, tc.content)), "", "bob", Conv{ID: single}, lookupOf(tc.quoted, visible5))
			if got := Summary(m); got != tc.want {
				t.Errorf("Summary = %q, want %q", got, tc.want)
			}
			if strings.Contains(m.Content, "secret") {
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
		{quoteOf("a", "250", text("x")), 250, true},
		{`{"quoteMessage":{"seq":7,"seq":8}}`, 8, true},
		{`{"quoteMessage":"{\"seq\":4}"}`, 4, true},
		{`{"quoteMessage":{"seq":0}}`, 0, false},
		{`{"quoteMessage":{"seq":-2}}`, 0, false},
		{`{"quoteMessage":{"seq":1.5}}`, 0, false},
		{`{"quoteMessage":{}}`, 0, false},
		{`{"quoteMessage":null}`, 0, false},
		{`{"QuoteMessage":{"seq":3}}`, 0, false},
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

func TestQuotedBuckets(t *testing.T) {
	bucket := func(index int64, slots ...store.StoredSlot) *store.Bucket {
		b := store.MissingBucket(single, index)
		for _, s := range slots {
			b.Slots[store.SlotIndex(s.Seq)] = s
		}
		return b
	}
	quote := func(seq, quoted int64, mods ...func(*store.Slot)) store.StoredSlot {
		return stored(seq, message(seq, Quote, quoteOf("re", quoted, text("x"))), mods...)
	}
	b5 := bucket(5,
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
	b6 := bucket(6, quote(601, 999)) // bucket 9
	held := func(i int64) bool { return i == 4 || i == 5 || i == 6 }
	got := QuotedBuckets([]*store.Bucket{b6, b5}, 502, 699, held)
	want := []int64{0, 2, 9}
	if !slices.Equal(got, want) {
		t.Errorf("QuotedBuckets = %v, want %v", got, want)
	}
	if got := QuotedBuckets([]*store.Bucket{b5}, 1, 1<<40, nil); !slices.Equal(got, []int64{0, 2, 4, 7}) {
		t.Errorf("QuotedBuckets with nothing at hand = %v, want [0 2 4 7]", got)
	}
	if got := QuotedBuckets(nil, 1, 100, nil); len(got) != 0 {
		t.Errorf("QuotedBuckets of nothing = %v", got)
	}
}
