package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/chatlens/chatlens/projection"
	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/transfer"
)

type importCmd struct {
	File          string `arg:"" name:"file" placeholder:"FILE|-" complete:"file" help:"mongoexport output; - reads stdin."`
	Collection    string `name:"collection" default:"${coll_msg}" complete:"collections" help:"Collection to load into."`
	AnyCollection bool   `name:"any-collection" help:"Take a --collection that is none of OpenIM's."`
	Mode          string `name:"mode" enum:"insert,upsert" default:"insert" help:"insert: refuse documents whose key is stored; upsert: replace them."`
}

func (importCmd) Help() string {
	return `Reads mongoexport's output as it is (Extended JSON, one document a line) and
creates OpenIM's indexes that are missing. Documents whose key is stored already are refused (exit 1,
the others are stored) unless --mode upsert. A msg document that breaks the bucket contract is stored
too, as mongoimport stores it, and named with what is wrong (check reports it as well).

Examples:

    chatlens import msg.json
    chatlens import users.json --collection user --mode upsert
    mongoexport --db openim_v3 --collection msg | chatlens import -`
}

// Validate refuses a mistyped collection before any store is opened.
func (c *importCmd) Validate() error { return knownCollection(c.Collection, c.AnyCollection) }

func (c *importCmd) Run(ctx context.Context, s *session) error {
	// The input is opened first: a missing file or a directory creates no
	// store at --data.
	r := s.stdin
	if c.File != "-" {
		f, err := openInput(c.File)
		if err != nil {
			return err
		}
		defer f.Close()
		r = f
	}
	action := "import " + c.Collection + " from " + inputName(c.File)
	s.attempt = &store.AuditEntry{Action: action}
	return s.withStore(ctx, storeUse{writes: true}, func(st *store.Store) error {
		if err := s.refuseReadOnly(action); err != nil {
			return err
		}
		outcome, err := s.startRaw(ctx, action)
		if err != nil {
			return err
		}
		return c.load(ctx, s, st, r, outcome)
	})
}

// inputName names the input in the audit log: the file's absolute path,
// or stdin.
func inputName(file string) string {
	if file == "-" {
		return "stdin"
	}
	if abs, err := filepath.Abs(file); err == nil {
		return abs
	}
	return file
}

// openInput opens the file import reads; a directory is refused here, not
// at the first read.
func openInput(path string) (*os.File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("import: %w", err)
	}
	if fi, err := f.Stat(); err != nil || fi.IsDir() {
		_ = f.Close()
		return nil, fmt.Errorf("import: %s is a directory, not a file of documents", projection.SingleLine(path))
	}
	return f, nil
}

func (c *importCmd) load(ctx context.Context, s *session, st *store.Store, r io.Reader, outcome func(error, bool)) error {
	mode := store.RawInsert
	if c.Mode == "upsert" {
		mode = store.RawUpsert
	}
	coll := projection.SingleLine(c.Collection)
	step, end := progressPrinter(s.stderr, "importing into "+coll, false)
	res, err := transfer.Import(ctx, st.Backend(), c.Collection, r, mode, transfer.Hooks{
		Progress: func(docs int) { step(docs, 0) },
		// Stored as mongoimport would store it, and said: the UI shows such
		// a bucket with a marker, check reports it.
		Broken: func(b transfer.Broken) {
			end()
			fmt.Fprintln(s.stderr, "chatlens: warning: "+oneLine(fmt.Sprintf("%s, %s: stored, but it breaks the bucket contract: %s", b.Where, b.Key, b.Why)))
		},
	})
	end()
	if err == nil && res.Refused > 0 {
		// Like mongoimport, the other documents are stored; unlike a
		// silent success, the exit code tells a script the file is not
		// in the store as given.
		err = fmt.Errorf("import: %d documents refused: their keys are stored already (first: %s); --mode upsert replaces them",
			res.Refused, res.FirstRefused)
	}
	outcome(err, res.Stored() > 0)
	broken := ""
	if res.Broken > 0 {
		broken = fmt.Sprintf(", %d breaking the bucket contract (chatlens check reports them)", res.Broken)
	}
	fmt.Fprintf(s.stdout, "imported into %s: %d inserted, %d replaced, %d refused%s\n", coll, res.Inserted, res.Replaced, res.Refused, broken)
	return err // names the line, and what of the input before it was stored
}
