package transfer

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/testkit"
)

// importString imports input in insert mode and returns how many
// documents were stored.
func importString(t *testing.T, b store.Backend, coll, input string) (int, error) {
	t.Helper()
	res, err := Import(context.Background(), b, coll, strings.NewReader(input), store.RawInsert, Hooks{})
	return res.Stored(), err
}

func export(t *testing.T, b store.Backend, coll, cid string) (int, string) {
	t.Helper()
	var out bytes.Buffer
	n, err := Export(context.Background(), b, coll, cid, &out, nil)
	if err != nil {
		t.Fatal(err)
	}
	return n, out.String()
}

// scan returns the stored BSON of coll, in scan order.
func scan(t *testing.T, b store.Backend, coll string) []bson.Raw {
	t.Helper()
	var out []bson.Raw
	err := b.ScanRaw(context.Background(), coll, "", func(r bson.Raw) error {
		out = append(out, bytes.Clone(r))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// bucketDoc is a stored bucket of conversation cid holding messages at the
// given slots, with content of the given size.
func bucketDoc(cid string, index int64, contentBytes int, slots ...int) *bucket.Doc {
	d := bucket.NewDoc(bucket.DocID(cid, index))
	for _, i := range slots {
		seq := bucket.FirstSeq(index) + int64(i)
		d.Msgs[i].Msg = &bucket.MsgData{SendID: "u_a", RecvID: "u_b", ContentType: 101, Seq: seq,
			Content:  `{"content":"` + strings.Repeat("é", contentBytes/2) + `"}`,
			SendTime: 1700000000000 + seq, CreateTime: 1700000000000 + seq, Status: bucket.StatusSent,
			SessionType: bucket.SessionSingle, MsgFrom: bucket.MsgFromUser, Options: map[string]bool{"history": true}}
	}
	return d
}

// TestImportNumbers: relaxed and canonical numbers are stored with the type
// they arrive as, and _id is kept as given.
func TestImportNumbers(t *testing.T) {
	b := testkit.TempBackend(t)
	line := `{"_id":{"$oid":"65a1b2c3d4e5f60718293a4b"},"doc_id":"si_a_b:0",` +
		`"i32":5,"i64":5000000000,"neg":-2147483649,"dbl":1.5,"whole":2.0,"exp":1e3,` +
		`"c32":{"$numberInt":"7"},"c64":{"$numberLong":"7"},"cdbl":{"$numberDouble":"7.0"},` +
		`"inf":{"$numberDouble":"Infinity"},"when":{"$date":"2024-01-02T03:04:05.678Z"}}`
	if n, err := importString(t, b, bucket.CollMsg, line+"\n"); err != nil || n != 1 {
		t.Fatalf("import: %d, %v", n, err)
	}
	docs := scan(t, b, bucket.CollMsg)
	if len(docs) != 1 {
		t.Fatalf("%d documents stored, want 1", len(docs))
	}
	want := map[string]bson.Type{
		"i32": bson.TypeInt32, "i64": bson.TypeInt64, "neg": bson.TypeInt64, "dbl": bson.TypeDouble,
		"whole": bson.TypeDouble, "exp": bson.TypeDouble, "c32": bson.TypeInt32, "c64": bson.TypeInt64,
		"cdbl": bson.TypeDouble, "inf": bson.TypeDouble, "when": bson.TypeDateTime, "_id": bson.TypeObjectID,
	}
	for key, typ := range want {
		if got := docs[0].Lookup(key).Type; got != typ {
			t.Errorf("%s stored as %s, want %s", key, got, typ)
		}
	}
	if id := docs[0].Lookup("_id").ObjectID().Hex(); id != "65a1b2c3d4e5f60718293a4b" {
		t.Errorf("_id stored as %s", id)
	}
	if v := docs[0].Lookup("inf").Double(); !math.IsInf(v, 1) {
		t.Errorf("inf stored as %v", v)
	}
	if v := docs[0].Lookup("when").Time(); !v.Equal(time.Date(2024, 1, 2, 3, 4, 5, 678e6, time.UTC)) {
		t.Errorf("date stored as %v", v)
	}
	// The stored bucket decodes: relaxed int32 seqs read as int64 fields.
	relaxed := `{"doc_id":"si_a_b:1","msgs":[{"msg":{"seq":101,"send_time":1700000000000,"content_type":101,` +
		`"content":"{}"},"revoke":null,"del_list":[],"is_read":false}]}`
	if _, err := importString(t, b, bucket.CollMsg, relaxed); err != nil {
		t.Fatal(err)
	}
	found, err := b.FindBuckets(context.Background(), []string{"si_a_b:1"})
	if err != nil || len(found) != 1 {
		t.Fatalf("find: %d, %v", len(found), err)
	}
	if s := bucket.DecodeBucket(found[0]).Slots[0]; s.Slot == nil || s.Slot.Msg.Seq != 101 {
		t.Errorf("relaxed bucket decodes as %+v", s)
	}
}

// TestRoundTrip: export, import into an empty store, export again gives the
// same bytes, and every stored document keeps its exact BSON, malformed
// buckets, odd doc_ids and unusual values included.
func TestRoundTrip(t *testing.T) {
	a := testkit.TempBackend(t)
	docs := []any{
		bucketDoc("si_u_a_u_b", 0, 40, 0, 1, 2, 50),
		bucketDoc("si_u_a_u_b", 1, 40, 0),
		bucketDoc("sg_team", 3, 10, 99),
		bson.D{{Key: "doc_id", Value: "si_u_a_u_b:abc"}, {Key: "msgs", Value: bson.A{nil, "x", int32(3)}}},
		bson.D{{Key: "_id", Value: "text id"}, {Key: "doc_id", Value: int64(7)}, {Key: "msgs", Value: bson.A{}}},
		bson.D{{Key: "doc_id", Value: "sg_odd:2"}, {Key: "vals", Value: bson.A{
			math.Copysign(0, -1), math.NaN(), math.MaxFloat64, int32(math.MinInt32), int64(math.MaxInt64), 0.1,
			bson.DateTime(-1), bson.Binary{Subtype: 4, Data: []byte{1, 2, 3}}, bson.Decimal128{},
			"\x1b]0;title\x07 \u202e 中文 👋 \u2028 \"quoted\" <tag> &", bson.D{}, bson.A{bson.A{}}, bson.Regex{Pattern: "^a", Options: "i"},
			bson.Timestamp{T: 1, I: 2}, bson.MinKey{}, bson.MaxKey{}, true, nil}}},
	}
	testkit.Insert(t, a, bucket.CollMsg, docs...)
	seqs := []any{
		bucket.SeqRecord{ConversationID: "si_u_a_u_b", MaxSeq: 200},
		bucket.SeqRecord{ConversationID: "sg_team", MaxSeq: 400},
	}
	testkit.Insert(t, a, bucket.CollSeq, seqs...)
	for _, coll := range []string{bucket.CollMsg, bucket.CollSeq} {
		n1, out1 := export(t, a, coll, "")
		b := testkit.TempBackend(t)
		n, err := importString(t, b, coll, out1)
		if err != nil || n != n1 {
			t.Fatalf("%s: import of the export: %d of %d, %v", coll, n, n1, err)
		}
		n2, out2 := export(t, b, coll, "")
		if n2 != n1 || out2 != out1 {
			t.Fatalf("%s: second export differs:\n%s\n---\n%s", coll, out1, out2)
		}
		before, after := scan(t, a, coll), scan(t, b, coll)
		for i := range before {
			if !bytes.Equal(before[i], after[i]) {
				t.Errorf("%s document %d changed:\n%s\n%s", coll, i, before[i], after[i])
			}
		}
		if strings.Count(out1, "\n") != n1 {
			t.Errorf("%s: %d lines for %d documents", coll, strings.Count(out1, "\n"), n1)
		}
	}
	_, out := export(t, a, bucket.CollMsg, "")
	for _, want := range []string{`{"$numberInt":"`, `{"$numberLong":"`, `"$numberDouble":"-0.0"`, `"$numberDouble":"NaN"`, `<tag> &`} {
		if !strings.Contains(out, want) {
			t.Errorf("export lacks %s", want)
		}
	}
	if strings.Contains(out, "\x1b") {
		t.Error("export writes an escape character raw")
	}
}

// TestExportConversation: a conversation filter keeps that conversation's
// buckets (the odd ones too) and seq documents, not a conversation whose ID
// merely starts the same way.
func TestExportConversation(t *testing.T) {
	b := testkit.TempBackend(t)
	ctx := context.Background()
	msgs := []any{
		bucketDoc("si_a_b", 0, 4, 1), bucketDoc("si_a_b", 1, 4, 1),
		bucketDoc("si_a_bc", 0, 4, 1), bucketDoc("sg_x", 0, 4, 1),
		bson.D{{Key: "doc_id", Value: "si_a_b:abc"}},
	}
	testkit.Insert(t, b, bucket.CollMsg, msgs...)
	testkit.Insert(t, b, bucket.CollSeq, bucket.SeqRecord{ConversationID: "si_a_b", MaxSeq: 9}, bucket.SeqRecord{ConversationID: "si_a_bc", MaxSeq: 9})
	n, out := export(t, b, bucket.CollMsg, "si_a_b")
	if n != 3 || strings.Contains(out, "si_a_bc") || strings.Contains(out, "sg_x") || !strings.Contains(out, `"si_a_b:abc"`) {
		t.Errorf("msg export of si_a_b: %d documents\n%s", n, out)
	}
	if n, out := export(t, b, bucket.CollSeq, "si_a_b"); n != 1 || strings.Contains(out, "si_a_bc") {
		t.Errorf("seq export of si_a_b: %d documents\n%s", n, out)
	}
	if _, err := Export(ctx, b, bucket.CollUser, "si_a_b", &bytes.Buffer{}, nil); err == nil {
		t.Error("a conversation filter on user is accepted")
	}
}

// TestImportBadLine: the error names the line and what is wrong, in one safe
// line, and the documents before it stay imported.
func TestImportBadLine(t *testing.T) {
	good := func(i int) string { return fmt.Sprintf(`{"doc_id":"si_a_b:%d","msgs":[]}`, i) }
	for _, c := range []struct {
		name, bad string
		line      int
	}{
		{"truncated JSON", `{"doc_id":"si_a_b:9","msgs":[`, 5},
		{"not a document", `[1,2,3]`, 5},
		{"a number", `42`, 5},
		{"bad canonical number", `{"n":{"$numberInt":"x1"}}`, 5},
		{"hostile text", "{\"doc_id\": \x1b]0;owned\x07 \n}", 5},
		{"two documents on one line", `{"doc_id":"si_a_b:7"}{"doc_id":"si_a_b:8"}`, 5},
		{"text after the document", `{"doc_id":"si_a_b:7"} xyz`, 5},
		{"null", `null`, 5},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := testkit.TempBackend(t)
			input := good(0) + "\n" + good(1) + "\n\n" + good(2) + "\n" + c.bad + "\n" + good(3) + "\n"
			n, err := importString(t, b, bucket.CollMsg, input)
			if err == nil {
				t.Fatal("no error")
			}
			msg := err.Error()
			if n != 3 || !strings.Contains(msg, fmt.Sprintf("line %d:", c.line)) || !strings.Contains(msg, "3 documents before it") {
				t.Errorf("got %d, %q; want 3 stored and line %d named", n, msg, c.line)
			}
			if strings.ContainsAny(msg, "\x1b\x07\n\r") {
				t.Errorf("error is not one safe line: %q", msg)
			}
			if got, _ := export(t, b, bucket.CollMsg, ""); got != 3 {
				t.Errorf("%d documents stored, want 3", got)
			}
		})
	}
}

// TestImportRefusesWhatReadersDisagreeOn: a BOM starting a later line
// (files joined with cat) is named as such, not "invalid character 'ï'";
// a document holding doc_id or msgs twice, which one reader takes by its
// first field and another by its last, is refused, not stored.
func TestImportRefusesWhatReadersDisagreeOn(t *testing.T) {
	for _, c := range []struct{ name, bad, want string }{
		{"a BOM on a later line", "\ufeff" + `{"doc_id":"si_a_b:9","msgs":[]}`, "line 2: a byte order mark (U+FEFF) starts this line"},
		{"doc_id twice", `{"doc_id":"si_a_b:9","msgs":[],"doc_id":"si_a_b:8"}`, "line 2: field doc_id appears more than once"},
		{"msgs twice", `{"doc_id":"si_a_b:9","msgs":[],"msgs":[{"msg":null}]}`, "line 2: field msgs appears more than once"},
		{"in an array", `[{"doc_id":"si_a_b:9","doc_id":"x"}]`, "array element 1: field doc_id appears"},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := testkit.TempBackend(t)
			input := `{"doc_id":"si_a_b:0","msgs":[]}` + "\n" + c.bad + "\n"
			if strings.HasPrefix(c.bad, "[") {
				input = c.bad
			}
			_, err := importString(t, b, bucket.CollMsg, input)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("import: %v, want %q", err, c.want)
			}
			if got, _ := export(t, b, bucket.CollMsg, ""); got > 1 {
				t.Errorf("%d documents stored, want the bad one refused", got)
			}
		})
	}
}

// TestImportLineEndings: CRLF, a BOM, blank and white-space lines and a last
// line without a newline all read as the documents they frame.
func TestImportLineEndings(t *testing.T) {
	b := testkit.TempBackend(t)
	input := "\ufeff\r\n  \r\n" + `{"doc_id":"si_a_b:0","n":1}` + "\r\n\t\r\n" + `{"doc_id":"si_a_b:1","n":2}` + "\r\n" + `{"doc_id":"si_a_b:2","n":3}`
	n, err := importString(t, b, bucket.CollMsg, input)
	if err != nil || n != 3 {
		t.Fatalf("import: %d, %v", n, err)
	}
	_, err = importString(t, b, bucket.CollMsg, "\r\n\r\n{bad\r\n")
	if err == nil || !strings.Contains(err.Error(), "line 3:") {
		t.Errorf("error %v does not name line 3", err)
	}
	if n, err := importString(t, b, bucket.CollMsg, " \n\r\n"); n != 0 || err != nil {
		t.Errorf("blank input: %d, %v", n, err)
	}
}

// TestImportHugeLine: a full bucket of big messages, far over 64 KiB on one
// line, imports intact; a line over the limit is refused by line number.
func TestImportHugeLine(t *testing.T) {
	a := testkit.TempBackend(t)
	all := make([]int, 100)
	for i := range all {
		all[i] = i
	}
	huge := testkit.Raw(t, bucketDoc("sg_big", 0, 20_000, all...))
	testkit.Insert(t, a, bucket.CollMsg, huge)
	_, line := export(t, a, bucket.CollMsg, "")
	if len(line) < 1<<20 {
		t.Fatalf("test line is only %d bytes", len(line))
	}
	b := testkit.TempBackend(t)
	if n, err := importString(t, b, bucket.CollMsg, line); err != nil || n != 1 {
		t.Fatalf("import of a %d-byte line: %d, %v", len(line), n, err)
	}
	if got := scan(t, b, bucket.CollMsg); len(got) != 1 || !bytes.Equal(got[0], scan(t, a, bucket.CollMsg)[0]) {
		t.Error("huge bucket changed on the way")
	}
	defer func(old int) { maxLine = old }(maxLine)
	maxLine = 1 << 20
	n, err := importString(t, testkit.TempBackend(t), bucket.CollMsg, `{"doc_id":"x:0"}`+"\n"+line)
	if err == nil || n != 1 || !strings.Contains(err.Error(), "line 2: longer than 1 MiB") {
		t.Errorf("over the limit: %d, %v", n, err)
	}
}

// TestImportArray: mongoexport --jsonArray output imports the same way.
func TestImportArray(t *testing.T) {
	b := testkit.TempBackend(t)
	n, err := importString(t, b, bucket.CollMsg, "[\n"+`{"doc_id":"si_a_b:0"},`+"\r\n"+`{"doc_id":"si_a_b:1","n":{"$numberLong":"5"}}`+"\n]\n")
	if err != nil || n != 2 {
		t.Fatalf("import: %d, %v", n, err)
	}
	if n, _ := export(t, b, bucket.CollMsg, ""); n != 2 {
		t.Errorf("%d documents stored, want 2", n)
	}
	n, err = importString(t, testkit.TempBackend(t), bucket.CollMsg, `[{"doc_id":"a:0"}, {"doc_id": 1`)
	if err == nil || n != 1 || !strings.Contains(err.Error(), "array element 2") {
		t.Errorf("bad element: %d, %v", n, err)
	}
	n, err = importString(t, testkit.TempBackend(t), bucket.CollMsg, `[{"doc_id":"a:0"}] {"doc_id":"a:1"}`)
	if err == nil || n != 1 || !strings.Contains(err.Error(), "more input after the array") {
		t.Errorf("input after the array: %d, %v", n, err)
	}
}

// counting records the InsertRaw batches and can fail one.
// It serves store.RawDocs's InsertRaw; every other call goes to the
// Backend it wraps.
type counting struct {
	store.Backend
	batches []int
	failAt  int // 1-based batch that fails; 0 never
}

func (c *counting) InsertRaw(ctx context.Context, coll string, docs []bson.Raw, mode store.RawMode) (store.RawResult, error) {
	c.batches = append(c.batches, len(docs))
	if len(c.batches) == c.failAt {
		return store.RawResult{}, errors.New("connection reset\nby peer")
	}
	return c.Backend.InsertRaw(ctx, coll, docs, mode)
}

// TestImportBatches: documents are stored BatchSize at a time, progress
// reports the running total, and a failing batch says which documents.
func TestImportBatches(t *testing.T) {
	var input strings.Builder
	for i := range 2*BatchSize + 1 {
		fmt.Fprintf(&input, `{"doc_id":"si_a_b:%d","msgs":[]}`+"\n", i)
	}
	c := &counting{Backend: testkit.TempBackend(t)}
	var progress []int
	res, err := Import(context.Background(), c, bucket.CollMsg, strings.NewReader(input.String()), store.RawInsert, Hooks{Progress: func(d int) { progress = append(progress, d) }})
	if n := res.Stored(); err != nil || n != 2*BatchSize+1 {
		t.Fatalf("import: %d, %v", n, err)
	}
	if fmt.Sprint(c.batches) != fmt.Sprint([]int{BatchSize, BatchSize, 1}) ||
		fmt.Sprint(progress) != fmt.Sprint([]int{BatchSize, 2 * BatchSize, 2*BatchSize + 1}) {
		t.Errorf("batches %v, progress %v", c.batches, progress)
	}
	c = &counting{Backend: testkit.TempBackend(t), failAt: 2}
	res, err = Import(context.Background(), c, bucket.CollMsg, strings.NewReader(input.String()), store.RawInsert, Hooks{})
	want := fmt.Sprintf("import: storing documents %d-%d: connection reset\\nby peer; %d documents before them were stored",
		BatchSize+1, 2*BatchSize, BatchSize)
	if n := res.Stored(); n != BatchSize || err == nil || err.Error() != want {
		t.Errorf("failing batch: %d, %v; want %d, %s", n, err, BatchSize, want)
	}
}

// TestExportInvalidUTF8: text that Extended JSON cannot carry is still
// written, and the export says so instead of promising a faithful copy.
func TestExportInvalidUTF8(t *testing.T) {
	b := testkit.TempBackend(t)
	docs := []any{
		bson.D{{Key: "doc_id", Value: "si_a_b:0"}, {Key: "t", Value: `literal \ufffd and real ` + "\ufffd"},
			{Key: "sym", Value: bson.Symbol("s")}, {Key: "js", Value: bson.JavaScript("f()")}, {Key: "re", Value: bson.Regex{Pattern: "é"}}},
		bson.D{{Key: "doc_id", Value: "si_a_b:1"}, {Key: "t", Value: bson.A{"ok", "bad \xff byte"}}},
		bson.D{{Key: "doc_id", Value: "si_a_b:2"}},
	}
	testkit.Insert(t, b, bucket.CollMsg, docs...)
	var out bytes.Buffer
	n, err := Export(context.Background(), b, bucket.CollMsg, "", &out, nil)
	if n != 3 || strings.Count(out.String(), "\n") != 3 {
		t.Errorf("wrote %d documents, %d lines; want 3", n, strings.Count(out.String(), "\n"))
	}
	if err == nil || !strings.Contains(err.Error(), `1 of them (first: doc_id "si_a_b:1")`) {
		t.Errorf("error %v does not name the one lossy document", err)
	}
}

// TestCancel: a cancelled import or export stops and says why, and the cause
// stays visible to errors.Is.
func TestCancel(t *testing.T) {
	b := testkit.TempBackend(t)
	if _, err := importString(t, b, bucket.CollMsg, `{"doc_id":"a:0"}`); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if res, err := Import(ctx, b, bucket.CollMsg, strings.NewReader(`{"doc_id":"a:1"}`), store.RawInsert, Hooks{}); res.Stored() != 0 || !errors.Is(err, context.Canceled) {
		t.Errorf("import: %+v, %v", res, err)
	}
	if n, err := Export(ctx, b, bucket.CollMsg, "", &bytes.Buffer{}, nil); n != 0 || !errors.Is(err, context.Canceled) {
		t.Errorf("export: %d, %v", n, err)
	}
}

// TestExportEscapesUnsafeCharacters: export prints to terminals too, so the
// characters no output writes raw (C1 controls such as U+009B, which some
// terminals take as CSI, bidi controls and marks, line separators,
// invisible characters, DEL) are written as \u escapes; the line is the same
// JSON, and importing it gives back the same bytes.
func TestExportEscapesUnsafeCharacters(t *testing.T) {
	a := testkit.TempBackend(t)
	text := "a\u0085b\u009b31mc\u009d0;t\u009c \u202eabc\u200f \u2028\u2029 pay\u200bpal\ufeff \x7f 中文 👋"
	doc := testkit.Raw(t, bson.D{{Key: "_id", Value: "x"}, {Key: "doc_id", Value: "si_u_a_u_b:0"},
		{Key: "k\u009b", Value: text}})
	testkit.Insert(t, a, bucket.CollMsg, doc)
	_, out := export(t, a, bucket.CollMsg, "")
	for _, r := range out {
		if r == 0x7f || bucket.UnsafeRune(r) {
			t.Errorf("export writes %U raw: %q", r, out)
		}
	}
	if !strings.Contains(out, `\u0085`) || !strings.Contains(out, `\u009b`) || !strings.Contains(out, "中文 👋") {
		t.Errorf("export does not escape C1 controls, or escapes plain text: %s", out)
	}
	b := testkit.TempBackend(t)
	if _, err := importString(t, b, bucket.CollMsg, out); err != nil {
		t.Fatal(err)
	}
	if got := scan(t, b, bucket.CollMsg); len(got) != 1 || !bytes.Equal(got[0], doc) {
		t.Errorf("import of the escaped export changed the document:\n%v\n%v", got, doc)
	}
}

// TestImportBatchesBoundedByBytes: large documents are stored a few MiB at
// a time, not BatchSize at a time, so a 1 GB file of full buckets is never
// held by the hundred MiB.
func TestImportBatchesBoundedByBytes(t *testing.T) {
	var input strings.Builder
	for i := range 10 {
		fmt.Fprintf(&input, `{"doc_id":"si_a_b:%d","pad":"%s"}`+"\n", i, strings.Repeat("x", BatchBytes/4))
	}
	c := &counting{Backend: testkit.TempBackend(t)}
	res, err := Import(context.Background(), c, bucket.CollMsg, strings.NewReader(input.String()), store.RawInsert, Hooks{})
	if n := res.Stored(); err != nil || n != 10 {
		t.Fatalf("import: %d, %v", n, err)
	}
	if fmt.Sprint(c.batches) != fmt.Sprint([]int{4, 4, 2}) {
		t.Errorf("batches %v, want [4 4 2]: each under %d MiB", c.batches, BatchBytes>>20)
	}
}

// TestImportInterruptedSaysWhereItStopped: a Ctrl-C between batches stops
// before the next line is read, and the error names the range of the input
// stored and the first line not stored; every line before it is stored.
// Before, it gave a count alone, of documents, not of lines.
func TestImportInterruptedSaysWhereItStopped(t *testing.T) {
	for _, c := range []struct {
		name string
		unit string
		join func(docs []string) string
	}{
		{"lines", "line", func(docs []string) string { return strings.Join(docs, "\n") + "\n" }},
		{"array", "array element", func(docs []string) string { return "[" + strings.Join(docs, ",\n") + "]" }},
	} {
		t.Run(c.name, func(t *testing.T) {
			docs := make([]string, 2*BatchSize+1)
			for i := range docs {
				docs[i] = fmt.Sprintf(`{"doc_id":"si_a_b:%d","msgs":[]}`, i)
			}
			b := testkit.TempBackend(t)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			res, err := Import(ctx, b, bucket.CollMsg, strings.NewReader(c.join(docs)), store.RawInsert, Hooks{Progress: func(int) { cancel() }})
			want := fmt.Sprintf("import: interrupted: stored %[1]ss 1-%[2]d of the input (%[2]d documents); %[1]s %[3]d on not stored: context canceled",
				c.unit, BatchSize, BatchSize+1)
			if res.Stored() != BatchSize || !errors.Is(err, context.Canceled) || fmt.Sprint(err) != want {
				t.Errorf("got %d stored, %v; want %d and %q", res.Stored(), err, BatchSize, want)
			}
			if n := len(scan(t, b, bucket.CollMsg)); n != BatchSize {
				t.Errorf("%d documents in the store, want %d", n, BatchSize)
			}
		})
	}
}

// TestInterruptedImportCountsTheRefusedApart: lines whose keys were stored
// already are within the range handled, and the message says how many of
// them were refused rather than calling them stored.
func TestInterruptedImportCountsTheRefusedApart(t *testing.T) {
	var input strings.Builder
	for i := range BatchSize + 1 {
		fmt.Fprintf(&input, `{"doc_id":"si_a_b:%d","msgs":[]}`+"\n", i)
	}
	b := testkit.TempBackend(t)
	testkit.Insert(t, b, bucket.CollMsg, map[string]any{"doc_id": "si_a_b:3", "msgs": []any{}})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_, err := Import(ctx, b, bucket.CollMsg, strings.NewReader(input.String()), store.RawInsert, Hooks{Progress: func(int) { cancel() }})
	want := fmt.Sprintf("stored lines 1-%d of the input (%d documents, 1 refused: their keys were stored already); line %d on not stored",
		BatchSize, BatchSize-1, BatchSize+1)
	if !strings.Contains(fmt.Sprint(err), want) {
		t.Errorf("%v; want %q", err, want)
	}
}

// TestExportJoinersFollowTheRuleAndRoundTrip: export writes a zero width
// joiner or non-joiner that joins nothing as \u200d or \u200c, as every
// other output shows it, and keeps the ones inside an emoji sequence or a
// Persian word; importing the export gives back the same bytes.
func TestExportJoinersFollowTheRuleAndRoundTrip(t *testing.T) {
	a := testkit.TempBackend(t)
	family, persian := "\U0001F468\u200d\U0001F469\u200d\U0001F467", "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645"
	text := "pay\u200dpal pay\u200cpal " + family + " " + persian + " \u200d"
	doc := testkit.Raw(t, bson.D{{Key: "_id", Value: "x"}, {Key: "doc_id", Value: "si_u_a_u_b:0"},
		{Key: "k\u200c", Value: text}, {Key: "msgs", Value: bson.A{bson.D{{Key: "content", Value: family}}}}})
	testkit.Insert(t, a, bucket.CollMsg, doc)
	_, out := export(t, a, bucket.CollMsg, "")
	for _, want := range []string{`pay\u200dpal pay\u200cpal ` + family + " " + persian + ` \u200d`, `"k\u200c"`} {
		if !strings.Contains(out, want) {
			t.Errorf("export lacks %s:\n%s", want, out)
		}
	}
	b := testkit.TempBackend(t)
	if _, err := importString(t, b, bucket.CollMsg, out); err != nil {
		t.Fatal(err)
	}
	if got := scan(t, b, bucket.CollMsg); len(got) != 1 || !bytes.Equal(got[0], doc) {
		t.Errorf("import of the export changed the document:\n%v\n%v", got, doc)
	}
	if _, again := export(t, b, bucket.CollMsg, ""); again != out {
		t.Errorf("second export differs:\n%s\n%s", out, again)
	}
}

// TestImportNamesDocumentsThatBreakTheContract: import stores what
// mongoimport would, msg documents that break the bucket contract too, and
// names each with what check finds wrong with it: msgs not an array, 101 or
// 50 slots, a seq stored as a string, a doc_id its slots disagree with, a
// doc_id not "<cid>:<n>". A sound bucket, and a document refused because
// its key is stored, are not named.
func TestImportNamesDocumentsThatBreakTheContract(t *testing.T) {
	sound := func(index int64) bson.D {
		var d bson.D
		if err := bson.Unmarshal(testkit.Raw(t, bucketDoc("si_u_a_u_b", index, 10, 0, 3)), &d); err != nil {
			t.Fatal(err)
		}
		return d
	}
	set := func(d bson.D, key string, v any) bson.D {
		for i := range d {
			if d[i].Key == key {
				d[i].Value = v
			}
		}
		return d
	}
	msgs := func(d bson.D) bson.A {
		for _, e := range d {
			if e.Key == "msgs" {
				return e.Value.(bson.A)
			}
		}
		return nil
	}
	line := func(d bson.D) string {
		out, err := bson.MarshalExtJSON(d, true, false)
		if err != nil {
			t.Fatal(err)
		}
		return string(out) + "\n"
	}
	long := sound(1)
	long = set(long, "msgs", append(msgs(long), msgs(long)[1]))
	short := sound(2)
	short = set(short, "msgs", msgs(short)[:50])
	seqText := sound(3)
	slot := msgs(seqText)[3].(bson.D)
	for i := range slot {
		if slot[i].Key == "msg" {
			msg := slot[i].Value.(bson.D)
			slot[i].Value = set(msg, "seq", "304")
		}
	}
	moved := set(sound(4), "doc_id", "si_u_a_u_b:9") // slots of bucket 4
	input := line(sound(0)) +
		line(bson.D{{Key: "doc_id", Value: "si_u_a_u_b:5"}, {Key: "msgs", Value: bson.D{{Key: "0", Value: bson.D{}}}}}) +
		line(long) + line(short) + line(seqText) + line(moved) +
		line(set(sound(6), "doc_id", "si_u_a_u_b")) +
		line(long) // its key is stored: refused, not named again
	var named []Broken
	b := testkit.TempBackend(t)
	res, err := Import(context.Background(), b, bucket.CollMsg, strings.NewReader(input), store.RawInsert,
		Hooks{Broken: func(br Broken) { named = append(named, br) }})
	if err != nil || res.Inserted != 7 || res.Refused != 1 || res.Broken != 6 || len(named) != 6 {
		t.Fatalf("import: %+v, %v, %d named; want 7 stored, 1 refused, 6 broken and named", res, err, len(named))
	}
	for i, want := range []struct{ where, key, why string }{
		{"line 2", `doc_id "si_u_a_u_b:5"`, "msgs is embedded document, not an array"},
		{"line 3", `doc_id "si_u_a_u_b:1"`, "msgs has 101 slots, not 100"},
		{"line 4", `doc_id "si_u_a_u_b:2"`, "msgs has 50 slots, not 100"},
		{"line 5", `doc_id "si_u_a_u_b:3"`, "slot 3 (seq 304): msg.seq is string"},
		{"line 6", `doc_id "si_u_a_u_b:9"`, "message says seq 401 but its slot holds seq 901"},
		{"line 7", `doc_id "si_u_a_u_b"`, `doc_id "si_u_a_u_b" has no "<conversation>:<index>" form`},
	} {
		got := named[i]
		if got.Where != want.where || got.Key != want.key || !strings.Contains(got.Why, want.why) {
			t.Errorf("named %+v; want %s, %s, %q", got, want.where, want.key, want.why)
		}
	}
	if stored := scan(t, b, bucket.CollMsg); len(stored) != 7 {
		t.Errorf("%d documents stored, want all 7 (as mongoimport stores them)", len(stored))
	}
}
