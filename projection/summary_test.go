package projection

import (
	"testing"

	"github.com/chatlens/chatlens/store/bucket"
)

// summaryOf is what bob sees of content at seq 5, every other seq holding a
// visible message (so quotes are resolved and show what they quote).
func summaryOf(ct int32, content string) string {
	visible := func(seq int64) (bucket.StoredSlot, bool) { return stored(seq, message(seq, Text, text("x"))), true }
	return Summary(View(stored(5, message(5, ct, content)), "", "bob", Conv{ID: single}, visible))
}

func TestSummaryContentTypes(t *testing.T) {
	tests := []struct {
		name    string
		ct      int32
		content string
		want    string
	}{
		{"text", Text, text("hello there"), "hello there"},
		{"text over lines becomes one line", Text, text("line one\n\nline two\tend"), "line one line two end"},
		{"CJK and emoji text", Text, text("你好 👋 ❤"), "你好 👋 ❤"},
		{"picture", Picture, `{"sourcePicture":{"url":"u","width":1024,"height":768,"size":1},"bigPicture":{}}`, "[picture 1024×768]"},
		{"picture without size", Picture, `{"sourcePicture":{"url":"u"}}`, "[picture]"},
		{"voice", Voice, `{"sourceUrl":"u","duration":12,"dataSize":1}`, "[voice 0:12]"},
		{"voice without duration", Voice, `{"sourceUrl":"u"}`, "[voice]"},
		{"video", Video, `{"videoUrl":"u","duration":65,"snapshotUrl":"s"}`, "[video 1:05]"},
		{"long video", Video, `{"duration":3725}`, "[video 1:02:05]"},
		{"file", File, `{"fileName":"report.pdf","fileSize":1234567,"sourceUrl":"u"}`, "[file report.pdf · 1.2 MB]"},
		{"file without size", File, `{"fileName":"a.txt"}`, "[file a.txt]"},
		{"file without name", File, `{"fileSize":512}`, "[file 512 B]"},
		{"at text with names", AtText, `{"text":"@u2 @u3 lunch? @AtAllTag","atUserList":["u2","u3"],"atUsersInfo":[{"atUserID":"u2","groupNickname":"Bob"},{"atUserID":"u3","groupNickname":"Carol"}]}`, "@Bob @Carol lunch? @all"},
		{"at text without names", AtText, `{"text":"@u2 hi","atUserList":["u2"]}`, "@u2 hi"},
		{"merger", Merger, `{"title":"Chat history of Alice and Bob","abstractList":["a","b"],"multiMessage":[{},{},{}]}`, "[merged chat: Chat history of Alice and Bob · 3 messages]"},
		{"merger with abstracts only", Merger, `{"title":"T","abstractList":["a"]}`, "[merged chat: T · 1 message]"},
		{"card", Card, `{"userID":"u9","nickname":"Dave","faceURL":""}`, "[card Dave]"},
		{"card without nickname", Card, `{"userID":"u9"}`, "[card u9]"},
		{"location", Location, `{"description":"People's Square","longitude":121.47,"latitude":31.23}`, "[location People's Square 31.23,121.47]"},
		{"location as strings", Location, `{"description":"X","longitude":"121.4737","latitude":"31.2304"}`, "[location X 31.2304,121.4737]"},
		{"custom with description", Custom, `{"data":"{\"k\":1}","description":"poll: lunch","extension":""}`, "[custom poll: lunch]"},
		{"custom with data only", Custom, `{"data":"{\"type\":\"redpacket\",\"amount\":100,\"currency\":\"CNY\",\"memo\":\"happy new year\"}"}`, `[custom {"type":"redpacket","amount":100,"curre…]`},
		{"custom empty", Custom, `{}`, "[custom]"},
		{"quote", Quote, quoteOf("sounds good", 3, text("lunch at 12?")), `sounds good ↩ "lunch at 12?"`},
		{"quote with SDK element only", Quote, `{"text":"ok","quoteMessage":{"seq":3,"contentType":102,"pictureElem":{"sourcePicture":{"width":2,"height":3}}}}`, `ok ↩ "[picture 2×3]"`},
		{"quote of a quote stops nesting", Quote, `{"text":"a","quoteMessage":{"seq":3,"contentType":114,"content":` + jsonOf(quoteOf("b", 2, text("c"))) + `}}`, `a ↩ "b ↩ "…""`},
		{"quote without quoted message", Quote, `{"text":"alone"}`, "alone"},
		{"advanced text", AdvancedText, `{"text":"rich text","messageEntityList":[]}`, "rich text"},
		{"markdown", Markdown, text("# Title\n**bold** and _it_ [link](http://x) ![img](http://y)\n- item\n> quoted\n```\ncode\n```"), "Title bold and _it_ link img item quoted code"},
		{"typing", Typing, `{"msgTips":"yes"}`, "[typing]"},
		{"unknown user type", 199, `{"x":1}`, "[type 199]"},
		{"unknown notification", 1799, `{"detail":"{}"}`, "[type 1799]"},
		{"unknown type, not JSON", 4242, `garbage`, "[type 4242]"},
		{"text that is not JSON", Text, `hello`, "[malformed: type 101 content is not a JSON object: hello]"},
		{"picture that is not JSON", Picture, `[1,2]`, "[malformed: type 102 content is not a JSON object: [1,2]]"},
		{"fields of the wrong type read as absent", File, `{"fileName":7,"fileSize":"big"}`, "[file 7]"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := summaryOf(tc.ct, tc.content); got != tc.want {
				t.Errorf("Summary = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestSummaryStates(t *testing.T) {
	hi := text("hi")
	tests := []struct {
		name string
		m    Message
		want string
	}{
		{"hole", View(stored(5, nil), "", "bob", Conv{ID: single}, nil), "[no message]"},
		{"malformed hole", View(func() (s bucket.StoredSlot) {
			s = stored(5, nil)
			s.Slot = nil
			s.Problem = "slot is int32, not a document"
			return
		}(), "", "bob", Conv{ID: single}, nil),
			"[malformed: slot is int32, not a document]"},
		{"deleted for the viewer", View(stored(5, message(5, Text, hi), deletedBy("bob")), "", "bob", Conv{ID: single}, nil), "[deleted for you]"},
		{"deleted and revoked", View(stored(5, message(5, Text, hi), deletedBy("bob"), revokedBy("alice", "Alice", 100, 1)), "", "bob", Conv{ID: single}, nil), "[deleted for you]"},
		{"revoked by the sender", View(stored(5, message(5, Text, hi), revokedBy("alice", "Alice", 100, 1)), "", "bob", Conv{ID: single}, nil), "Alice revoked a message"},
		{"revoked by an admin", View(stored(5, groupMessage(5, Text, hi), revokedBy("carol", "Carol", 60, 1)), "", "bob", Conv{ID: group}, nil), "Carol revoked a message from Alice"},
		{"revoked by someone with no nickname", View(stored(5, message(5, Text, hi), revokedBy("u7", "", 0, 1)), "", "bob", Conv{ID: single}, nil), "u7 revoked a message from Alice"},
		{"message whose seq disagrees with its slot", func() Message {
			s := stored(5, message(5, Text, hi))
			s.Problem = "message says seq 6 but its slot holds seq 5"
			return View(s, "", "bob", Conv{ID: single}, nil)
		}(), "[malformed: message says seq 6 but its slot holds seq 5] hi"},
		{"deleted status with no content", Message{MsgData: bucket.MsgData{ContentType: Text, Status: 4}}, "[deleted]"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Summary(tc.m); got != tc.want {
				t.Errorf("Summary = %q, want %q", got, tc.want)
			}
		})
	}
}
