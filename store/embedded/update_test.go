package embedded

import (
	"bytes"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// d builds a bson.D from key, value pairs.
func d(kv ...any) bson.D {
	out := bson.D{}
	for i := 0; i+1 < len(kv); i += 2 {
		out = append(out, bson.E{Key: kv[i].(string), Value: kv[i+1]})
	}
	return out
}

func mustRaw(t *testing.T, d bson.D) bson.Raw {
	t.Helper()
	raw, err := bson.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

func str(t *testing.T, s string) bson.RawValue {
	t.Helper()
	v, err := toRaw(s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestUpdateFollowsMongoDB checks the update path rules on well-formed and
// malformed documents against what MongoDB does with the same update.
func TestUpdateFollowsMongoDB(t *testing.T) {
	type D = bson.D
	type A = bson.A
	x := str(t, "x")
	tests := []struct {
		name string
		doc  D
		path string
		op   operator
		want D      // nil when the update must fail
		err  string // part of the error when it fails
	}{
		{"set existing field in place", d("msgs", A{d("msg", nil, "is_read", false)}), "msgs.0.msg", setTo(x),
			d("msgs", A{d("msg", "x", "is_read", false)}), ""},
		{"set new field appends it", d("msgs", A{d("msg", nil)}), "msgs.0.is_read", setTo(bson.RawValue{Type: bson.TypeBoolean, Value: []byte{1}}),
			d("msgs", A{d("msg", nil, "is_read", true)}), ""},
		{"set past a short array pads with nulls", d("msgs", A{}), "msgs.2.msg", setTo(x),
			d("msgs", A{nil, nil, d("msg", "x")}), ""},
		{"set on a missing array creates documents", d("doc_id", "c:0"), "msgs.2.msg", setTo(x),
			d("doc_id", "c:0", "msgs", d("2", d("msg", "x"))), ""},
		{"numeric part of a document is a field name", d("msgs", d("2", d("a", int32(1)))), "msgs.2.msg", setTo(x),
			d("msgs", d("2", d("a", int32(1), "msg", "x"))), ""},
		{"set into a null slot fails", d("msgs", A{nil}), "msgs.0.msg", setTo(x), nil, "cannot create field \"msg\" in null"},
		{"set into a scalar msgs fails", d("msgs", "oops"), "msgs.0.msg", setTo(x), nil, "cannot create field \"0\" in a string"},
		{"field name into an array fails", d("msgs", A{}), "msgs.first.msg", setTo(x), nil, "in an array"},
		{"addToSet creates a missing array", d("msgs", A{d("msg", nil)}), "msgs.0.del_list", addToSet([]string{"u1", "u1"}),
			d("msgs", A{d("msg", nil, "del_list", A{"u1"})}), ""},
		{"addToSet appends only new values", d("msgs", A{d("del_list", A{"u1"})}), "msgs.0.del_list", addToSet([]string{"u1", "u2"}),
			d("msgs", A{d("del_list", A{"u1", "u2"})}), ""},
		{"addToSet on null fails", d("msgs", A{d("del_list", nil)}), "msgs.0.del_list", addToSet([]string{"u1"}), nil, "non-array"},
		{"max raises a smaller number", d("max_seq", int32(3)), "max_seq", raiseTo(5), d("max_seq", int64(5)), ""},
		{"max keeps a larger number", d("max_seq", 7.0), "max_seq", raiseTo(5), d("max_seq", 7.0), ""},
		{"max replaces null", d("max_seq", nil), "max_seq", raiseTo(5), d("max_seq", int64(5)), ""},
		{"max keeps a string (strings sort above numbers)", d("max_seq", "9"), "max_seq", raiseTo(5), d("max_seq", "9"), ""},
		{"max sets a missing field", d("a", int32(1)), "max_seq", raiseTo(5), d("a", int32(1), "max_seq", int64(5)), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := update(mustRaw(t, tt.doc), strings.Split(tt.path, "."), tt.op)
			if tt.want == nil {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want one containing %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if want := mustRaw(t, tt.want); !bytes.Equal(got, want) {
				t.Errorf("got  %s\nwant %s", got, want)
			}
		})
	}
}

// TestUpdateKeepsOtherBytes checks that an update copies every element off
// its path byte for byte, even types chatlens never writes.
func TestUpdateKeepsOtherBytes(t *testing.T) {
	odd := d("dec", bson.NewDecimal128(1, 2), "re", bson.Regex{Pattern: "a", Options: "i"}, "ts", bson.Timestamp{T: 1, I: 2}, "min", bson.MinKey{}, "bin", bson.Binary{Subtype: 4, Data: make([]byte, 16)})
	doc := mustRaw(t, d("_id", bson.NewObjectID(), "odd", odd, "msgs", bson.A{d("msg", nil, "odd", odd)}))
	got, err := update(doc, []string{"msgs", "0", "msg"}, setTo(str(t, "x")))
	if err != nil {
		t.Fatal(err)
	}
	back, err := update(got, []string{"msgs", "0", "msg"}, setTo(rawNull))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(back, doc) {
		t.Errorf("setting a field and setting it back changed the document:\n got %s\nwant %s", bson.Raw(back), doc)
	}
}

// TestNotSentByMatchesLikeNe checks the $ne filter of MarkSlotRead on the
// shapes a slot can have.
func TestNotSentByMatchesLikeNe(t *testing.T) {
	tests := []struct {
		name string
		slot any
		want bool // true: the filter matches, the slot is not the reader's own
	}{
		{"sent by the reader", d("msg", d("send_id", "a")), false},
		{"sent by another", d("msg", d("send_id", "b")), true},
		{"null msg", d("msg", nil), true},
		{"msg without send_id", d("msg", d()), true},
		{"null slot", nil, true},
		{"send_id array holding the reader", d("msg", d("send_id", bson.A{"b", "a"})), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := mustRaw(t, d("msgs", bson.A{tt.slot}))
			vals := pathValues(docValue(doc), []string{"msgs", "0", "msg", "send_id"}, nil)
			if got := !equalsString(vals, "a"); got != tt.want {
				t.Errorf("filter matches = %v, want %v", got, tt.want)
			}
		})
	}
}
