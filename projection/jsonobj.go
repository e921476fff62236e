package projection

import (
	"encoding/json"
	"strconv"
	"strings"
)

// Content is untrusted JSON of many shapes and versions, so it is read
// leniently: a field of the wrong type reads as absent, never as an error.

// object is a JSON object read leniently.
type object map[string]json.RawMessage

// parseObject reads s as a JSON object; ok is false when it is not one.
func parseObject(s string) (object, bool) {
	var o object
	if err := json.Unmarshal([]byte(s), &o); err != nil || o == nil {
		return nil, false
	}
	return o, true
}

// str is a string field; a number is given as its text.
func (o object) str(k string) string {
	raw, ok := o[k]
	if !ok {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var n json.Number
	if json.Unmarshal(raw, &n) == nil {
		return n.String()
	}
	return ""
}

// num is a numeric field, also when encoded as a string (protojson writes
// int64 that way); ok is false when absent or not a number.
func (o object) num(k string) (float64, bool) {
	raw, ok := o[k]
	if !ok {
		return 0, false
	}
	var f float64
	if json.Unmarshal(raw, &f) == nil {
		return f, true
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		if f, err := strconv.ParseFloat(strings.TrimSpace(s), 64); err == nil {
			return f, true
		}
	}
	return 0, false
}

// int is num truncated to an integer, 0 when absent.
func (o object) int(k string) int64 {
	f, _ := o.num(k)
	if f > 9e18 || f < -9e18 {
		return 0
	}
	return int64(f)
}

// obj is an object field, nil when absent or not an object. A string
// holding a JSON object is accepted too: details nest JSON in strings.
func (o object) obj(k string) object {
	raw, ok := o[k]
	if !ok {
		return nil
	}
	var sub object
	if json.Unmarshal(raw, &sub) == nil {
		return sub
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		sub, _ = parseObject(s)
	}
	return sub
}

// objs is an array field of objects; elements that are not objects are skipped.
func (o object) objs(k string) []object {
	var raws []json.RawMessage
	if json.Unmarshal(o[k], &raws) != nil {
		return nil
	}
	out := make([]object, 0, len(raws))
	for _, r := range raws {
		var sub object
		if json.Unmarshal(r, &sub) == nil && sub != nil {
			out = append(out, sub)
		}
	}
	return out
}

// count is the length of an array field, -1 when it is not an array.
func (o object) count(k string) int {
	var raws []json.RawMessage
	if json.Unmarshal(o[k], &raws) != nil {
		return -1
	}
	return len(raws)
}
