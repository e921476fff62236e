package projection

import (
	"bytes"
	"encoding/json"
	"fmt"
	"unicode/utf8"
)

// JSONLine encodes v as one line of JSON that is safe to print on a
// terminal: HTML characters are left alone (they are harmless there), and
// the runes encoding/json leaves raw that a terminal acts on or that reorder
// the line — DEL, the C1 controls (U+009B is CSI to some terminals), bidi
// embeddings, overrides and isolates — are written as \uXXXX escapes. Outside
// strings JSON is ASCII, so every such rune sits in a string, where the
// escape means the same.
func JSONLine(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	p := buf.Bytes()
	out := make([]byte, 0, len(p))
	for i := 0; i < len(p); {
		r, size := utf8.DecodeRune(p[i:])
		if terminalActive(r) {
			out = fmt.Appendf(out, `\u%04x`, r)
		} else {
			out = append(out, p[i:i+size]...)
		}
		i += size
	}
	return out, nil
}

// terminalActive is what Sanitize shows escaped (unsafeRune), plus DEL.
func terminalActive(r rune) bool { return r == 0x7f || unsafeRune(r) }
