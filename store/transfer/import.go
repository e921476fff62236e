// Package transfer moves documents between a store.Backend and mongoexport's
// format: Extended JSON, one document a line. Import stores documents as they
// are, even ones that break the bucket rules; export writes canonical
// Extended JSON so every BSON type survives the round trip.
package transfer

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/check"
)

// BatchSize is the most documents stored per InsertRaw call.
const BatchSize = 500

// BatchBytes bounds one batch by its BSON size too: 500 full buckets of
// long messages are tens of MiB, held once as BSON and again in the write,
// and take seconds to parse, which a Ctrl-C would wait for.
const BatchBytes = 4 << 20

// MaxLineBytes bounds one line: a full bucket with large contents is far
// over bufio.Scanner's default 64 KiB, a BSON document is at most 16 MiB.
const MaxLineBytes = 64 << 20

// maxLine is MaxLineBytes, lowered by tests.
var maxLine = MaxLineBytes

// Result counts what an import did with the documents it read.
type Result struct {
	Inserted, Replaced, Refused int
	// FirstRefused says where the first refused document was and its key
	// ("line 3, doc_id \"si_a_b:0\""); empty when none was.
	FirstRefused string
	// Broken counts the msg documents stored that break the bucket
	// contract (Hooks.Broken names each).
	Broken int
}

// Hooks are what Import reports while it runs; either may be nil.
type Hooks struct {
	// Progress is called with the running total after each stored batch.
	Progress func(docs int)
	// Broken is called for each msg document stored that breaks the bucket
	// contract, once its batch is stored.
	Broken func(Broken)
}

// Broken is a msg document stored as given although it breaks the bucket
// contract, as mongoimport would store it (a real export may hold such
// documents): what check reports of it.
type Broken struct {
	Where string // "line 3"
	Key   string // `doc_id "si_a_b:0"`, or its _id when the doc_id is unusable
	Why   string // what is wrong, one line
}

// maxReasons is how many of a broken document's problems Broken.Why names.
const maxReasons = 3

// Stored is the number of documents written, new or replacing.
func (r Result) Stored() int { return r.Inserted + r.Replaced }

// Import reads mongoexport output from r (one Extended JSON document a line,
// canonical or relaxed, or a single JSON array as --jsonArray writes it) and
// stores each document into coll exactly as given, _id included. A document
// whose unique key is stored already is refused under store.RawInsert (and
// the import goes on, as mongoimport does) or replaces the stored one under
// store.RawUpsert. A msg document that breaks the bucket contract is stored
// too, and named to hooks.Broken. Blank lines are skipped. On a bad line
// the documents before it stay stored and the error names the line.
func Import(ctx context.Context, b store.RawDocs, coll string, r io.Reader, mode store.RawMode, hooks Hooks) (Result, error) {
	im := &importer{ctx: ctx, b: b, coll: coll, mode: mode, hooks: hooks, unit: "line"}
	br := bufio.NewReaderSize(r, 64<<10)
	first, skipped, err := firstByte(br)
	switch {
	case err == io.EOF:
		return im.res, nil
	case err != nil:
		return im.res, wrap(err, "import: reading: %s", oneLine(err.Error()))
	case first == '[':
		err = im.array(br)
	default:
		err = im.lines(br, skipped)
	}
	if err == nil {
		err = im.flush()
	}
	return im.res, err
}

type importer struct {
	ctx    context.Context
	b      store.RawDocs
	coll   string
	mode   store.RawMode
	hooks  Hooks
	batch  []bson.Raw
	broken []string // what is wrong with each document of batch, "" when nothing
	where  []string // where each document of batch was read ("line 3")
	at     []int    // the line (or array element) of each document of batch
	unit   string   // what at counts: "line" or "array element"
	bytes  int      // the BSON size of batch
	res    Result
}

// lines reads one document a line; skipped blank lines were already read.
func (im *importer) lines(r io.Reader, skipped int) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	line := skipped
	for sc.Scan() {
		line++
		if im.ctx.Err() != nil {
			return im.interrupted(line)
		}
		text := bytes.TrimSpace(sc.Bytes())
		if len(text) == 0 {
			continue
		}
		where := fmt.Sprintf("line %d", line)
		if bytes.HasPrefix(text, utf8BOM) {
			return im.fail(where, errors.New("a byte order mark (U+FEFF) starts this line, not the file: files joined with cat? Remove it (sed -i 's/^\xEF\xBB\xBF//')"))
		}
		raw, err := parseOne(text)
		if err != nil {
			return im.fail(where, err)
		}
		if err := im.add(raw, where, line); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			err = fmt.Errorf("longer than %d MiB", maxLine>>20)
		}
		return im.fail(fmt.Sprintf("line %d", line+1), err)
	}
	return nil
}

// array reads a JSON array of documents, as mongoexport --jsonArray writes.
func (im *importer) array(r io.Reader) error {
	im.unit = "array element"
	dec := json.NewDecoder(r)
	if _, err := dec.Token(); err != nil {
		return im.fail("the array", err)
	}
	for n := 1; dec.More(); n++ {
		where := fmt.Sprintf("array element %d", n)
		if im.ctx.Err() != nil {
			return im.interrupted(n)
		}
		var doc json.RawMessage
		if err := dec.Decode(&doc); err != nil {
			return im.fail(where, err)
		}
		raw, err := parse(doc)
		if err != nil {
			return im.fail(where, err)
		}
		if err := im.add(raw, where, n); err != nil {
			return err
		}
	}
	if _, err := dec.Token(); err != nil {
		return im.fail("the end of the array", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return im.fail("the end of the array", errors.New("more input after the array"))
	}
	return nil
}

// parseOne reads a line that must hold exactly one document: a second
// document or any other text after the first is an error, not dropped.
func parseOne(text []byte) (bson.Raw, error) {
	dec := json.NewDecoder(bytes.NewReader(text))
	var first json.RawMessage
	if err := dec.Decode(&first); err != nil {
		return nil, fmt.Errorf("not an Extended JSON document: %w", err)
	}
	switch rest := bytes.TrimSpace(text[dec.InputOffset():]); {
	case len(rest) == 0:
	case rest[0] == '{':
		return nil, errors.New("a second document on the same line (one document a line)")
	default:
		return nil, fmt.Errorf("unexpected text after the document: %q", truncate(rest))
	}
	return parse(first)
}

// parse reads one Extended JSON document, canonical or relaxed.
func parse(text []byte) (bson.Raw, error) {
	if t := bytes.TrimSpace(text); len(t) == 0 || t[0] != '{' {
		return nil, fmt.Errorf("not a document: %q", truncate(t))
	}
	var raw bson.Raw
	if err := bson.UnmarshalExtJSON(text, false, &raw); err != nil {
		return nil, fmt.Errorf("not an Extended JSON document: %w", err)
	}
	if dups := bucket.DuplicateFields(raw); len(dups) > 0 {
		return nil, fmt.Errorf("field %s appears more than once: one reader would take the first, another the last", oneLine(strings.Join(dups, ", ")))
	}
	return raw, nil
}

// truncate shortens quoted input to a few dozen bytes.
func truncate(b []byte) []byte {
	if len(b) > 40 {
		return append(b[:40:40], "..."...)
	}
	return b
}

// add queues one document and stores the batch when it is full.
func (im *importer) add(raw bson.Raw, where string, at int) error {
	im.batch = append(im.batch, raw)
	im.broken = append(im.broken, im.contractBroken(raw))
	im.where, im.at = append(im.where, where), append(im.at, at)
	im.bytes += len(raw)
	if len(im.batch) >= BatchSize || im.bytes >= BatchBytes {
		return im.flush()
	}
	return nil
}

func (im *importer) flush() error {
	if len(im.batch) == 0 {
		return nil
	}
	if im.ctx.Err() != nil {
		return im.interrupted(0) // the batch is not empty: its first says
	}
	res, err := im.b.InsertRaw(im.ctx, im.coll, im.batch, im.mode)
	im.res.Inserted += res.Inserted
	im.res.Replaced += res.Replaced
	if err != nil {
		return wrap(err, "import: storing documents %d-%d: %s; %d documents before them were stored",
			im.read()+1, im.read()+len(im.batch), oneLine(err.Error()), im.res.Stored())
	}
	if len(res.Refused) > 0 && im.res.Refused == 0 {
		i := res.Refused[0]
		im.res.FirstRefused = im.where[i] + ", " + keyText(im.coll, im.batch[i])
	}
	im.res.Refused += len(res.Refused)
	im.reportBroken(res.Refused)
	im.batch, im.broken, im.where, im.at, im.bytes = im.batch[:0], im.broken[:0], im.where[:0], im.at[:0], 0
	if im.hooks.Progress != nil {
		im.hooks.Progress(im.res.Stored())
	}
	return nil
}

// contractBroken is what is wrong with raw as a bucket, one line; "" when
// nothing is, or coll is not msg. It is what check reports of the document.
func (im *importer) contractBroken(raw bson.Raw) string { return contractBroken(im.coll, raw) }

// contractBroken is what is wrong with raw, a document of coll, as a
// bucket, one line; "" when nothing is, or coll is not msg. It is what
// check reports of the document, import and export both say it.
func contractBroken(coll string, raw bson.Raw) string {
	if coll != bucket.CollMsg {
		return ""
	}
	problems := check.Inspect(raw).Problems
	var reasons []string
	for _, p := range problems[:min(len(problems), maxReasons)] {
		r := p.Reason
		if p.Slot >= 0 {
			r = fmt.Sprintf("slot %d (seq %d): %s", p.Slot, p.Seq, r)
		}
		reasons = append(reasons, oneLine(r))
	}
	if len(problems) > maxReasons {
		reasons = append(reasons, fmt.Sprintf("%d more", len(problems)-maxReasons))
	}
	return strings.Join(reasons, "; ")
}

// reportBroken counts and names the broken documents of the batch just
// stored, leaving out those refused (positions in the batch).
func (im *importer) reportBroken(refused []int) {
	for i, why := range im.broken {
		if why == "" || slices.Contains(refused, i) {
			continue
		}
		im.res.Broken++
		if im.hooks.Broken != nil {
			im.hooks.Broken(Broken{Where: im.where[i], Key: brokenKey(im.batch[i]), Why: why})
		}
	}
}

// brokenKey names a broken msg document: its doc_id, else its _id.
func brokenKey(doc bson.Raw) string {
	if v, err := doc.LookupErr("doc_id"); err == nil && v.Type == bson.TypeString {
		return keyText(bucket.CollMsg, doc)
	}
	if v, err := doc.LookupErr("_id"); err == nil {
		return "_id " + oneLine(v.String())
	}
	return "no doc_id, no _id"
}

// interrupted says where a cancelled import stopped, by the input's lines
// (or array elements): the first document not stored is the oldest one
// still queued, else next, the one about to be read. The queued batch is
// dropped, not written half, so every line before it is stored (or refused
// as stored already) and none from it on.
func (im *importer) interrupted(next int) error {
	if len(im.at) > 0 {
		next = im.at[0]
	}
	err := im.ctx.Err()
	if next <= 1 {
		return wrap(err, "import: interrupted: nothing stored; %s 1 on not stored: %s", im.unit, oneLine(err.Error()))
	}
	done := fmt.Sprintf("stored %ss 1-%d of the input (%d documents)", im.unit, next-1, im.res.Stored())
	if im.res.Refused > 0 {
		done = fmt.Sprintf("stored %ss 1-%d of the input (%d documents, %d refused: their keys were stored already)",
			im.unit, next-1, im.res.Stored(), im.res.Refused)
	}
	return wrap(err, "import: interrupted: %s; %s %d on not stored: %s", done, im.unit, next, oneLine(err.Error()))
}

// read is how many documents were handed to the store so far.
func (im *importer) read() int { return im.res.Stored() + im.res.Refused }

// keyText names doc's unique key for a message: doc_id "si_a_b:0".
func keyText(coll string, doc bson.Raw) string {
	var parts []string
	for _, k := range bucket.UniqueKey(coll) {
		v, err := doc.LookupErr(k)
		if err != nil {
			continue
		}
		parts = append(parts, k+" "+oneLine(v.String()))
	}
	return strings.Join(parts, ", ")
}

// fail stores what was read before the bad input and explains both in one line.
func (im *importer) fail(where string, cause error) error {
	if err := im.flush(); err != nil {
		return err
	}
	return wrap(cause, "import: %s: %s; %d documents before it were stored", where, oneLine(cause.Error()), im.res.Stored())
}

var utf8BOM = []byte("\xef\xbb\xbf")

// firstByte peeks at the first byte that is not white space or a BOM, and
// counts the blank lines before it so that line numbers stay true.
func firstByte(br *bufio.Reader) (first byte, lines int, err error) {
	if bom, err := br.Peek(3); err == nil && bytes.Equal(bom, utf8BOM) {
		_, _ = br.Discard(3)
	}
	for {
		c, err := br.ReadByte()
		if err != nil {
			return 0, lines, err
		}
		switch c {
		case '\n':
			lines++
			continue
		case ' ', '\t', '\r':
			continue
		}
		return c, lines, br.UnreadByte()
	}
}
