package embedded

import (
	"encoding/binary"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/x/bsonx/bsoncore"

	"github.com/chatlens/chatlens/store/bucket"
)

// operator computes the new value of the field at the end of an update path;
// old is nil when the field is absent. It returns old itself (unchanged) when
// the update changes nothing.
type operator func(old *bson.RawValue) (bson.RawValue, error)

// setTo is MongoDB's $set.
func setTo(v bson.RawValue) operator {
	return func(*bson.RawValue) (bson.RawValue, error) { return v, nil }
}

// setEncoded is $set of a Go value, encoded when the update applies it.
func setEncoded(v any) operator {
	return func(*bson.RawValue) (bson.RawValue, error) {
		raw, err := toRaw(v)
		if err != nil {
			return bson.RawValue{}, fmt.Errorf("encode: %w", err)
		}
		return raw, nil
	}
}

// addToSet is MongoDB's {$addToSet: {path: {$each: values}}}: each value not
// already in the array is appended once; an absent field becomes the array;
// any other type is an error.
func addToSet(values []string) operator {
	return func(old *bson.RawValue) (bson.RawValue, error) {
		var have []bson.RawValue
		if old != nil {
			arr, ok := old.ArrayOK()
			if !ok {
				return bson.RawValue{}, fmt.Errorf("cannot apply $addToSet to a non-array field (it is %s)", describe(*old))
			}
			var err error
			if have, err = arr.Values(); err != nil {
				return bson.RawValue{}, err
			}
		}
		n := len(have)
		for _, s := range values {
			v := rawString(s)
			if !containsValue(have, v) {
				have = append(have, v)
			}
		}
		if old != nil && len(have) == n {
			return *old, nil
		}
		out := startDoc(64)
		for i, v := range have {
			out = appendElem(out, strconv.Itoa(i), v)
		}
		return bson.RawValue{Type: bson.TypeArray, Value: endDoc(out)}, nil
	}
}

// raiseTo is MongoDB's $max with a number: the field becomes n when absent,
// null or a smaller number. Values of types that sort above numbers in BSON
// order (strings, documents, ...) stay, as they do in MongoDB.
func raiseTo(n int64) operator {
	return func(old *bson.RawValue) (bson.RawValue, error) {
		if old == nil {
			return rawInt64(n), nil
		}
		switch old.Type {
		case bson.TypeNull, bson.TypeUndefined, bson.TypeMinKey:
			return rawInt64(n), nil
		case bson.TypeInt32, bson.TypeInt64, bson.TypeDouble:
			if f := old.AsFloat64(); f != f || f < float64(n) { // NaN sorts below every number
				return rawInt64(n), nil
			}
		}
		return *old, nil
	}
}

func containsValue(vals []bson.RawValue, v bson.RawValue) bool {
	for _, h := range vals {
		if h.Equal(v) {
			return true
		}
	}
	return false
}

// update applies op at path (e.g. msgs, 5, msg) to doc, following MongoDB's
// update path rules: a missing field is created, inner parts as documents; an
// array position past the end pads the array with nulls; a path through null
// or a scalar, or a field name into an array, is an error that changes
// nothing. Elements off the path are copied byte for byte.
func update(doc bson.Raw, path []string, op operator) (bson.Raw, error) {
	v, err := updateValue(docValue(doc), path, op)
	if err != nil {
		return nil, fmt.Errorf("update %s: %w", strings.Join(path, "."), err)
	}
	return v.Value, nil
}

func updateValue(v bson.RawValue, path []string, op operator) (bson.RawValue, error) {
	if len(path) == 0 {
		return op(&v)
	}
	switch v.Type {
	case bson.TypeEmbeddedDocument:
		b, err := updateDocument(v.Document(), path, op)
		return bson.RawValue{Type: v.Type, Value: b}, err
	case bson.TypeArray:
		b, err := updateArray(v.Array(), path, op)
		return bson.RawValue{Type: v.Type, Value: b}, err
	}
	return bson.RawValue{}, fmt.Errorf("cannot create field %q in %s", path[0], describe(v))
}

// updateDocument and updateArray compute the changed element first, so the
// copy of the container is allocated once at its final size.
func updateDocument(doc bson.Raw, path []string, op operator) ([]byte, error) {
	elems, err := doc.Elements()
	if err != nil {
		return nil, err
	}
	at := slices.IndexFunc(elems, func(el bson.RawElement) bool { return el.Key() == path[0] })
	var nv bson.RawValue
	if at >= 0 {
		nv, err = updateValue(elems[at].Value(), path[1:], op)
	} else {
		nv, err = create(path[1:], op)
	}
	if err != nil {
		return nil, err
	}
	out := startDoc(len(doc) + len(path[0]) + 2 + len(nv.Value))
	for i, el := range elems {
		if i == at {
			out = appendElem(out, path[0], nv)
		} else {
			out = append(out, el...)
		}
	}
	if at < 0 {
		out = appendElem(out, path[0], nv)
	}
	return endDoc(out), nil
}

func updateArray(arr bson.RawArray, path []string, op operator) ([]byte, error) {
	idx, ok := arrayIndex(path[0])
	if !ok {
		return nil, fmt.Errorf("cannot create field %q in an array", path[0])
	}
	vals, err := arr.Values()
	if err != nil {
		return nil, err
	}
	var nv bson.RawValue
	if idx < len(vals) {
		nv, err = updateValue(vals[idx], path[1:], op)
	} else {
		nv, err = create(path[1:], op)
	}
	if err != nil {
		return nil, err
	}
	n := max(len(vals), idx+1)
	out := startDoc(len(arr) + len(nv.Value) + 12*(n-len(vals)+1))
	for i := range n {
		v := rawNull // padding past the end, as MongoDB does
		switch {
		case i == idx:
			v = nv
		case i < len(vals):
			v = vals[i]
		}
		out = appendElem(out, strconv.Itoa(i), v)
	}
	return endDoc(out), nil
}

// create builds the value of a missing path: documents down to op's result.
func create(path []string, op operator) (bson.RawValue, error) {
	if len(path) == 0 {
		return op(nil)
	}
	inner, err := create(path[1:], op)
	if err != nil {
		return bson.RawValue{}, err
	}
	out := appendElem(startDoc(len(inner.Value)+16), path[0], inner)
	return bson.RawValue{Type: bson.TypeEmbeddedDocument, Value: endDoc(out)}, nil
}

// pathValues collects the values a query path reaches, the way a MongoDB
// filter does: through documents by field name, and through an array both by
// numeric position and into each of its document elements.
func pathValues(v bson.RawValue, path []string, out []bson.RawValue) []bson.RawValue {
	if len(path) == 0 {
		return append(out, v)
	}
	switch v.Type {
	case bson.TypeEmbeddedDocument:
		if f, err := v.Document().LookupErr(path[0]); err == nil {
			out = pathValues(f, path[1:], out)
		}
	case bson.TypeArray:
		vals, _ := v.Array().Values()
		if i, ok := arrayIndex(path[0]); ok && i < len(vals) {
			out = pathValues(vals[i], path[1:], out)
		}
		for _, el := range vals {
			if el.Type == bson.TypeEmbeddedDocument {
				out = pathValues(el, path, out)
			}
		}
	}
	return out
}

// equalsString is MongoDB's {$eq: s} on the values a path reached: a value
// equal to s, or an array holding s.
func equalsString(vals []bson.RawValue, s string) bool {
	want := rawString(s)
	for _, v := range vals {
		if v.Equal(want) {
			return true
		}
		if arr, ok := v.ArrayOK(); ok {
			elems, _ := arr.Values()
			if containsValue(elems, want) {
				return true
			}
		}
	}
	return false
}

// updateSlots applies each edit at "msgs.<slot>.<field...>" of doc, as
// update does one path at a time, but copies the document once rather than
// once per path: the msgs array is split once, each edited slot rewritten,
// the array rebuilt at the end. Where that does not apply (no msgs array, a
// slot past its end, a slot edited twice) it takes the paths one by one.
func updateSlots(doc bson.Raw, edits []slotEdit) (bson.Raw, error) {
	if out, ok := spliceSlots(doc, edits); ok {
		return out, nil
	}
	return updateSlotsRebuilding(doc, edits)
}

// updateSlotsRebuilding is updateSlots for any bucket: the array split
// into values, the edited ones rewritten, array and document rebuilt.
func updateSlotsRebuilding(doc bson.Raw, edits []slotEdit) (bson.Raw, error) {
	oneByOne := func() (bson.Raw, error) {
		var err error
		for _, e := range edits {
			if doc, err = update(doc, slotEditPath(e), e.op); err != nil {
				return nil, err
			}
		}
		return doc, nil
	}
	if len(edits) < 2 {
		return oneByOne()
	}
	msgs, err := doc.LookupErr("msgs")
	if err != nil || msgs.Type != bson.TypeArray {
		return oneByOne()
	}
	vals, err := msgs.Array().Values()
	if err != nil {
		return oneByOne()
	}
	edited := make([]bool, len(vals))
	for _, e := range edits {
		if e.slot >= len(vals) || edited[e.slot] {
			return oneByOne()
		}
		edited[e.slot] = true
	}
	grown := 0
	for _, e := range edits {
		nv, err := updateValue(vals[e.slot], e.field, e.op)
		if err != nil {
			return nil, fmt.Errorf("update %s: %w", strings.Join(slotEditPath(e), "."), err)
		}
		grown += len(nv.Value) - len(vals[e.slot].Value)
		vals[e.slot] = nv
	}
	out := startDoc(len(msgs.Value) + max(grown, 0))
	for i, v := range vals {
		out = appendElem(out, strconv.Itoa(i), v)
	}
	return update(doc, []string{"msgs"}, setTo(bson.RawValue{Type: bson.TypeArray, Value: endDoc(out)}))
}

func slotEditPath(e slotEdit) []string {
	return append([]string{"msgs", strconv.Itoa(e.slot)}, e.field...)
}

// spliceSlots is updateSlots for the usual bucket (a msgs array whose keys
// are its positions, every slot edited present, none twice): each edited
// slot is rewritten and the document copied once around them, where the
// general path splits and rebuilds the array and then the document (two
// copies of ~80 KB and an allocation per slot). It produces the same bytes;
// ok is false when the bucket is not usual (or an edit fails: the general
// path then says why).
func spliceSlots(doc bson.Raw, edits []slotEdit) (bson.Raw, bool) {
	body, ok := framed(doc)
	if !ok {
		return nil, false
	}
	var msgs bsoncore.Element
	arrStart := 4 // msgs' offset in doc
	for rest := body; len(rest) > 0; {
		e, next, ok := bsoncore.ReadElement(rest)
		if !ok {
			return nil, false
		}
		if e.Key() == "msgs" {
			msgs = e
			break
		}
		arrStart += len(e)
		rest = next
	}
	if msgs == nil || msgs[0] != byte(bsoncore.TypeArray) {
		return nil, false
	}
	arr, ok := framed(msgs.Value().Data)
	if !ok {
		return nil, false
	}
	want := make(map[int]slotEdit, len(edits))
	for _, e := range edits {
		if _, twice := want[e.slot]; twice {
			return nil, false
		}
		want[e.slot] = e
	}
	type piece struct {
		elem bsoncore.Element
		nv   *bson.RawValue // the new value of an edited slot
	}
	pieces := make([]piece, 0, bucket.BucketSize)
	size := 0
	var key []byte
	for i := 0; len(arr) > 0; i++ {
		e, next, ok := bsoncore.ReadElement(arr)
		if !ok {
			return nil, false
		}
		if key = strconv.AppendInt(key[:0], int64(i), 10); e.Key() != string(key) {
			return nil, false // the general path renumbers keys
		}
		p := piece{elem: e}
		if ed, edited := want[i]; edited {
			delete(want, i)
			ev := e.Value()
			nv, err := updateValue(bson.RawValue{Type: bson.Type(ev.Type), Value: ev.Data}, ed.field, ed.op)
			if err != nil {
				return nil, false
			}
			p.nv = &nv
			size += 1 + len(key) + 1 + len(nv.Value)
		} else {
			size += len(e)
		}
		pieces = append(pieces, p)
		arr = next
	}
	if len(want) > 0 {
		return nil, false // a slot past the end: the general path pads
	}
	head := 1 + len("msgs") + 1 // type, key, zero
	out := make([]byte, 0, len(doc)-len(msgs)+head+4+size+1)
	out = append(out, doc[:arrStart+head]...)
	at := len(out)
	out = append(out, 0, 0, 0, 0)
	for _, p := range pieces {
		if p.nv == nil {
			out = append(out, p.elem...)
			continue
		}
		out = append(out, byte(p.nv.Type))
		out = append(out, p.elem.Key()...)
		out = append(out, 0)
		out = append(out, p.nv.Value...)
	}
	out = append(out, 0)
	binary.LittleEndian.PutUint32(out[at:], uint32(len(out)-at))
	out = append(out, doc[arrStart+len(msgs):]...)
	binary.LittleEndian.PutUint32(out, uint32(len(out)))
	return out, true
}
