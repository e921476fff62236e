package projection

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestJSONLineEscapesWhatATerminalWouldAct(t *testing.T) {
	in := map[string]string{"content": "a\u009b2Jb\u202eevil\u2066x\x7f\x1b]0;t\a<b>&"}
	line, err := JSONLine(in)
	if err != nil {
		t.Fatal(err)
	}
	s := string(line)
	for _, r := range []string{"\u009b", "\u202e", "\u2066", "\x7f", "\x1b"} {
		if strings.Contains(s, r) {
			t.Errorf("%q left raw in %s", r, s)
		}
	}
	if !strings.Contains(s, "<b>&") || !strings.HasSuffix(s, "}\n") || strings.Count(s, "\n") != 1 {
		t.Errorf("want one line with HTML characters kept, got %q", s)
	}
	var back map[string]string
	if err := json.Unmarshal(line, &back); err != nil || back["content"] != in["content"] {
		t.Errorf("escaped line does not decode to the same value: %v %q", err, back["content"])
	}
}
