package bucket_test

import (
	"math"
	"math/rand"
	"reflect"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/check/checktest"
)

// assertSame decodes raw with DecodeBucket and with the reference (the
// decoder as it was before the single-pass rewrite) and checks that the
// slots, their problems and the document problems are identical, and that
// CheckSlot reports the same problems as before for every element of msgs
// and for raw itself read as a slot document.
func assertSame(t testing.TB, what string, raw []byte) {
	t.Helper()
	got, want := bucket.DecodeBucket(raw), refDecodeBucket(raw)
	if !reflect.DeepEqual(got.Problems, want.Problems) {
		t.Fatalf("%s: bucket problems %q, reference %q", what, got.Problems, want.Problems)
	}
	if got.DocID != want.DocID || got.Cid != want.Cid || got.Index != want.Index {
		t.Fatalf("%s: bucket %q %q %d, reference %q %q %d", what, got.DocID, got.Cid, got.Index, want.DocID, want.Cid, want.Index)
	}
	for i := range got.Slots {
		g, w := got.Slots[i], want.Slots[i]
		if !reflect.DeepEqual(g, w) {
			t.Fatalf("%s: slot %d differs\n got %s\nwant %s", what, i, describe(g), describe(w))
		}
	}
	sameCheck(t, what+" as a slot", bson.RawValue{Type: bson.TypeEmbeddedDocument, Value: raw}, 1)
	msgs, err := bson.Raw(raw).LookupErr("msgs")
	if err != nil || msgs.Type != bson.TypeArray {
		return
	}
	elems, err := bson.Raw(msgs.Value).Values()
	if err != nil {
		return
	}
	for i, e := range elems {
		sameCheck(t, what, e, want.Slots[min(i, bucket.BucketSize-1)].Seq)
	}
}

func sameCheck(t testing.TB, what string, v bson.RawValue, seq int64) {
	t.Helper()
	if got, want := bucket.CheckSlot(v, seq), refCheckSlot(v, seq); !reflect.DeepEqual(got, want) {
		t.Fatalf("%s: CheckSlot at seq %d found %q, reference %q", what, seq, got, want)
	}
}

func describe(s bucket.StoredSlot) string {
	out := bson.M{"seq": s.Seq, "problem": s.Problem, "cached": s.Cached, "erased": s.Erased}
	if s.Slot != nil {
		out["slot"] = *s.Slot
		if s.Slot.Msg != nil {
			out["msg"] = *s.Slot.Msg
		}
	}
	b, _ := bson.MarshalExtJSON(out, false, false)
	return string(b)
}

func TestDecodeSameOnDemoDataset(t *testing.T) {
	raws := demoBuckets(t)
	if len(raws) < 5 {
		t.Fatalf("the demo dataset has %d buckets", len(raws))
	}
	for _, raw := range raws {
		id := refDecodeBucket(raw).DocID
		assertSame(t, id, raw)
		assertSame(t, id+" with production extras", withProductionExtras(t, raw))
	}
}

func TestDecodeSameOnMalformedCatalogue(t *testing.T) {
	assertSame(t, "clean bucket", checktest.Raw(checktest.CleanBucket()))
	for _, c := range checktest.Catalogue() {
		assertSame(t, c.Name, checktest.Raw(c.Doc))
	}
}

// TestDecodeSameOnOddValues puts each value of a palette of BSON types in
// each field of a slot, its message, its revoke and its push block: what the
// hand decoder handles must decode as bson.Unmarshal does, the rest must be
// left to it, and the problems must read the same.
func TestDecodeSameOnOddValues(t *testing.T) {
	base := fullSlot()
	for _, path := range fieldPaths(base) {
		for _, v := range palette() {
			slot := setPath(base, path, v)
			assertSame(t, strings.Join(path, ".")+" = "+describeValue(v), bucketOf(slot))
		}
		assertSame(t, "without "+strings.Join(path, "."), bucketOf(deletePath(base, path)))
	}
	for _, b := range []string{"is_read", "msg.is_read", "msg.options.history", "msg.offline_push.ios_badge_count"} {
		raw := bucketOf(base)
		assertSame(t, b+" holds byte 2", patchBoolean(t, raw, b))
	}
}

func TestDecodeSameUnderRandomMutations(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	bases := []bson.Raw{checktest.Raw(checktest.CleanBucket()), withProductionExtras(t, fullestDemoBucket(t))}
	for n := 0; n < 150; n++ {
		var doc bson.D
		if err := bson.Unmarshal(bases[n%len(bases)], &doc); err != nil {
			t.Fatal(err)
		}
		at := len(doc) - 1 // msgs comes last, after _id when there is one
		// The first 30 slots hold every kind of message and keep this quick.
		msgs := append(bson.A{}, doc[at].Value.(bson.A)[:30]...)
		for k := 0; k <= r.Intn(3); k++ {
			i := r.Intn(len(msgs))
			if d, ok := msgs[i].(bson.D); ok {
				msgs[i] = mutate(r, d, 0)
			}
		}
		doc[at].Value = msgs
		raw := checktest.Raw(doc)
		assertSame(t, "mutation", raw)
		// And a few damaged bytes, which the framing checks must catch.
		broken := append([]byte(nil), raw...)
		for k := 0; k <= r.Intn(4); k++ {
			broken[r.Intn(len(broken))] = byte(r.Intn(256))
		}
		assertSame(t, "damaged bytes", broken)
		slot, _ := msgs[r.Intn(len(msgs))].(bson.D)
		sraw := checktest.Raw(slot)
		sraw[r.Intn(len(sraw))] = byte(r.Intn(256))
		sameCheck(t, "damaged slot", bson.RawValue{Type: bson.TypeEmbeddedDocument, Value: sraw}, 1)
	}
}

// FuzzDecodeSame: for any bytes, the new decoder and the reference agree
// and neither panics.
func FuzzDecodeSame(f *testing.F) {
	f.Add([]byte(checktest.Raw(checktest.CleanBucket())))
	f.Add([]byte(bucketOf(fullSlot())))
	for _, c := range checktest.Catalogue() {
		if c.Kind != bucket.KindContentSize { // a megabyte seed slows every iteration
			f.Add([]byte(checktest.Raw(c.Doc)))
		}
	}
	f.Add([]byte(checktest.Raw(fullSlot())))
	f.Add([]byte(checktest.Raw(checktest.EmptySlot())))
	f.Add([]byte{5, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		assertSame(t, "fuzz", data)
	})
}

// fullSlot is a slot using every field of the model: message with options,
// push block and @ list, a revoke and a del_list.
func fullSlot() bson.D {
	msg := checktest.Message(6, 101, `{"content":"hi"}`)
	msg = checktest.With(msg, "options", bson.D{{Key: "history", Value: true}, {Key: "persistent", Value: false}})
	msg = checktest.With(msg, "offline_push", bson.D{{Key: "title", Value: "t"}, {Key: "desc", Value: "d"},
		{Key: "ex", Value: ""}, {Key: "ios_push_sound", Value: "s"}, {Key: "ios_badge_count", Value: true}})
	msg = checktest.With(msg, "at_user_id_list", bson.A{"u_bob", ""})
	revoke := bson.D{{Key: "role", Value: int32(60)}, {Key: "user_id", Value: "u_alice"},
		{Key: "nickname", Value: "A"}, {Key: "time", Value: int64(1700000009999)}}
	return checktest.Slot(msg, revoke, bson.A{"u_bob"}, true)
}

// bucketOf is bucket 0 of checktest.Cid holding slot at position 5 (seq 6)
// after five empty slots: a short msgs array keeps the palette test quick.
func bucketOf(slot bson.D) bson.Raw {
	msgs := bson.A{}
	for range 5 {
		msgs = append(msgs, checktest.EmptySlot())
	}
	return checktest.Raw(checktest.Bucket(checktest.Cid+":0", append(msgs, slot)))
}

// palette holds a value of every BSON type, and the edge values of the
// numeric conversions the driver performs.
func palette() []any {
	return []any{
		"", "x", "6", `{"a":1}`, `not json`,
		int32(0), int32(6), int32(-1), int32(math.MaxInt32), int64(6), int64(0), int64(math.MaxInt32) + 1,
		int64(math.MinInt32) - 1, int64(1) << 40, int64(math.MinInt64),
		6.0, 0.0, math.Copysign(0, -1), 6.5, 1e19, -1e19, math.Inf(1), math.Inf(-1), math.NaN(),
		9.223372036854775807e18, -9.223372036854775808e18, 2147483647.0, 2147483648.0,
		true, false, nil, bson.Undefined{}, bson.Symbol("sym"),
		bson.Binary{Subtype: 0, Data: []byte("bin")}, bson.Binary{Subtype: 4, Data: make([]byte, 16)},
		bson.ObjectID{1, 2, 3}, bson.DateTime(5), bson.Timestamp{T: 1, I: 2}, bson.Decimal128{},
		bson.Regex{Pattern: "a", Options: "i"}, bson.JavaScript("x"), bson.MinKey{}, bson.MaxKey{},
		bson.D{}, bson.D{{Key: "a", Value: true}}, bson.D{{Key: "a", Value: "x"}},
		bson.D{{Key: "a", Value: true}, {Key: "a", Value: false}}, bson.D{{Key: "", Value: false}},
		bson.A{}, bson.A{"a", "b"}, bson.A{int32(1)}, bson.A{nil}, bson.A{"a", bson.D{}},
	}
}

func describeValue(v any) string {
	b, err := bson.MarshalExtJSON(bson.D{{Key: "v", Value: v}}, true, false)
	if err != nil {
		return err.Error()
	}
	return string(b)
}

// fieldPaths lists the path of every field of d, nested ones included.
func fieldPaths(d bson.D) [][]string {
	var out [][]string
	for _, e := range d {
		out = append(out, []string{e.Key})
		if sub, ok := e.Value.(bson.D); ok {
			for _, p := range fieldPaths(sub) {
				out = append(out, append([]string{e.Key}, p...))
			}
		}
	}
	return out
}

func setPath(d bson.D, path []string, v any) bson.D {
	if len(path) == 1 {
		return checktest.With(d, path[0], v)
	}
	for _, e := range d {
		if e.Key == path[0] {
			return checktest.With(d, path[0], setPath(e.Value.(bson.D), path[1:], v))
		}
	}
	return d
}

func deletePath(d bson.D, path []string) bson.D {
	if len(path) == 1 {
		return checktest.Without(d, path[0])
	}
	for _, e := range d {
		if e.Key == path[0] {
			return checktest.With(d, path[0], deletePath(e.Value.(bson.D), path[1:]))
		}
	}
	return d
}

// patchBoolean is raw with the boolean at the dotted path inside slot 5
// set to the byte 2, which no encoder writes.
func patchBoolean(t *testing.T, raw bson.Raw, path string) bson.Raw {
	t.Helper()
	keys := append([]string{"msgs", "5"}, strings.Split(path, ".")...)
	v, err := raw.LookupErr(keys...)
	if err != nil || v.Type != bson.TypeBoolean {
		t.Fatalf("no boolean at %s", path)
	}
	out := append(bson.Raw(nil), raw...)
	out[cap(raw)-cap(v.Value)] = 2
	return out
}

// mutate is a copy of d with one random change: a value replaced from the
// palette, a field removed, repeated, renamed or added, at any depth.
func mutate(r *rand.Rand, d bson.D, depth int) bson.D {
	out := append(bson.D{}, d...)
	if len(out) == 0 {
		return append(out, bson.E{Key: "x", Value: pick(r)})
	}
	i := r.Intn(len(out))
	if r.Intn(3) > 0 && depth < 3 {
		switch v := out[i].Value.(type) {
		case bson.D:
			out[i].Value = mutate(r, v, depth+1)
			return out
		case bson.A:
			a := append(bson.A{}, v...)
			if len(a) > 0 && r.Intn(2) == 0 {
				a[r.Intn(len(a))] = pick(r)
			} else {
				a = append(a, pick(r))
			}
			out[i].Value = a
			return out
		}
	}
	switch r.Intn(6) {
	case 0:
		return append(out[:i], out[i+1:]...)
	case 1:
		return append(out, bson.E{Key: out[i].Key, Value: pick(r)})
	case 2:
		out[i].Key = strings.ToUpper(out[i].Key[:1]) + out[i].Key[1:]
		return out
	case 3:
		return append(out, bson.E{Key: "extra", Value: pick(r)})
	default:
		out[i].Value = pick(r)
		return out
	}
}

func pick(r *rand.Rand) any {
	p := palette()
	return p[r.Intn(len(p))]
}
