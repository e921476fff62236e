package projection

import (
	"encoding/json"
	"html"
	"strings"
	"testing"
	"time"

	"github.com/chatlens/chatlens/store/bucket"
)

func hostileTranscript(format string) string {
	w := bucket.Window{Cid: "sg_g", MinSeq: 5, MaxSeq: 9, SeqMinSeq: 0, UserMinSeq: 5, CapSeq: 9, CapField: "conversation.max_seq"}
	h := TranscriptHead{Store: "mongodb://ops:***@db:27017 openim_v3", Conversation: "sg_g", Viewer: "u1",
		ViewerName: "Eve \x1b]0;title\x07", Window: w, From: 5, To: 9, Captured: time.UnixMilli(1700000000000),
		Version: "chatlens v1.2.3", Zone: time.UTC}
	text, _ := json.Marshal(map[string]string{"content": "<script>alert(1)</script> ![x](http://evil.example/p.png) a|b \x1b[2J \u202eevil"})
	hostile := string(text)
	rows := []TranscriptRow{
		{Message: Message{MsgData: bucket.MsgData{Seq: 5, SendID: "u2", SenderNickname: "<b>Mallory</b>", ContentType: Text, Content: hostile, SendTime: 1700000000000, SessionType: bucket.SessionGroup}}, Why: []string{"shown as stored", "read by 1 of 2: u1"}},
		{Message: Message{MsgData: bucket.MsgData{Seq: 6}, Hole: true}, RunTo: 8},
	}
	return writeTranscript(format, h, rows)
}

// writeTranscript is the whole transcript of rows, as its writer hands it out.
func writeTranscript(format string, h TranscriptHead, rows []TranscriptRow) string {
	w := TranscriptFormats[format].Writer(h)
	var out strings.Builder
	for _, r := range rows {
		out.WriteString(w.Row(r))
	}
	return out.String() + w.End()
}

// A transcript names where it came from and why the window is what it is,
// and no message can smuggle markup or a control character into it.
func TestTranscriptHeaderAndHostileText(t *testing.T) {
	for _, format := range []string{"markdown", "html"} {
		out := hostileTranscript(format)
		for _, want := range []string{"mongodb://ops:***@db:27017", "sg_g", "u1 sees seq 5-9",
			"seq_user.min_seq = 5: the user cleared their own history", "ends at seq 9: conversation.max_seq caps it",
			"2023-11-14 22:13:20 UTC", "chatlens v1.2.3", "read by 1 of 2: u1", "no message (3)", "<U+202E>evil", "a|b"} {
			if format == "markdown" {
				want = mdEscapes.Replace(want)
			} else {
				want = html.EscapeString(want)
			}
			if !strings.Contains(out, want) {
				t.Errorf("%s: no %q in\n%s", format, want, out)
			}
		}
		for _, bad := range []string{"\x1b", "\x07", "\u202e", "<script>", "<b>", "<U+202E>"} {
			if strings.Contains(out, bad) {
				t.Errorf("%s: transcript holds %q:\n%s", format, bad, out)
			}
		}
	}
	md := hostileTranscript("markdown")
	if !strings.Contains(md, `!\[x\](http://evil.example/p.png)`) {
		t.Errorf("markdown cell not escaped:\n%s", md)
	}
	if !strings.Contains(hostileTranscript("html"), "&lt;script&gt;") {
		t.Error("html: the script tag is not escaped")
	}
}

// The HTML file is self-contained: nothing it names is fetched.
func TestHTMLTranscriptLoadsNothing(t *testing.T) {
	out := hostileTranscript("html")
	for _, bad := range []string{"<link", "<script", "<img", "src=", "href=", "@import", "url("} {
		if strings.Contains(out, bad) {
			t.Errorf("html holds %q", bad)
		}
	}
	if !strings.HasPrefix(out, "<!DOCTYPE html>") || !strings.HasSuffix(out, "</html>\n") || !strings.Contains(out, "<style>") {
		t.Error("not one whole HTML document with its style inline")
	}
}
