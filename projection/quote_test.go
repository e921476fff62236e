package projection

import (
	"encoding/json"
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
		{"quoted slot not at hand: left as stored", stored(9, reply(3)), "bob", lookupOf(), true, 0, "", 0, `yes ↩ "secret"`},
		{"no lookup: left as stored", stored(9, reply(3)), "bob", nil, true, 0, "", 0, `yes ↩ "secret"`},
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
