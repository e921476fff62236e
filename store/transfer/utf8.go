package transfer

import (
	"bytes"
	"unicode/utf8"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// Extended JSON cannot carry text that is not UTF-8: the driver writes each
// bad byte as U+FFFD, so such a document does not come back byte for byte.

// lossy reports whether line, the Extended JSON of raw, replaced invalid
// UTF-8. The writer escapes the replacement as \ufffd, so only documents
// whose output holds that sequence are walked.
func lossy(raw bson.Raw, line []byte) bool {
	return bytes.Contains(line, []byte(`\ufffd`)) && !validUTF8(raw)
}

// validUTF8 reports whether every key and text value of doc is UTF-8.
func validUTF8(doc bson.Raw) bool {
	elems, err := doc.Elements()
	if err != nil {
		return false
	}
	for _, e := range elems {
		if !utf8.ValidString(e.Key()) {
			return false
		}
		v := e.Value()
		var text []string
		switch v.Type {
		case bson.TypeString:
			s, _ := v.StringValueOK()
			text = []string{s}
		case bson.TypeSymbol:
			s, _ := v.SymbolOK()
			text = []string{s}
		case bson.TypeJavaScript:
			s, _ := v.JavaScriptOK()
			text = []string{s}
		case bson.TypeRegex:
			p, o, _ := v.RegexOK()
			text = []string{p, o}
		case bson.TypeEmbeddedDocument, bson.TypeArray:
			if !validUTF8(bson.Raw(v.Value)) {
				return false
			}
		}
		for _, s := range text {
			if !utf8.ValidString(s) {
				return false
			}
		}
	}
	return true
}
