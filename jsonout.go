package main

import (
	"fmt"
	"io"
	"unicode/utf8"
)

// terminalSafeJSON passes JSON through, escaping the runes encoding/json
// leaves raw that a terminal acts on or that reorder the line: DEL, the C1
// controls (U+009B is CSI to some terminals) and the bidi embeddings,
// overrides and isolates. Outside strings JSON is ASCII, so every such rune
// sits in a string, where "\uXXXX" means the same. json.Encoder writes each
// value in one Write, so a rune is never split across calls.
type terminalSafeJSON struct{ w io.Writer }

func (s terminalSafeJSON) Write(p []byte) (int, error) {
	out := make([]byte, 0, len(p))
	for i := 0; i < len(p); {
		r, size := utf8.DecodeRune(p[i:])
		if r == 0x7f || r >= 0x80 && r <= 0x9f || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 {
			out = fmt.Appendf(out, `\u%04x`, r)
		} else {
			out = append(out, p[i:i+size]...)
		}
		i += size
	}
	if _, err := s.w.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}
