package projection

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/chatlens/chatlens/store/bucket"
)

// TestJoinersFollowOneRuleInEveryOutput: a zero width joiner or non-joiner
// that joins nothing is written visibly by every output (text, markdown and
// html through Sanitize, dump --format json through JSONLine, reports and
// errors through EscapeUntrusted); one inside an emoji sequence, a Persian
// word or an Indic conjunct is written as it is, by all of them alike.
func TestJoinersFollowOneRuleInEveryOutput(t *testing.T) {
	for _, c := range []struct {
		name, in string
		kept     bool
	}{
		{"joiner between Latin letters", "pay\u200dpal", false},
		{"non-joiner between Latin letters", "pay\u200cpal", false},
		{"non-joiner after an emoji", "\U0001F468\u200c\U0001F469", false},
		{"non-joiner before a space", "\u06cc\u200c x", false},
		{"joiner alone", "\u200d", false},
		{"non-joiner alone", "\u200c", false},
		{"joiner after a bidi override", "\u202e\u200d\U0001F469", false},
		{"family emoji", "\U0001F468\u200d\U0001F469\u200d\U0001F467", true},
		{"technologist with a skin tone", "\U0001F468\U0001F3FD\u200d\U0001F4BB", true},
		{"Persian word", "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645", true}, // می‌خواهم
		{"Devanagari conjunct", "\u0915\u094d\u200d\u0937", true},
		{"Devanagari half form", "\u0915\u094d\u200c\u0937", true},
	} {
		joiner := '\u200d'
		if strings.ContainsRune(c.in, '\u200c') {
			joiner = '\u200c'
		}
		line, err := JSONLine(map[string]string{"t": c.in})
		if err != nil {
			t.Fatal(err)
		}
		var back map[string]string
		if err := json.Unmarshal(line, &back); err != nil || back["t"] != c.in {
			t.Errorf("%s: json does not read back the same text: %q", c.name, line)
		}
		outputs := map[string]string{
			"text":   Sanitize(c.in),
			"json":   string(line),
			"report": bucket.EscapeUntrusted(c.in, 300),
		}
		for name, out := range outputs {
			if raw := strings.ContainsRune(out, joiner); raw != c.kept {
				t.Errorf("%s: %s keeps the joiner %v, want %v: %q", c.name, name, raw, c.kept, out)
			}
		}
		if !c.kept && (!strings.Contains(outputs["text"], fmt.Sprintf("<U+%04X>", joiner)) ||
			!strings.Contains(outputs["json"], fmt.Sprintf(`\u%04x`, joiner))) {
			t.Errorf("%s: the stray joiner is not shown: %q, %q", c.name, outputs["text"], outputs["json"])
		}
		if c.kept && Sanitize(c.in) != strings.ReplaceAll(c.in, "\U0001F3FD", "") {
			t.Errorf("%s: text changed: %q", c.name, Sanitize(c.in))
		}
	}
}
