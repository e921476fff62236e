package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/user"
	"path/filepath"
	"runtime"
	"time"

	"github.com/chatlens/chatlens/projection"
	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/demo"
	"github.com/chatlens/chatlens/store/embedded"
	"github.com/chatlens/chatlens/store/mongostore"
	"github.com/chatlens/chatlens/store/openimapi"
	"github.com/chatlens/chatlens/store/rediscache"
)

// session is one parsed command line: its process, connection flags and,
// once opened, its store.
type session struct {
	process
	conn        *connection
	cmd         string          // the command's name; "" for the UI
	st          *store.Store    // nil until open
	log         *store.AuditLog // nil unless the command writes
	logFile     *os.File
	cacheWarned bool // the cache failed at open and the user was told
	// openTimeout bounds connecting to MongoDB when set (shell completion
	// waits a second at most); 0: mongostore.DefaultTimeout.
	openTimeout time.Duration
	// attempt is the write a command is about to make, set before the
	// store is opened: a write that cannot start (the file locked, MongoDB
	// unreachable, permission denied) is audited as it, with why.
	attempt *store.AuditEntry
	// contextErr is why the context asked for could not be used, kept
	// for __complete, which then completes nothing rather than another
	// store's names.
	contextErr error
	// given are the connection flags given on the command line (a switch
	// of context in the UI keeps the run-wide ones).
	given map[string]bool
}

// noRedisNote is said once to a reader of a deployment without --redis:
// OpenIM writes the newest seqs (MALLOC_SEQ) and read seqs (SEQ_USER_READ)
// to Redis first and to MongoDB later, and seq.max_seq is the end of an
// allocated block, so MongoDB alone can lag (shared/openim-recorded: 331
// allocated for 284 messages in sg_g1).
const noRedisNote = "without --redis, newest seqs and read positions come from MongoDB, which OpenIM updates after Redis: they may lag what users' devices show"

// storeUse is how a command uses the configured store.
type storeUse struct {
	autoSeed bool // an empty embedded store gets the demo dataset first
	writes   bool // writes data: the audit log is opened
	// plans: plans writes without making them (--dry-run): through the API
	// the client is there to plan with and is never asked for a secret.
	plans bool
}

var (
	reads        = storeUse{}
	readsOrSeeds = storeUse{autoSeed: true}
	writes       = storeUse{autoSeed: true, writes: true}
)

// withStore opens the store, runs body, closes the store and warns once
// if the cache failed on the way.
func (s *session) withStore(ctx context.Context, use storeUse, body func(st *store.Store) error) error {
	if err := s.open(ctx, use); err != nil {
		s.notStarted(err)
		s.close()
		return err
	}
	defer s.close()
	err := body(s.st)
	if cerr := s.st.Stats().CacheError; cerr != nil && err == nil && !s.cacheWarned {
		fmt.Fprintln(s.stderr, "chatlens: warning: the cache failed, reads fell back to the store: "+oneLine(cerr.Error()))
	}
	return err
}

// open connects to the store the flags name. The embedded store is created
// on first use and, for the commands that read, seeded with the demo data.
func (s *session) open(ctx context.Context, use storeUse) error {
	c := s.conn
	if use.writes {
		if err := s.openAuditLog(); err != nil {
			return err
		}
	}
	var backend store.Backend
	if c.MongoURI != "" {
		timeout := mongostore.DefaultTimeout
		if s.openTimeout > 0 {
			timeout = s.openTimeout
		}
		b, err := mongostore.Open(ctx, c.MongoURI, c.DB, mongostore.Options{ReadPreference: c.ReadPreference, Timeout: timeout, OpTimeout: s.openTimeout})
		if errors.Is(err, mongostore.ErrBadInput) {
			return usageError{err.Error()} // the URI or settings, not the server
		}
		if err != nil {
			return err
		}
		backend = b
	} else {
		b, err := s.openEmbedded(ctx, use)
		if err != nil {
			return err
		}
		backend = b
	}
	var cache store.Cache
	if c.Redis != "" {
		rc, err := rediscache.Open(ctx, c.Redis, rediscache.Options{})
		switch {
		case errors.Is(err, rediscache.ErrBadAddress):
			_ = backend.Close(ctx)
			return usageError{err.Error()}
		case err != nil:
			// Keep the cache unpinged rather than dropping it: reads fall back
			// with a warning, and a write reports the keys it could not
			// invalidate instead of silently leaving users a stale cache.
			fmt.Fprintln(s.stderr, "chatlens: warning: "+oneLine(err.Error())+"; reads fall back to the store until the cache answers")
			s.cacheWarned = true
			if rc, err = rediscache.Open(ctx, c.Redis, rediscache.Options{NoPing: true}); err != nil {
				_ = backend.Close(ctx)
				return err
			}
			cache = rc
		default:
			cache = rc
		}
	}
	if c.MongoURI != "" && c.Redis == "" && (s.cmd == "" || s.cmd == "dump" || s.cmd == "conversations") {
		fmt.Fprintln(s.stderr, "chatlens: note: "+noRedisNote)
	}
	audit := s.log
	if s.cmd == "seed" {
		audit = nil // one entry for the whole seed, not one per batch
	}
	opts := store.Options{Cache: cache, ReadOnly: c.ReadOnly, Audit: audit, Operator: operator(), IMAdmins: []string{c.OpenIMAdmin},
		Context: c.contextName()}
	if c.OpenIMAPI != "" && (use.writes || use.plans) && !c.ReadOnly { // (read-only: no write, no secret asked for)
		api, err := s.openIMClient(use.plans)
		if err != nil {
			_ = backend.Close(ctx)
			return err
		}
		opts.API = api
	}
	s.st = store.New(backend, opts)
	return nil
}

// openIMClient is the client of --openim-api; a bad URL is a usage error.
// The secret is --openim-secret, else the context's openim-secret-env or
// openim-secret-cmd, which the client asks for when a write first needs
// it. A client to plan with (planOnly) holds no secret and has none to ask.
func (s *session) openIMClient(planOnly bool) (*openimapi.Client, error) {
	c := s.conn
	opts := openimapi.Options{URL: c.OpenIMAPI, Secret: c.OpenIMSecret, Admin: c.OpenIMAdmin, Timeout: c.OpenIMTimeout}
	switch {
	case planOnly:
		opts.Secret, opts.SecretFrom = "", noSecret{}
	case opts.Secret == "":
		opts.SecretFrom = s.secretSource()
	}
	api, err := openimapi.New(opts)
	if errors.Is(err, openimapi.ErrBadURL) {
		return nil, usageError{err.Error()}
	}
	return api, err
}

func (s *session) openEmbedded(ctx context.Context, use storeUse) (*embedded.Backend, error) {
	path := s.conn.Data
	if path == "" {
		path = defaultDataPath()
	}
	readOnly := s.conn.ReadOnly
	// Only import and seed create a store; a first run seeds only the
	// default path, never under --read-only. Anything else needs a store:
	// a typo in --data is an error, not a new demo.
	creates := s.cmd == "import" || s.cmd == "seed"
	firstRun := use.autoSeed && !readOnly && filepath.Clean(path) == filepath.Clean(defaultDataPath())
	fi, statErr := os.Stat(path)
	switch {
	case firstRun:
		if err := s.firstRun(ctx, path); err != nil {
			return nil, err
		}
	case creates && !readOnly && errors.Is(statErr, fs.ErrNotExist):
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return nil, fmt.Errorf("embedded store: %w", err)
		}
	case creates && errors.Is(statErr, fs.ErrNotExist): // under --read-only
		return nil, fmt.Errorf("%w: %s would create a store at %s", store.ErrReadOnly, s.cmd, path)
	case errors.Is(statErr, fs.ErrNotExist):
		return nil, fmt.Errorf("no store at %s (chatlens import or chatlens seed creates one)", path)
	case statErr != nil:
		return nil, fmt.Errorf("embedded store: %w", statErr)
	case !creates && fi.Mode().IsRegular() && fi.Size() == 0:
		return nil, fmt.Errorf("%s is an empty file (0 bytes), not a chatlens store", path)
	}
	// Commands that only read, and read-only runs, take a shared lock so
	// several can run side by side. The UI (no command) may write. seed
	// writes a generated dataset in thousands of small transactions:
	// without fsync per transaction it takes seconds instead of minutes.
	shared := readOnly || !use.writes && s.cmd != ""
	// Every run but a bulk write holds the file only for each transaction,
	// so a UI left open and commands in another terminal take turns.
	bulk := s.cmd == "seed" || s.cmd == "import"
	b, err := embedded.Open(path, embedded.Options{ReadOnly: shared, NoSync: s.cmd == "seed", Shared: !bulk})
	if err != nil || shared {
		if err == nil && readOnly && use.autoSeed {
			if p, _ := demo.SeedProgress(ctx, b); p == demo.Started {
				fmt.Fprintln(s.stderr, "chatlens: the demo dataset in "+path+" was never finished; a run without --read-only seeds it again")
			}
		}
		return b, err
	}
	// What this command writes is the user's: a first run must never empty
	// the file for an unfinished demo that is in it.
	if err := demo.Adopt(ctx, b); err != nil {
		_ = b.Close(ctx)
		return nil, err
	}
	return b, nil
}

// firstRun seeds the demo into the default store at path when it holds
// nothing of anyone's, audited like the seed command: the intent before the
// first write, the outcome after. A command that only reads opens the audit
// log for it.
func (s *session) firstRun(ctx context.Context, path string) error {
	var outcome func(error, bool)
	begin := func() error {
		if s.log == nil {
			if err := s.openAuditLog(); err != nil {
				return fmt.Errorf("first run: the demo dataset not seeded: %w", err)
			}
		}
		var err error
		outcome, err = s.rawIntent(seedAction(s.firstRunDemo.Seed))
		return err
	}
	seeded := false
	seed := func(st *store.Store, what string) error {
		err := s.seed(ctx, st, s.firstRunDemo, what)
		seeded = err == nil
		return err
	}
	notice := func(line string) { fmt.Fprintln(s.stderr, "chatlens: "+line) }
	err := demo.FirstRun(ctx, path, s.firstRunDemo, notice, begin, seed)
	if outcome != nil {
		outcome(err, seeded || seedStored(err))
	}
	return err
}

// notStarted audits the write the command meant to make (attempt) as
// failed before it started, and why; --read-only's refusal as refused.
func (s *session) notStarted(err error) {
	if s.attempt == nil || s.log == nil {
		return // no write announced, or no audit log to write to
	}
	entry := *s.attempt
	entry.Time, entry.Operator, entry.Result = time.Now().UTC(), operator(), store.ResultFailed
	entry.Error = "not started: " + err.Error()
	if errors.Is(err, store.ErrReadOnly) {
		entry.Result, entry.Error = store.ResultRefused, err.Error()
	}
	s.appendAudit(entry)
}

// close closes the store and the audit log; once (the UI may have let
// them go already).
func (s *session) close() {
	if s.st != nil {
		_ = s.st.Close(context.Background())
		s.st = nil
	}
	if s.logFile != nil {
		_ = s.logFile.Close()
		s.logFile = nil
	}
}

// openAuditLog opens the audit log for appending. Only commands that write
// open it, so reading never creates files; a write without it is refused.
func (s *session) openAuditLog() error {
	path := s.auditPath()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("audit log: %w", err)
	}
	log, f, err := store.OpenAuditLog(path)
	if err != nil {
		return fmt.Errorf("audit log: %w", err)
	}
	log.SetContext(s.conn.contextName())
	s.logFile, s.log = f, log
	return nil
}

func operator() string {
	if u, err := user.Current(); err == nil && u.Username != "" {
		return u.Username
	}
	return os.Getenv("USER")
}

// defaultDataPath and defaultAuditPath follow the XDG base directories on
// Unix and the platform's own places elsewhere.
func defaultDataPath() string {
	return filepath.Join(userDir("XDG_DATA_HOME", ".local/share"), "chatlens", "chatlens.db")
}

func defaultAuditPath() string {
	return filepath.Join(userDir("XDG_STATE_HOME", ".local/state"), "chatlens", "audit.log")
}

func userDir(xdg, unixDefault string) string {
	if d := os.Getenv(xdg); d != "" {
		return d
	}
	if runtime.GOOS == "windows" || runtime.GOOS == "darwin" {
		if d, err := os.UserConfigDir(); err == nil {
			return d
		}
	}
	if home, err := os.UserHomeDir(); err == nil {
		return filepath.Join(home, unixDefault)
	}
	return "."
}

// progressPrinter reports long work on stderr: a rewritten line on a
// terminal; otherwise only the announcement, when announce is set.
func progressPrinter(w io.Writer, what string, announce bool) (func(done, total int), func()) {
	f, ok := w.(*os.File)
	tty := false
	if ok {
		if fi, err := f.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
			tty = true
		}
	}
	if announce || tty {
		fmt.Fprintln(w, "chatlens: "+what)
	}
	last := time.Time{}
	step := func(done, total int) {
		if !tty || time.Since(last) < 100*time.Millisecond {
			return
		}
		last = time.Now()
		if total > 0 {
			fmt.Fprintf(w, "\r  %d / %d (%d%%)", done, total, done*100/total)
		} else {
			fmt.Fprintf(w, "\r  %d", done)
		}
	}
	end := func() {
		if tty && !last.IsZero() {
			fmt.Fprint(w, "\r\033[K")
		}
	}
	return step, end
}

func (s *session) seed(ctx context.Context, st *store.Store, opts demo.Options, what string) error {
	step, end := progressPrinter(s.stderr, what, true)
	if hook := s.onSeedStep; hook != nil {
		show := step
		step = func(done, total int) { show(done, total); hook(done, total) }
	}
	start := time.Now()
	sum, err := demo.Seed(ctx, st, opts, step)
	end()
	if err != nil {
		return fmt.Errorf("seeding: %w", err)
	}
	requests := ""
	if t, ok := st.Traffic(); ok {
		requests = fmt.Sprintf(", %s requests", groupDigits(t.Requests))
	}
	fmt.Fprintf(s.stderr, "chatlens: seeded %s in %s%s\n", sum, time.Since(start).Round(time.Millisecond), requests)
	return nil
}

// zone is where times are shown: UTC with --utc, else the local zone, the
// same for the UI and dump.
func (s *session) zone() *time.Location {
	if s.conn.UTC {
		return time.UTC
	}
	return time.Local
}

// warnViewer warns on stderr when as names a user the store does not
// know, or (for cid) someone who is not a member: the output is then what
// nobody real sees.
func (s *session) warnViewer(ctx context.Context, as, cid string) error {
	warnings, err := s.st.ViewerWarnings(ctx, as, cid)
	for _, w := range warnings {
		fmt.Fprintln(s.stderr, "chatlens: warning: "+oneLine(w))
	}
	return err
}

// warnSeqUsers warns on stderr when the viewer has several seq_user
// documents for w's conversation: which one the server reads each value
// from, which is what is shown.
func (s *session) warnSeqUsers(w *bucket.Window) {
	if w.SeqUserNote != "" {
		fmt.Fprintln(s.stderr, "chatlens: warning: "+oneLine(w.SeqUserNote))
	}
}

// printJSON writes v as one terminal-safe line of JSON.
func printJSON(w io.Writer, v any) error {
	line, err := projection.JSONLine(v)
	if err == nil {
		_, err = w.Write(line)
	}
	return err
}

// refuseReadOnly stops raw writes (import, seed) that bypass the state
// machine's own read-only check, and logs the refusal.
func (s *session) refuseReadOnly(action string) error {
	if !s.st.ReadOnly() {
		return nil
	}
	s.refuseRaw(action, store.ErrReadOnly)
	return store.ErrReadOnly
}

// refuseRaw audits a write that does not pass through the state machine
// (import, seed) as refused before its first write, and why.
func (s *session) refuseRaw(action string, why error) {
	s.appendAudit(store.AuditEntry{Time: time.Now().UTC(), Operator: operator(), Action: action,
		Result: store.ResultRefused, Error: why.Error()})
}

// rawIntent logs the intent of a write that does not pass through the
// state machine (import, seed) before its first write, so a process killed
// part way still leaves a line saying what it was doing; it is refused when
// the log cannot be written. The function it returns logs the outcome:
// ok, partial when stored says something was written before err, failed.
func (s *session) rawIntent(action string) (func(err error, stored bool), error) {
	entry := store.AuditEntry{Time: time.Now().UTC(), Operator: operator(), Action: action, Result: store.ResultIntent}
	if err := s.log.Append(entry); err != nil {
		return nil, fmt.Errorf("%s not attempted, the audit log failed: %w", action, err)
	}
	return func(err error, stored bool) {
		entry.Time, entry.Result = time.Now().UTC(), store.ResultOK
		if err != nil {
			entry.Result, entry.Error = store.ResultFailed, err.Error()
			if stored {
				entry.Result = store.ResultPartial
			}
		}
		s.appendAudit(entry)
	}, nil
}

func (s *session) appendAudit(entry store.AuditEntry) {
	if aerr := s.log.Append(entry); aerr != nil {
		fmt.Fprintln(s.stderr, "chatlens: warning: audit log: "+oneLine(aerr.Error()))
	}
}

// startRaw logs a raw write's intent (rawIntent), then creates the indexes
// the state machine relies on (the unique doc_id above all) before the
// store is filled, so the index build is covered by the intent too; a
// failure there is the write's outcome. Revoke, delete and read leave a
// deployment's indexes alone: check reports what is missing.
func (s *session) startRaw(ctx context.Context, action string) (func(err error, stored bool), error) {
	outcome, err := s.rawIntent(action)
	if err != nil {
		return nil, err
	}
	if err := s.st.Backend().EnsureIndexes(ctx); err != nil {
		err = fmt.Errorf("indexes: %w", err)
		outcome(err, false)
		return nil, err
	}
	return outcome, nil
}
