package transfer

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"slices"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
)

// conversationKeyed are the collections whose documents name their
// conversation in a conversation_id field.
var conversationKeyed = []string{bucket.CollSeq, bucket.CollSeqUser, bucket.CollConversation}

// Export writes the stored documents of coll to w, one canonical Extended
// JSON document a line, in the backend's scan order. Canonical form keeps
// every BSON type (int32 stays int32, a double stays a double), so importing
// the output into an empty store and exporting again gives the same bytes.
// A non-empty cid keeps one conversation: msg buckets with doc_id prefix
// "<cid>:", or seq, seq_user and conversation documents whose
// conversation_id is cid. It returns the number of documents written.
// Each msg document written that breaks the bucket contract is named to
// broken, when not nil, as import names it (Where is its line of the
// output): what check reports of it.
func Export(ctx context.Context, b store.RawDocs, coll, cid string, w io.Writer, broken func(Broken)) (int, error) {
	prefix := ""
	keep := func(bson.Raw) bool { return true }
	switch {
	case cid == "":
	case coll == bucket.CollMsg:
		prefix = cid + ":"
	case slices.Contains(conversationKeyed, coll):
		keep = func(raw bson.Raw) bool {
			v, err := raw.LookupErr("conversation_id")
			s, ok := v.StringValueOK()
			return err == nil && ok && s == cid
		}
	default:
		return 0, fmt.Errorf("export: a conversation filter applies to msg, seq, seq_user and conversation, not %s",
			oneLine(coll))
	}
	bw := bufio.NewWriterSize(w, 256<<10)
	n, lossyDocs, firstLossy := 0, 0, ""
	err := b.ScanRaw(ctx, coll, prefix, func(raw bson.Raw) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		if !keep(raw) {
			return nil
		}
		line, err := bson.MarshalExtJSON(raw, true, false)
		if err != nil {
			return fmt.Errorf("document %d: %w", n+1, err)
		}
		if lossy(raw, line) {
			if lossyDocs++; lossyDocs == 1 {
				firstLossy = describe(raw, n+1)
			}
		}
		// Byte-exact JSON, and safe on a terminal: the characters no output
		// writes raw (C1 controls, bidi controls, ...) become \uXXXX, which
		// import reads back as the same characters.
		line = append(bucket.EscapeJSONLine(line), '\n')
		if _, err := bw.Write(line); err != nil {
			return err
		}
		n++
		if broken != nil {
			if why := contractBroken(coll, raw); why != "" {
				broken(Broken{Where: fmt.Sprintf("line %d", n), Key: brokenKey(raw), Why: why})
			}
		}
		return nil
	})
	if err == nil {
		err = bw.Flush()
	}
	if err != nil {
		return n, wrap(err, "export: %s", oneLine(err.Error()))
	}
	if lossyDocs > 0 {
		return n, fmt.Errorf("export: wrote %d documents, but %d of them (first: %s) hold text that is not UTF-8, "+
			"written as U+FFFD: importing them will not give the same bytes", n, lossyDocs, firstLossy)
	}
	return n, nil
}

// describe names a document for an error: its doc_id, else its _id, else
// its position in the export.
func describe(raw bson.Raw, pos int) string {
	for _, key := range []string{"doc_id", "_id"} {
		if v, err := raw.LookupErr(key); err == nil {
			return key + " " + oneLine(v.String())
		}
	}
	return fmt.Sprintf("document %d", pos)
}
