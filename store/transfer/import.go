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

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store"
)

// BatchSize is the number of documents stored per InsertRaw call.
const BatchSize = 500

// MaxLineBytes bounds one line: a full bucket with large contents is far
// over bufio.Scanner's default 64 KiB, a BSON document is at most 16 MiB.
const MaxLineBytes = 64 << 20

// maxLine is MaxLineBytes, lowered by tests.
var maxLine = MaxLineBytes

// Import reads mongoexport output from r (one Extended JSON document a line,
// canonical or relaxed, or a single JSON array as --jsonArray writes it) and
// stores each document into coll exactly as given, _id included. Blank lines
// are skipped. progress, if not nil, is called with the running total after
// each stored batch. It returns the number of documents stored; on a bad line
// the documents before it stay stored and the error names the line.
func Import(ctx context.Context, b store.Backend, coll string, r io.Reader, progress func(docs int)) (int, error) {
	im := &importer{ctx: ctx, b: b, coll: coll, progress: progress}
	br := bufio.NewReaderSize(r, 64<<10)
	first, skipped, err := firstByte(br)
	switch {
	case err == io.EOF:
		return 0, nil
	case err != nil:
		return 0, wrap(err, "import: reading: %s", oneLine(err.Error()))
	case first == '[':
		err = im.array(br)
	default:
		err = im.lines(br, skipped)
	}
	if err == nil {
		err = im.flush()
	}
	return im.stored, err
}

type importer struct {
	ctx      context.Context
	b        store.Backend
	coll     string
	progress func(int)
	batch    []bson.Raw
	stored   int
}

// lines reads one document a line; skipped blank lines were already read.
func (im *importer) lines(r io.Reader, skipped int) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	line := skipped
	for sc.Scan() {
		line++
		text := bytes.TrimSpace(sc.Bytes())
		if len(text) == 0 {
			continue
		}
		raw, err := parse(text)
		if err != nil {
			return im.fail(fmt.Sprintf("line %d", line), err)
		}
		if err := im.add(raw); err != nil {
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
	dec := json.NewDecoder(r)
	if _, err := dec.Token(); err != nil {
		return im.fail("the array", err)
	}
	for n := 1; dec.More(); n++ {
		var doc json.RawMessage
		if err := dec.Decode(&doc); err != nil {
			return im.fail(fmt.Sprintf("array element %d", n), err)
		}
		raw, err := parse(doc)
		if err != nil {
			return im.fail(fmt.Sprintf("array element %d", n), err)
		}
		if err := im.add(raw); err != nil {
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

// parse reads one Extended JSON document, canonical or relaxed.
func parse(text []byte) (bson.Raw, error) {
	var raw bson.Raw
	if err := bson.UnmarshalExtJSON(text, false, &raw); err != nil {
		return nil, fmt.Errorf("not an Extended JSON document: %w", err)
	}
	return raw, nil
}

// add queues one document and stores the batch when it is full.
func (im *importer) add(raw bson.Raw) error {
	im.batch = append(im.batch, raw)
	if len(im.batch) >= BatchSize {
		return im.flush()
	}
	return nil
}

func (im *importer) flush() error {
	if len(im.batch) == 0 {
		return nil
	}
	err := im.ctx.Err()
	if err == nil {
		err = im.b.InsertRaw(im.ctx, im.coll, im.batch)
	}
	if err != nil {
		return wrap(err, "import: storing documents %d-%d: %s; %d documents before them were imported",
			im.stored+1, im.stored+len(im.batch), oneLine(err.Error()), im.stored)
	}
	im.stored += len(im.batch)
	im.batch = im.batch[:0]
	if im.progress != nil {
		im.progress(im.stored)
	}
	return nil
}

// fail stores what was read before the bad input and explains both in one line.
func (im *importer) fail(where string, cause error) error {
	if err := im.flush(); err != nil {
		return err
	}
	return wrap(cause, "import: %s: %s; %d documents before it were imported", where, oneLine(cause.Error()), im.stored)
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
