package projection

import (
	"bytes"
	"encoding/json"

	"github.com/chatlens/chatlens/store/bucket"
)

// JSONLine encodes v as one line of JSON that is safe to print on a
// terminal: HTML characters are left alone (they are harmless there), and
// DEL and the characters bucket.UnsafeRune lists, which encoding/json leaves
// raw, are written as \uXXXX escapes.
func JSONLine(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bucket.EscapeJSONLine(buf.Bytes()), nil
}
