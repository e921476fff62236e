package projection

import (
	"encoding/json"
	"reflect"
	"testing"
)

// Splitting an object and writing it back keeps every member, in order.
func TestParseOrderedRoundTrip(t *testing.T) {
	for _, in := range []string{
		`{}`, ` { } `, `{"a":1}`, `{"z":1,"a":2,"m":3}`,
		`{"s":"}{,\"]","n":-1.5e3,"t":true,"f":false,"x":null}`,
		`{ "o" : { "p" : [1, {"q": "]"}] } , "e":"\\"}`,
		`{"k\"ey":"v","ünï":"ç","a":[]}`,
	} {
		ms, ok := parseOrdered(in)
		if !ok {
			t.Errorf("%s: not read", in)
			continue
		}
		var want, got map[string]any
		json.Unmarshal([]byte(in), &want)
		if err := json.Unmarshal([]byte(encodeOrdered(ms)), &got); err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: round trip gave %s (%v)", in, encodeOrdered(ms), err)
		}
	}
	ms, _ := parseOrdered(`{"z":1,"a":2}`)
	if len(ms) != 2 || ms[0].key != "z" || ms[1].key != "a" {
		t.Errorf("order lost: %v", ms)
	}
	for _, bad := range []string{``, `[]`, `"s"`, `{"a":}`, `{"a":1} x`, `{"a":1`, `null`} {
		if _, ok := parseOrdered(bad); ok {
			t.Errorf("%q read as an object", bad)
		}
	}
}
