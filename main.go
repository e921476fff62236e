// Command chatlens opens an OpenIM-style bucketed message store and shows
// every message the way one chosen user sees it. This file is wiring only:
// flags, subcommands, opening the store; the work is in store/, projection/ and ui/.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"os/user"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/chatlens/chatlens/keymap"
	"github.com/chatlens/chatlens/projection"
	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bench"
	"github.com/chatlens/chatlens/store/check"
	"github.com/chatlens/chatlens/store/demo"
	"github.com/chatlens/chatlens/store/embedded"
	"github.com/chatlens/chatlens/store/mongostore"
	"github.com/chatlens/chatlens/store/rediscache"
	"github.com/chatlens/chatlens/store/transfer"
	"github.com/chatlens/chatlens/themes"
	"github.com/chatlens/chatlens/ui"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// stdin is what `import -` reads; a variable so tests can replace it.
var stdin io.Reader = os.Stdin

// usageError is bad input from the command line: exit code 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, a ...any) error { return usageError{fmt.Sprintf(format, a...)} }

// command is one subcommand: its flags and what it does once they parsed.
type command struct {
	name, args, help string
	autoSeed         bool     // an empty embedded store gets the demo dataset first
	writes           bool     // writes data: the audit log is opened
	ownStore         bool     // works in scratch stores of its own, never the configured one
	required         []string // flags that must be given
	flags            func(fs *flag.FlagSet, o *opts)
	run              func(ctx context.Context, e *env) error
}

var commands = []command{
	{name: "conversations", args: "--as USER [--format text|json]", help: "a user's conversations with unread counts",
		required: []string{"as"}, autoSeed: true, flags: formatFlags, run: runConversations},
	{name: "dump", args: "--conversation CID --as USER [--from SEQ] [--to SEQ] [--format text|json] [--explain] [--stats]",
		help: "a conversation as one user sees it", required: []string{"conversation", "as"}, autoSeed: true, flags: dumpFlags, run: runDump},
	{name: "revoke", args: "--conversation CID --seq N[,N|A-B] --by USER [--admin] [--stats]", help: "revoke messages as USER",
		required: writeRequired, autoSeed: true, writes: true, flags: writeFlags, run: runWrite},
	{name: "delete", args: "--conversation CID --seq N[,N|A-B] --by USER [--admin] [--stats]", help: "delete messages for USER only",
		required: writeRequired, autoSeed: true, writes: true, flags: writeFlags, run: runWrite},
	{name: "read", args: "--conversation CID --seq N[,N|A-B] --by USER [--admin] [--stats]", help: "mark messages read by USER",
		required: writeRequired, autoSeed: true, writes: true, flags: writeFlags, run: runWrite},
	{name: "import", args: "FILE|- [--collection NAME] [--mode insert|upsert]", help: "load mongoexport output (Extended JSON lines)",
		required: []string{"collection"}, writes: true, flags: collectionFlags, run: runImport},
	{name: "export", args: "[--collection NAME] [--conversation CID]", help: "write stored documents as mongoexport does",
		required: []string{"collection"}, autoSeed: true, flags: collectionFlags, run: runExport},
	{name: "seed", args: "[--conversations N] [--messages N] [--long N] [--seed N] [--force]",
		help: "write the demo dataset", writes: true, flags: seedFlags, run: runSeed},
	{name: "bench", args: "[--messages N] [--batch N] [--bucket-size N] [--seed N] [--no-sync] [--json]",
		help:     "the bucket layout against one document per message, side by side, in scratch stores",
		ownStore: true, flags: benchFlags, run: runBench},
	{name: "find", args: "--client-msg-id ID | --server-msg-id ID", help: "a message across all conversations: conversation, seq, bucket",
		flags: findFlags, run: runFind},
	{name: "check", args: "[--conversation CID]", help: "bucket invariants, indexes and seq documents",
		autoSeed: true, flags: func(fs *flag.FlagSet, o *opts) { fs.StringVar(&o.cid, "conversation", "", "only this conversation") },
		run: runCheck},
}

var writeRequired = []string{"conversation", "seq", "by"}

// opts holds every flag; each FlagSet binds the ones its command takes.
type opts struct {
	mongoURI, db, redis, data, readPref, auditLog string
	readOnly                                      bool
	as, theme                                     string
	mouse                                         bool

	cid, format, seqs, by, collection string
	mode                              string // import: insert or upsert
	from, to                          int64
	stats, force, admin               bool
	explain                           bool
	seed                              int64
	conversations, messages, long     int
	file                              string
	json, noSync                      bool
	batch, bucketSize                 int
	clientMsgID, serverMsgID          string
	utc                               bool
}

func connectionFlags(fs *flag.FlagSet, o *opts) {
	fs.StringVar(&o.mongoURI, "mongo-uri", "", "MongoDB URI (env CHATLENS_MONGO_URI); none: the embedded store")
	fs.StringVar(&o.db, "db", "openim_v3", "MongoDB database")
	fs.StringVar(&o.redis, "redis", "", "Redis address or URL, the first read layer (env CHATLENS_REDIS)")
	fs.StringVar(&o.data, "data", "", "embedded store file (env CHATLENS_DATA; default "+defaultDataPath()+")")
	fs.BoolVar(&o.readOnly, "read-only", false, "refuse every write")
	fs.StringVar(&o.readPref, "read-preference", "", "MongoDB read preference (primary, secondaryPreferred, ...)")
	fs.StringVar(&o.auditLog, "audit-log", "", "audit log file (default "+defaultAuditPath()+")")
	fs.BoolVar(&o.utc, "utc", false, "show times in UTC, not the local time zone")
}

func formatFlags(fs *flag.FlagSet, o *opts) {
	fs.StringVar(&o.as, "as", "", "the user whose view is shown")
	fs.StringVar(&o.format, "format", "text", "text or json")
}

func dumpFlags(fs *flag.FlagSet, o *opts) {
	formatFlags(fs, o)
	fs.StringVar(&o.cid, "conversation", "", "conversation ID")
	fs.Int64Var(&o.from, "from", 0, "first seq (default: the start of the user's window)")
	fs.Int64Var(&o.to, "to", 0, "last seq (default: the newest message)")
	fs.BoolVar(&o.stats, "stats", false, "print round trips and cache hits to stderr")
	fs.BoolVar(&o.explain, "explain", false, "say which rule made each row what the user sees")
}

func writeFlags(fs *flag.FlagSet, o *opts) {
	fs.StringVar(&o.cid, "conversation", "", "conversation ID")
	fs.StringVar(&o.seqs, "seq", "", "seqs: 5, 5,7 or 10-20")
	fs.StringVar(&o.by, "by", "", "the user acting")
	fs.BoolVar(&o.admin, "admin", false, "act as an app admin (OpenIM's IM admin): may revoke any message, recorded with role 0")
	fs.BoolVar(&o.stats, "stats", false, "print round trips and time to stderr")
}

func collectionFlags(fs *flag.FlagSet, o *opts) {
	fs.StringVar(&o.collection, "collection", store.CollMsg, "collection")
	if fs.Name() == "export" {
		fs.StringVar(&o.cid, "conversation", "", "only this conversation")
	}
	if fs.Name() == "import" {
		fs.StringVar(&o.mode, "mode", "insert", "insert: refuse documents whose key is stored; upsert: replace them")
	}
}

func seedFlags(fs *flag.FlagSet, o *opts) {
	fs.IntVar(&o.conversations, "conversations", demo.DefaultConversations, "ordinary conversations")
	fs.IntVar(&o.messages, "messages", demo.DefaultMessages, "messages per ordinary conversation")
	fs.IntVar(&o.long, "long", demo.DefaultLongMessages, "messages of the long group (0: none)")
	fs.Int64Var(&o.seed, "seed", 1, "random seed; the same seed writes the same documents")
	fs.BoolVar(&o.force, "force", false, "seed even though the store holds messages")
}

func benchFlags(fs *flag.FlagSet, o *opts) {
	fs.IntVar(&o.messages, "messages", bench.DefaultMessages, "messages in the benchmark conversation")
	fs.IntVar(&o.batch, "batch", bench.DefaultBatchSize, "messages per write")
	fs.IntVar(&o.bucketSize, "bucket-size", store.BucketSize, "slots per bucket document (not 100: a bench-only layout)")
	fs.Int64Var(&o.seed, "seed", 0, "random seed of the generated messages")
	fs.BoolVar(&o.noSync, "no-sync", false, "embedded store: skip fsync per write")
	fs.BoolVar(&o.json, "json", false, "print one JSON object instead of the table")
}

// run is the whole program; main only exits with its code. Ctrl-C and
// SIGTERM (kill, a service manager) cancel the context every command runs
// under, so a seed stops between batches and bench removes its scratch files.
func run(args []string, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return runContext(ctx, args, stdout, stderr)
}

// runContext is run under a context the caller ends (tests interrupt with it).
func runContext(ctx context.Context, args []string, stdout, stderr io.Writer) (code int) {
	// A damaged embedded store that passed the checks at open (a page
	// overwritten in the middle) makes bbolt panic or fault on its memory
	// map: say so in one line instead of a stack trace.
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			if !storeFault(r) {
				panic(r)
			}
			fmt.Fprintln(stderr, errorLine(fmt.Errorf("%w: %v", embedded.ErrDamaged, r)))
			code = 1
		}
	}()
	err := dispatch(ctx, args, stdout, stderr)
	var ue usageError
	switch {
	case err == nil || errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(err, &ue):
		fmt.Fprintln(stderr, errorLine(err))
		return 2
	default:
		fmt.Fprintln(stderr, errorLine(err))
		return 1
	}
}

// storeFault tells whether a panic came from reading the embedded store's
// file: a fault on its memory map (a nil dereference faults below 64 KiB,
// Linux's lowest mappable address, and stays a crash), or a panic raised
// by bbolt itself, such as its page assertions.
func storeFault(r any) bool {
	if fault, ok := r.(interface{ Addr() uintptr }); ok {
		return fault.Addr() >= 64<<10
	}
	// The frame after the runtime's panic is the function that panicked.
	_, after, ok := strings.Cut(string(debug.Stack()), "\npanic(")
	lines := strings.SplitN(after, "\n", 4)
	return ok && len(lines) > 2 && strings.HasPrefix(lines[2], "go.etcd.io/bbolt")
}

// errorLine is err as one stderr line with exactly one "chatlens: " prefix,
// whatever prefixes the error itself carries.
func errorLine(err error) string {
	msg := oneLine(err.Error())
	for {
		rest, ok := strings.CutPrefix(msg, "chatlens:")
		if !ok {
			break
		}
		msg = strings.TrimSpace(rest)
	}
	return "chatlens: " + msg
}

func dispatch(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	o := &opts{}
	root := newFlagSet("chatlens", stdout)
	connectionFlags(root, o)
	root.StringVar(&o.as, "as", "", "the user whose view the UI starts with")
	root.StringVar(&o.theme, "theme", "", "UI theme: dark, light, high-contrast, none (no colour)")
	root.BoolVar(&o.mouse, "mouse", false, "let the UI use the mouse")
	root.BoolVar(&o.admin, "admin", false, "the UI's writes act as an app admin (any message may be revoked, role 0, audited as admin)")
	root.Usage = func() { printUsage(root) }
	if err := parse(root, args, nil); err != nil {
		return err
	}
	rest := root.Args()
	if len(rest) == 0 {
		e := &env{o: o, stdout: stdout, stderr: stderr}
		if err := e.validate(nil); err != nil {
			return err
		}
		return runUI(ctx, e)
	}
	i := slices.IndexFunc(commands, func(c command) bool { return c.name == rest[0] })
	if i < 0 {
		return usagef("unknown command %q (run chatlens -h for the list)", rest[0])
	}
	c := commands[i]
	given := map[string]string{} // flags before the command; binding below resets them
	root.Visit(func(f *flag.Flag) { given[f.Name] = f.Value.String() })
	fs := newFlagSet(c.name, stdout)
	connectionFlags(fs, o)
	c.flags(fs, o)
	var err error
	for name, v := range given {
		if fs.Lookup(name) != nil && err == nil {
			err = fs.Set(name, v)
		}
	}
	if err != nil {
		return usageError{err.Error()}
	}
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: chatlens %s %s\n  %s\n\nflags:\n", c.name, c.args, c.help)
		fs.PrintDefaults()
	}
	var positional []string
	if err = parse(fs, rest[1:], &positional); err != nil {
		return err
	}
	if len(positional) > 0 && c.name != "import" || len(positional) > 1 {
		return usagef("%s: unexpected argument %q", c.name, positional[len(positional)-1])
	}
	if len(positional) == 1 {
		o.file = positional[0]
	}
	e := &env{o: o, cmd: c.name, stdout: stdout, stderr: stderr}
	if err := e.validate(c.required); err != nil {
		return err
	}
	if c.ownStore {
		return c.run(ctx, e)
	}
	if err := e.open(ctx, c.autoSeed, c.writes); err != nil {
		return err
	}
	defer e.close()
	err = c.run(ctx, e)
	if cerr := e.st.Stats().CacheError; cerr != nil && err == nil && !e.cacheWarned {
		fmt.Fprintln(stderr, "chatlens: warning: the cache failed, reads fell back to the store: "+oneLine(cerr.Error()))
	}
	return err
}

func newFlagSet(name string, out io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(out) // -h prints here; errors are returned and printed as one line
	return fs
}

// parse parses fs, collecting positional arguments between flags when
// positional is not nil (import FILE --collection x), and applies the
// environment to connection flags not given.
func parse(fs *flag.FlagSet, args []string, positional *[]string) error {
	out := fs.Output()
	fs.SetOutput(io.Discard)
	for {
		err := fs.Parse(args)
		if errors.Is(err, flag.ErrHelp) {
			fs.SetOutput(out)
			fs.Usage()
			return err
		}
		if err != nil && fs.Name() == "chatlens" {
			return usageError{err.Error()} // the line's own prefix names the program
		}
		if err != nil {
			return usagef("%s: %v", fs.Name(), err)
		}
		if positional == nil || fs.NArg() == 0 {
			break
		}
		*positional = append(*positional, fs.Arg(0))
		args = fs.Args()[1:]
	}
	fs.SetOutput(out)
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	for flagName, envName := range map[string]string{"mongo-uri": "CHATLENS_MONGO_URI", "redis": "CHATLENS_REDIS", "data": "CHATLENS_DATA"} {
		if v := os.Getenv(envName); v != "" && !set[flagName] && fs.Lookup(flagName).Value.String() == "" {
			_ = fs.Set(flagName, v)
		}
	}
	return nil
}

func printUsage(root *flag.FlagSet) {
	w := root.Output()
	fmt.Fprintln(w, "usage: chatlens [flags]            the terminal UI (no --mongo-uri: a local demo store)")
	for _, c := range commands {
		fmt.Fprintf(w, "       chatlens %s %s\n         %s\n", c.name, c.args, c.help)
	}
	fmt.Fprintln(w, "\nflags (every command takes the connection flags):")
	root.PrintDefaults()
}

// oneLine keeps an error to one line on stderr.
func oneLine(s string) string { return strings.Join(strings.Fields(projection.SingleLine(s)), " ") }

// env is a parsed command with its store open.
type env struct {
	o              *opts
	cmd            string
	stdout, stderr io.Writer
	st             *store.Store
	log            *store.AuditLog // nil unless the command writes
	logFile        *os.File
	cacheWarned    bool // the cache failed at open and the user was told
}

func (e *env) validate(required []string) error {
	o := e.o
	if o.format != "" && o.format != "text" && o.format != "json" {
		return usagef("%s: --format is text or json, not %q", e.cmd, o.format)
	}
	values := map[string]string{"conversation": o.cid, "as": o.as, "by": o.by, "seq": o.seqs, "collection": o.collection}
	for _, name := range required {
		if values[name] == "" {
			return usagef("%s: --%s is required", e.cmd, name)
		}
	}
	if e.cmd == "import" && o.file == "" {
		return usagef("import: FILE (or - for stdin) is required")
	}
	if e.cmd == "import" && o.mode != "insert" && o.mode != "upsert" {
		return usagef("import: --mode is insert or upsert, not %q", o.mode)
	}
	if o.from < 0 || o.to < 0 || (o.to > 0 && o.to < o.from) {
		return usagef("dump: want 1 <= --from <= --to")
	}
	if o.seqs != "" {
		if _, err := store.ParseSeqs(o.seqs); err != nil {
			return usagef("%s: --seq: %v", e.cmd, err)
		}
	}
	switch e.cmd {
	case "seed":
		if o.conversations < 0 || o.messages < 0 || o.long < 0 {
			return usagef("seed: sizes cannot be negative")
		}
	case "bench":
		if o.messages < 1 || o.batch < 1 {
			return usagef("bench: --messages and --batch must be at least 1")
		}
		if o.messages > bench.MaxMessages {
			return usagef("bench: --messages is at most %d (each message is written twice: about 3 KB of scratch space)", bench.MaxMessages)
		}
		if o.bucketSize < 1 || o.bucketSize > bench.MaxBucketSize() {
			return usagef("bench: --bucket-size must be 1 to %d (a bucket of the largest messages must stay under MongoDB's 16 MiB)", bench.MaxBucketSize())
		}
	}
	// Checked here, before open creates or seeds a store for nothing.
	if o.redis != "" {
		if err := rediscache.ParseAddr(o.redis); err != nil {
			return usageError{err.Error()}
		}
	}
	return nil
}

// open connects to the store the flags name. The embedded store is created
// on first use and, for the commands that read, seeded with the demo data.
func (e *env) open(ctx context.Context, autoSeed, writes bool) error {
	o := e.o
	if writes {
		if err := e.openAuditLog(); err != nil {
			return err
		}
	}
	var backend store.Backend
	if o.mongoURI != "" {
		b, err := mongostore.Open(ctx, o.mongoURI, o.db, mongostore.Options{ReadPreference: o.readPref, Timeout: mongoTimeout})
		if errors.Is(err, mongostore.ErrBadInput) {
			return usageError{err.Error()} // the URI or settings, not the server
		}
		if err != nil {
			return err
		}
		backend = b
	} else {
		b, err := e.openEmbedded(ctx, autoSeed, writes)
		if err != nil {
			return err
		}
		backend = b
	}
	var cache store.Cache
	if o.redis != "" {
		c, err := rediscache.Open(ctx, o.redis, rediscache.Options{})
		switch {
		case errors.Is(err, rediscache.ErrBadAddress):
			_ = backend.Close(ctx)
			return usageError{err.Error()}
		case err != nil:
			// Keep the cache unpinged rather than dropping it: reads fall back
			// with a warning, and a write reports the keys it could not
			// invalidate instead of silently leaving users a stale cache.
			fmt.Fprintln(e.stderr, "chatlens: warning: "+oneLine(err.Error())+"; reads fall back to the store until the cache answers")
			e.cacheWarned = true
			if c, err = rediscache.Open(ctx, o.redis, rediscache.Options{NoPing: true}); err != nil {
				_ = backend.Close(ctx)
				return err
			}
			cache = c
		default:
			cache = c
		}
	}
	audit := e.log
	if e.cmd == "seed" {
		audit = nil // one entry for the whole seed, not one per batch
	}
	e.st = store.New(backend, store.Options{Cache: cache, ReadOnly: o.readOnly, Audit: audit, Operator: operator()})
	return nil
}

func (e *env) openEmbedded(ctx context.Context, autoSeed, writes bool) (*embedded.Backend, error) {
	path := e.o.data
	if path == "" {
		path = defaultDataPath()
	}
	readOnly := e.o.readOnly
	// Only import and seed create a store; a first run seeds only the
	// default path, never under --read-only. Anything else needs a store:
	// a typo in --data is an error, not a new demo.
	creates := e.cmd == "import" || e.cmd == "seed"
	firstRun := autoSeed && !readOnly && filepath.Clean(path) == filepath.Clean(defaultDataPath())
	fi, statErr := os.Stat(path)
	switch {
	case firstRun:
		notice := func(line string) { fmt.Fprintln(e.stderr, "chatlens: "+line) }
		seed := func(st *store.Store, what string) error { return e.seed(ctx, st, firstRunDemo, what) }
		if err := demo.FirstRun(ctx, path, firstRunDemo, notice, seed); err != nil {
			return nil, err
		}
	case creates && !readOnly && errors.Is(statErr, fs.ErrNotExist):
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return nil, fmt.Errorf("embedded store: %w", err)
		}
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
	shared := readOnly || !writes && e.cmd != ""
	// Every run but a bulk write holds the file only for each transaction,
	// so a UI left open and commands in another terminal take turns.
	bulk := e.cmd == "seed" || e.cmd == "import"
	b, err := embedded.Open(path, embedded.Options{ReadOnly: shared, NoSync: e.cmd == "seed", Shared: !bulk})
	if err != nil || shared {
		if err == nil && readOnly && autoSeed {
			if p, _ := demo.SeedProgress(ctx, b); p == demo.Started {
				fmt.Fprintln(e.stderr, "chatlens: the demo dataset in "+path+" was never finished; a run without --read-only seeds it again")
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

// mongoTimeout bounds connecting to MongoDB (tests shorten it).
var mongoTimeout = mongostore.DefaultTimeout

// firstRunDemo is the dataset an empty embedded store gets (tests shrink it).
var firstRunDemo = demo.Options{Seed: 1}

func (e *env) close() {
	if e.st != nil {
		_ = e.st.Close(context.Background())
	}
	if e.logFile != nil {
		_ = e.logFile.Close()
	}
}

// openAuditLog opens the audit log for appending. Only commands that write
// open it, so reading never creates files; a write without it is refused.
func (e *env) openAuditLog() error {
	path := e.o.auditLog
	if path == "" {
		path = defaultAuditPath()
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("audit log: %w", err)
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return fmt.Errorf("audit log: %w", err)
	}
	e.logFile, e.log = f, store.NewAuditLog(f)
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

// onSeedStep, when set, sees every step of a seed (tests interrupt with it).
var onSeedStep func(done, total int)

func (e *env) seed(ctx context.Context, st *store.Store, opts demo.Options, what string) error {
	step, end := progressPrinter(e.stderr, what, true)
	if hook := onSeedStep; hook != nil {
		show := step
		step = func(done, total int) { show(done, total); hook(done, total) }
	}
	start := time.Now()
	sum, err := demo.Seed(ctx, st, opts, step)
	end()
	if err != nil {
		return fmt.Errorf("seeding: %w", err)
	}
	fmt.Fprintf(e.stderr, "chatlens: seeded %s in %s\n", sum, time.Since(start).Round(time.Millisecond))
	return nil
}

// runUI opens the terminal UI. It opens the audit log like any command that
// writes, since the operator may revoke, delete or mark read from it.
func runUI(ctx context.Context, e *env) error {
	if e.o.theme != "" {
		if _, err := themes.Get(e.o.theme); err != nil {
			return usageError{err.Error()}
		}
	}
	if _, err := keymap.Load(""); err != nil {
		return usageError{err.Error()} // names the keys.json it read
	}
	defer e.close()
	opts := ui.Options{As: e.o.as, Theme: e.o.theme, Mouse: e.o.mouse,
		ReadOnly: e.o.readOnly, Operator: operator(), Deployment: e.o.mongoURI != "", TimeZone: e.zone(), Admin: e.o.admin}
	if e.o.mongoURI != "" {
		// A server can be slow to answer: the UI draws first and says so.
		opts.ConnectingTo = mongostore.Describe(e.o.mongoURI, e.o.db)
		opts.Connect = func(ctx context.Context) (*store.Store, string, error) {
			var warn strings.Builder // the screen is the UI's now: warnings go to its status line
			stderr := e.stderr
			e.stderr = &warn
			defer func() { e.stderr = stderr }()
			if err := e.open(ctx, true, true); err != nil {
				return nil, "", err
			}
			return e.st, strings.TrimSpace(strings.TrimPrefix(warn.String(), "chatlens: ")), nil
		}
		return ui.Run(ctx, nil, opts)
	}
	if err := e.open(ctx, true, true); err != nil {
		return err
	}
	return ui.Run(ctx, e.st, opts)
}

func runConversations(ctx context.Context, e *env) error {
	if err := e.warnViewer(ctx, ""); err != nil {
		return err
	}
	list, err := e.st.ConversationsOf(ctx, e.o.as)
	if err != nil {
		return err
	}
	if e.o.format == "json" {
		for _, c := range list {
			if err := printJSON(e.stdout, struct {
				ConversationID   string `json:"conversationID"`
				ConversationType int32  `json:"conversationType"`
				MaxSeq           int64  `json:"maxSeq"`
				ReadSeq          int64  `json:"readSeq"`
				Unread           int64  `json:"unread"`
			}{c.ConversationID, c.ConversationType, c.Window.MaxSeq, c.Window.ReadSeq, c.Unread()}); err != nil {
				return err
			}
		}
		return nil
	}
	convs := make([]store.Conversation, len(list))
	for i, c := range list {
		convs[i] = c.Conversation
	}
	names, err := e.st.ConversationNames(ctx, e.o.as, convs)
	if err != nil {
		return err
	}
	for _, c := range list {
		pin := " "
		if c.IsPinned {
			pin = "*"
		}
		fmt.Fprintf(e.stdout, "%s %s %-6s %6d unread  %s (seq %d, read %d)\n", pin,
			pad(c.ConversationID, 28), kindName(c.ConversationType), c.Unread(),
			pad(names[c.ConversationID], 24), c.Window.MaxSeq, c.Window.ReadSeq)
	}
	return nil
}

// pad sanitises s and fits it to width terminal cells (CJK and emoji take two).
func pad(s string, width int) string {
	s = projection.Truncate(projection.SingleLine(s), width)
	return s + strings.Repeat(" ", max(0, width-projection.Width(s)))
}

func kindName(t int32) string {
	return map[int32]string{store.SessionSingle: "single", store.SessionWriteGroup: "group", store.SessionGroup: "group",
		store.SessionNotification: "notice"}[t]
}

// warnViewer warns on stderr when --as names a user the store does not
// know, or (for cid) someone who is not a member: the output is then what
// nobody real sees.
func (e *env) warnViewer(ctx context.Context, cid string) error {
	warnings, err := e.st.ViewerWarnings(ctx, e.o.as, cid)
	for _, w := range warnings {
		fmt.Fprintln(e.stderr, "chatlens: warning: "+oneLine(w))
	}
	return err
}

func runDump(ctx context.Context, e *env) error {
	o, st := e.o, e.st
	if err := e.warnViewer(ctx, o.cid); err != nil {
		return err
	}
	ws, err := st.Windows(ctx, o.as, []string{o.cid}, nil)
	if err != nil {
		return err
	}
	w := ws[o.cid]
	if w.MaxSeq == 0 {
		return fmt.Errorf("dump: conversation %s holds no messages", projection.SingleLine(o.cid))
	}
	from, to := max(w.MinSeq, o.from), w.MaxSeq
	if o.to > 0 {
		to = min(to, o.to)
	}
	if w.Cleared() && (o.from > 0 && o.from < w.MinSeq || w.MinSeq > w.MaxSeq) {
		// Asked for seqs the user cannot pull: say why they are missing.
		fmt.Fprintf(e.stderr, "chatlens: note: %s's history starts at seq %d: %s\n",
			projection.SingleLine(o.as), w.MinSeq, w.StartReason())
	}
	conv := projection.Conv{ID: o.cid, SessionType: store.ConversationTypeOf(o.cid)}
	var prev []*store.Bucket // the batch before, for quotes that reach back
	var holeTimes *store.HoleSendTimes
	if o.format == "json" { // a hole prints as OpenIM's stand-in: it needs the range read once before
		if holeTimes, err = st.HoleSendTimes(ctx, w, from, to); err != nil {
			return err
		}
	}
	out := &dumpPrinter{e: e, w: w, conv: conv, holeTimes: holeTimes, next: from}
	err = st.Scan(ctx, w, from, to, func(batch []*store.Bucket) error {
		// Rule 5 needs every quoted seq's slot: what the batch and the one
		// before do not hold is read in one more call, only when needed.
		near := slices.Concat(prev, batch)
		held := map[int64]bool{}
		for _, b := range near {
			held[b.Index] = true
		}
		lookup := projection.BucketLookup(near...)
		if far := projection.QuotedSeqs(batch, from, to, func(i int64) bool { return held[i] }); len(far) > 0 {
			quoted, err := st.Slots(ctx, o.cid, far, w.MaxSeq) // the quoted slots, not their buckets
			if err != nil {
				return err
			}
			inBatch := lookup
			lookup = func(seq int64) (store.StoredSlot, bool) {
				if s, ok := quoted[seq]; ok {
					return s, true
				}
				return inBatch(seq)
			}
		}
		prev = batch
		for _, b := range batch {
			for _, s := range b.Slots {
				if s.Seq < from || s.Seq > to {
					continue
				}
				if err := out.add(projection.View(s, b.DocID, o.as, conv, lookup)); err != nil {
					return err
				}
			}
		}
		return nil
	}, func(from, to int64) error { return out.gap(ctx, from, to) })
	if err == nil {
		err = out.end(to)
	}
	if err != nil {
		return err
	}
	if o.stats {
		s := st.Stats()
		fmt.Fprintf(e.stderr, "chatlens: %d round trips; cache: %d round trips, %d hits, %d misses\n",
			s.RoundTrips, s.CacheRoundTrips, s.CacheHits, s.CacheMisses)
	}
	return nil
}

// printMessage writes one seq of a dump in the chosen format, with why it
// is seen so when why is given (--explain).
func printMessage(e *env, m projection.Message, why []string) error {
	switch {
	case e.o.format == "json" && why != nil:
		return printJSON(e.stdout, projection.Explained{Message: m, Why: why})
	case e.o.format == "json":
		return printJSON(e.stdout, m)
	case why != nil:
		_, err := fmt.Fprintln(e.stdout, projection.ExplainedLine(m, why, e.zone()))
		return err
	}
	_, err := fmt.Fprintln(e.stdout, projection.LineIn(m, e.zone()))
	return err
}

// printJSON writes v as one terminal-safe line of JSON.
func printJSON(w io.Writer, v any) error {
	line, err := projection.JSONLine(v)
	if err == nil {
		_, err = w.Write(line)
	}
	return err
}

func runWrite(ctx context.Context, e *env) error {
	o, st := e.o, e.st
	seqs, err := store.ParseSeqs(o.seqs) // validated already
	if err != nil {
		return err
	}
	// The same checks as OpenIM's (a known user, a message in the user's
	// pull window, the revoke permission rules), the same path as the UI.
	// A long write shows its progress bucket by bucket on a terminal.
	step, end := progressPrinter(e.stderr, e.cmd+" of "+strconv.Itoa(len(seqs))+" seqs", false)
	start := time.Now()
	res, err := st.Do(store.WithProgress(ctx, step), store.WriteRequest{Action: e.cmd, Cid: o.cid, By: o.by, Seqs: seqs, Admin: o.admin})
	end()
	if o.stats { // a write stopped part way has made round trips too
		s := st.Stats()
		fmt.Fprintf(e.stderr, "chatlens: %d round trips in %s; cache: %d round trips, %d hits, %d misses\n",
			s.RoundTrips, time.Since(start).Round(time.Microsecond), s.CacheRoundTrips, s.CacheHits, s.CacheMisses)
	}
	if err != nil {
		return err
	}
	as := o.by
	if o.admin {
		as += " as an app admin"
	}
	var done string
	switch e.cmd {
	case "revoke":
		done = fmt.Sprintf("revoked seq %s of %s by %s (role %d)", store.FormatSeqs(seqs), o.cid, as, res.Revoke.Role)
	case "delete":
		done = fmt.Sprintf("deleted seq %s of %s for %s", store.FormatSeqs(seqs), o.cid, as)
	case "read":
		done = fmt.Sprintf("marked seq %s of %s read by %s", store.FormatSeqs(seqs), o.cid, as)
	}
	fmt.Fprintln(e.stdout, projection.SingleLine(done))
	if res.StaleCache != nil {
		fmt.Fprintln(e.stderr, "chatlens: warning: the write stands but the cache may serve the old state: "+oneLine(res.StaleCache.Error()))
	}
	if o.mongoURI != "" {
		fmt.Fprintln(e.stderr, "chatlens: note: "+oneLine(store.NotificationNote(e.cmd, o.by)))
	}
	return nil
}

// refuseReadOnly stops raw writes (import, seed) that bypass the state
// machine's own read-only check, and logs the refusal.
func (e *env) refuseReadOnly(action string) error {
	if !e.st.ReadOnly() {
		return nil
	}
	e.logRaw(action, store.ErrReadOnly)
	return store.ErrReadOnly
}

// logRaw appends an audit entry for a write that does not pass through the
// state machine (import, seed).
func (e *env) logRaw(action string, err error) {
	entry := store.AuditEntry{Time: time.Now().UTC(), Operator: operator(), Action: action, Result: "ok"}
	switch {
	case errors.Is(err, store.ErrReadOnly):
		entry.Result, entry.Error = "refused", err.Error()
	case err != nil:
		entry.Result, entry.Error = "failed", err.Error()
	}
	if aerr := e.log.Append(entry); aerr != nil {
		fmt.Fprintln(e.stderr, "chatlens: warning: audit log: "+oneLine(aerr.Error()))
	}
}

// ensureIndexes creates the indexes the state machine relies on (the
// unique doc_id above all) before a store is filled. Revoke, delete and read
// leave a deployment's indexes alone: check reports what is missing.
func (e *env) ensureIndexes(ctx context.Context) error {
	if err := e.st.Backend().EnsureIndexes(ctx); err != nil {
		return fmt.Errorf("indexes: %w", err)
	}
	return nil
}

func runImport(ctx context.Context, e *env) error {
	action := "import " + e.o.collection
	if err := e.refuseReadOnly(action); err != nil {
		return err
	}
	if err := e.ensureIndexes(ctx); err != nil {
		return err
	}
	var r io.Reader = stdin
	if e.o.file != "-" {
		f, err := os.Open(e.o.file)
		if err != nil {
			return err
		}
		defer f.Close()
		r = f
	}
	mode := store.RawInsert
	if e.o.mode == "upsert" {
		mode = store.RawUpsert
	}
	coll := projection.SingleLine(e.o.collection)
	step, end := progressPrinter(e.stderr, "importing into "+coll, false)
	res, err := transfer.Import(ctx, e.st.Backend(), e.o.collection, r, mode, func(docs int) { step(docs, 0) })
	end()
	if err == nil && res.Refused > 0 {
		// Like mongoimport, the other documents are stored; unlike a
		// silent success, the exit code tells a script the file is not
		// in the store as given.
		err = fmt.Errorf("import: %d documents refused: their keys are stored already (first: %s); --mode upsert replaces them",
			res.Refused, res.FirstRefused)
	}
	e.logRaw(action, err)
	fmt.Fprintf(e.stdout, "imported into %s: %d inserted, %d replaced, %d refused\n", coll, res.Inserted, res.Replaced, res.Refused)
	return err // names the line, and how many documents before it were stored
}

func runExport(ctx context.Context, e *env) error {
	_, err := transfer.Export(ctx, e.st.Backend(), e.o.collection, e.o.cid, e.stdout)
	return err
}

func runSeed(ctx context.Context, e *env) error {
	if err := e.refuseReadOnly("seed"); err != nil {
		return err
	}
	if err := e.ensureIndexes(ctx); err != nil {
		return err
	}
	if coll, err := demo.Occupied(ctx, e.st.Backend()); err != nil {
		return err
	} else if coll != "" && !e.o.force {
		return fmt.Errorf("seed: the store already holds %s documents; --force seeds anyway (demo documents with the same keys are overwritten)", coll)
	}
	long := e.o.long
	if long == 0 {
		long = -1 // demo.Options: negative means no long group
	}
	err := e.seed(ctx, e.st, demo.Options{Seed: e.o.seed, Conversations: e.o.conversations,
		Messages: e.o.messages, LongMessages: long}, "seeding "+e.st.Describe())
	e.logRaw("seed "+strconv.FormatInt(e.o.seed, 10), err)
	return err
}

// runBench measures both layouts on the embedded store, or on the MongoDB
// of --mongo-uri in a scratch database it drops afterwards.
func runBench(ctx context.Context, e *env) error {
	target := bench.Target{MongoURI: e.o.mongoURI, NoSync: e.o.noSync}
	step, end := progressPrinter(e.stderr, "bench", false)
	stage := ""
	res, err := bench.Run(ctx, target, bench.Options{Messages: e.o.messages, Seed: e.o.seed, BatchSize: e.o.batch,
		BucketSize: e.o.bucketSize},
		func(name string, done, total int) {
			if name != stage {
				end()
				stage = name
				fmt.Fprintln(e.stderr, "chatlens: bench: "+name)
			}
			step(done, total)
		})
	end()
	if errors.Is(err, context.Canceled) && res == nil {
		return fmt.Errorf("bench: interrupted: %w", err) // a cleanup that failed says what is left
	}
	if res == nil {
		return err
	}
	if e.o.json {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		if jerr := enc.Encode(res); jerr != nil {
			return jerr
		}
	} else if werr := res.WriteTable(e.stdout); werr != nil {
		return werr
	}
	return err // a cleanup failure after a complete run
}

func runCheck(ctx context.Context, e *env) error {
	step, end := progressPrinter(e.stderr, "checking "+e.st.Describe(), false)
	rep, err := check.Run(ctx, e.st, e.o.cid, step)
	end()
	if err != nil {
		return err
	}
	rep.Write(e.stdout)
	if n := rep.Problems(); n > 0 {
		return fmt.Errorf("check found %d problems", n)
	}
	return nil
}
