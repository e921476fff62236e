// Command chatlens opens an OpenIM-style bucketed message store and shows
// every message the way one chosen user sees it. This file is wiring only:
// the command line's declaration, the parse and the exit codes. Each
// command's flags and body are in its cmd_*.go file; opening the store is in
// session.go; the work is in store/, projection/ and ui/.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	"github.com/alecthomas/kong"

	"github.com/chatlens/chatlens/projection"
	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bench"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/demo"
	"github.com/chatlens/chatlens/store/embedded"
	"github.com/chatlens/chatlens/store/openimapi"
	"github.com/chatlens/chatlens/store/rediscache"
	"github.com/chatlens/chatlens/themes"
)

// cli is the whole command line. The connection flags are global: given
// before or after the command, they mean the same. No command starts the UI.
type cli struct {
	connection

	Version kong.VersionFlag `help:"Print the version and VCS revision, then exit."`

	UI            uiCmd            `cmd:"" default:"withargs" help:"The terminal UI (what chatlens runs with no command)."`
	Conversations conversationsCmd `cmd:"" help:"A user's conversations with unread counts."`
	Dump          dumpCmd          `cmd:"" help:"A conversation as one user sees it."`
	Revoke        revokeCmd        `cmd:"" help:"Revoke messages as a user."`
	Delete        deleteCmd        `cmd:"" help:"Delete messages for one user only."`
	Read          readCmd          `cmd:"" help:"Mark messages read by a user."`
	Import        importCmd        `cmd:"" help:"Load mongoexport output (Extended JSON lines)."`
	Export        exportCmd        `cmd:"" help:"Write stored documents as mongoexport does."`
	Seed          seedCmd          `cmd:"" help:"Write the demo dataset."`
	Bench         benchCmd         `cmd:"" help:"The bucket layout against one document per message, in scratch stores."`
	Find          findCmd          `cmd:"" help:"Find a message across all conversations: conversation, seq, bucket."`
	Check         checkCmd         `cmd:"" help:"Check bucket invariants, indexes and seq documents."`
	Contexts      contextsCmd      `cmd:"" help:"The named deployments of the config file, passwords masked."`
	Completion    completionCmd    `cmd:"" help:"Print a shell completion script (bash, zsh or fish)."`
	Help          helpCmd          `cmd:"" help:"Show help for chatlens or one command."`
	Complete      completeCmd      `cmd:"" name:"__complete" hidden:"" help:"Candidates for shell completion (the scripts call it)."`
}

// connection holds the flags every command takes: where the store is and
// how to reach it.
type connection struct {
	Context        string `name:"context" env:"CHATLENS_CONTEXT" placeholder:"NAME" group:"connection" complete:"contexts" help:"A named deployment in ${config_path} (none: its current-context)."`
	MongoURI       string `name:"mongo-uri" env:"CHATLENS_MONGO_URI" placeholder:"URI" group:"connection" help:"MongoDB URI; none: the embedded store."`
	DB             string `name:"db" default:"openim_v3" group:"connection" help:"MongoDB database."`
	Redis          string `name:"redis" env:"CHATLENS_REDIS" placeholder:"ADDR" group:"connection" help:"Redis address or URL, the first read layer."`
	Data           string `name:"data" env:"CHATLENS_DATA" placeholder:"FILE" group:"connection" complete:"file" help:"Embedded store file (default ${data_path})."`
	ReadOnly       bool   `name:"read-only" group:"connection" help:"Refuse every write."`
	ReadPreference string `name:"read-preference" placeholder:"MODE" group:"connection" help:"MongoDB read preference (primary, secondaryPreferred, ...)."`
	AuditLog       string `name:"audit-log" placeholder:"FILE" group:"connection" complete:"file" help:"Audit log file (default ${audit_path})."`
	UTC            bool   `name:"utc" group:"connection" help:"Show times in UTC, not the local time zone."`

	// OpenIM's REST API: with it, revoke, delete and mark read go through
	// the server (store/openimapi), which notifies devices.
	OpenIMAPI     string        `name:"openim-api" env:"CHATLENS_OPENIM_API" placeholder:"URL" group:"connection" help:"OpenIM Server's REST API (http://host:10002): revoke, delete and mark read go through it, so devices are notified."`
	OpenIMSecret  string        `name:"openim-secret" env:"CHATLENS_OPENIM_SECRET" placeholder:"SECRET" group:"connection" help:"The server's secret (share.yml), for the admin token that asks each user's token."`
	OpenIMAdmin   string        `name:"openim-admin" default:"imAdmin" placeholder:"USER" group:"connection" help:"The server's app admin user ID (share.yml imAdminUserID): its token makes API writes, and its own writes pass the permission checks, as the server passes them."`
	OpenIMTimeout time.Duration `name:"openim-timeout" default:"10s" placeholder:"DURATION" group:"connection" help:"How long to wait for each answer of the API before its seqs are unknown."`
	// A context's openim-secret-cmd runs within it (the key of the same name).
	OpenIMSecretTimeout time.Duration `name:"openim-secret-timeout" default:"10s" placeholder:"DURATION" group:"connection" help:"How long a context's openim-secret-cmd may take, when a write first needs the secret."`

	// deployment is the context chosen (--context, CHATLENS_CONTEXT or
	// current-context); nil for none.
	deployment *deployment
}

// contextName names the deployment in the status bar, transcripts and the
// audit log; "" for none.
func (c *connection) contextName() string {
	if c.deployment == nil {
		return ""
	}
	return c.deployment.name
}

// Validate checks the Redis address before anything creates or seeds a
// store for nothing.
func (c *connection) Validate() error {
	if c.Redis != "" {
		if err := rediscache.ParseAddr(c.Redis); err != nil {
			return err
		}
	}
	// Only the URL: the secret is asked for (a variable read, a command
	// run) when a write needs it, and reading needs none.
	if c.OpenIMAPI != "" {
		if err := openimapi.CheckURL(c.OpenIMAPI); err != nil {
			return usageError{err.Error()}
		}
	}
	if c.OpenIMSecretTimeout <= 0 {
		return usagef("--openim-secret-timeout %s: want a duration above 0, such as 10s", c.OpenIMSecretTimeout)
	}
	return nil
}

// process is what a run gets besides its arguments: its streams and the
// settings tests shrink.
type process struct {
	stdin          io.Reader // what `import -` reads
	stdout, stderr io.Writer
	firstRunDemo   demo.Options          // the dataset an empty default store gets
	onSeedStep     func(done, total int) // when set, sees every step of a seed
	secrets        *secretSources        // the run's OpenIM secrets, asked once each
}

// osProcess is the process main runs as.
func osProcess() process {
	return process{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, firstRunDemo: demo.Options{Seed: 1}, secrets: newSecretSources()}
}

func main() {
	os.Exit(run(os.Args[1:], osProcess()))
}

// run is the whole program; main only exits with its code. Ctrl-C and
// SIGTERM (kill, a service manager) cancel the context every command runs
// under, so a seed stops between batches and bench removes its scratch
// files; the signal is the context's cause (signalStop), and a run it cut
// exits 1 saying so.
func run(args []string, p process) int {
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(signals)
	go func() {
		select {
		case sig := <-signals:
			cancel(signalStop{sig})
		case <-ctx.Done():
		}
	}()
	return runContext(ctx, args, p)
}

// signalStop is the cause of a run's context a signal ended.
type signalStop struct{ sig os.Signal }

func (e signalStop) Error() string {
	name := map[os.Signal]string{os.Interrupt: "SIGINT", syscall.SIGTERM: "SIGTERM"}[e.sig]
	return "stopped by " + name
}

// stoppedBySignal is the signal that ended ctx, when one did.
func stoppedBySignal(ctx context.Context) (signalStop, bool) {
	var stop signalStop
	return stop, ctx.Err() != nil && errors.As(context.Cause(ctx), &stop)
}

// exitRequest is how kong's help and --version end a run: a panic that
// runContext turns back into an exit code.
type exitRequest int

// runContext is run under a context the caller ends (tests interrupt with it).
func runContext(ctx context.Context, args []string, p process) (code int) {
	// A damaged embedded store that passed the checks at open (a page
	// overwritten in the middle) makes bbolt panic or fault on its memory
	// map: the store's transactions turn that into an error, and what
	// faults outside them is said here in one line instead of a stack trace.
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer p.secrets.end() // a secret command a write still waits on (the UI quit meanwhile)
	defer func() {
		r := recover()
		if r == nil {
			return
		}
		if exit, ok := r.(exitRequest); ok {
			code = int(exit)
			return
		}
		if !embedded.IsFault(r) {
			panic(r)
		}
		fmt.Fprintln(p.stderr, errorLine(fmt.Errorf("%w: %v", embedded.ErrDamaged, r)))
		code = 1
	}()
	err := dispatch(ctx, args, p)
	if stop, ok := stoppedBySignal(ctx); ok && err == nil {
		// The command ended as if whole, but a signal cut it: what it
		// printed may stop short, and its caller must not take it for done.
		err = fmt.Errorf("%s: the run did not finish", stop)
	}
	var ue usageError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ue):
		fmt.Fprintln(p.stderr, errorLine(err))
		return 2
	default:
		fmt.Fprintln(p.stderr, errorLine(err))
		return 1
	}
}

// newParser declares the command line to kong; help and version print to
// stdout. The context of the config file resolves what the command line
// does not give.
func newParser(p process) (*kong.Kong, *contextChoice, error) {
	target := &cli{}
	choice := &contextChoice{conn: &target.connection}
	parser, err := kong.New(target,
		kong.Resolvers(choice),
		kong.Name("chatlens"),
		kong.Description("chatlens shows an OpenIM-style bucketed message store the way one chosen user sees it.\n\n"+
			"With no command it starts the terminal UI (no --mongo-uri: a local demo store). "+
			"Errors are one line on stderr; exit 0 ok, 1 failure, 2 bad usage."),
		kong.Writers(p.stdout, p.stderr),
		kong.Exit(func(code int) { panic(exitRequest(code)) }),
		kong.WithHyphenPrefixedParameters(true), // --seq -4 reaches the check of --seq, as with Go's flag package
		kong.ConfigureHelp(kong.HelpOptions{Compact: true, NoExpandSubcommands: true}),
		kong.ExplicitGroups([]kong.Group{{Key: "connection", Title: "Connection flags (every command takes them):"}}),
		kong.Vars{
			"version":            versionLine(),
			"data_path":          defaultDataPath(),
			"audit_path":         defaultAuditPath(),
			"coll_msg":           bucket.CollMsg,
			"themes":             strings.Join(themes.Names(), ", "),
			"demo_conversations": fmt.Sprint(demo.DefaultConversations),
			"demo_messages":      fmt.Sprint(demo.DefaultMessages),
			"demo_long":          fmt.Sprint(demo.DefaultLongMessages),
			"bench_messages":     fmt.Sprint(bench.DefaultMessages),
			"bench_batch":        fmt.Sprint(bench.DefaultBatchSize),
			"bucket_size":        fmt.Sprint(bucket.BucketSize),
			"config_path":        configPath(),
			"at_forms":           atForms,
		},
	)
	return parser, choice, err
}

// dispatch parses args and runs the command they name.
func dispatch(ctx context.Context, args []string, p process) error {
	parser, choice, err := newParser(p)
	if err != nil {
		return err // a mistake in the declaration above
	}
	if err := singleDashFlag(parser, args); err != nil {
		return err
	}
	kctx, err := parser.Parse(args)
	if choice.err != nil && (kctx == nil || commandName(kctx) != "__complete") {
		return choice.err // the context's values were not applied: the first mistake
	}
	if err != nil {
		if line, ok := flagBeforeCommand(parser, args, err.Error()); ok {
			return usageError{line}
		}
		return parseError(parser, err)
	}
	choice.decide(kctx) // (when kong asked for no flag)
	if err := choice.enforce(); err != nil {
		return err
	}
	if err := emptyFlag(kctx); err != nil {
		return err
	}
	s := &session{process: p, conn: choice.conn, cmd: commandName(kctx), contextErr: choice.err, given: choice.given}
	if s.cmd != "__complete" {
		for _, w := range choice.warnings {
			fmt.Fprintln(p.stderr, "chatlens: "+w)
		}
	}
	if stop, ok := stoppedBySignal(ctx); ok { // while the command line and config were read
		what := s.cmd
		if what == "" {
			what = "the UI"
		}
		return fmt.Errorf("%s before %s started", stop, what)
	}
	kctx.BindTo(ctx, (*context.Context)(nil))
	kctx.Bind(s, parser)
	return readOnlyBecause(kctx.Run(), choice)
}

// readOnlyBecause says, of a write refused as read-only, what made the run
// read-only: the context's read-only key or the flag.
func readOnlyBecause(err error, choice *contextChoice) error {
	if !errors.Is(err, store.ErrReadOnly) {
		return err
	}
	if d := choice.conn.deployment; d != nil && d.readOnly {
		return fmt.Errorf("%w (context %s is read-only)", err, oneLine(d.name))
	}
	if choice.given["read-only"] {
		return fmt.Errorf("%w (--read-only given)", err)
	}
	return err
}

// commandName is the command kctx selected; "" for the UI, which the
// store-opening policy treats as no command.
func commandName(kctx *kong.Context) string {
	if n := kctx.Selected(); n != nil && n.Name != "ui" {
		return n.Name
	}
	return ""
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

// oneLine keeps an error to one line on stderr.
func oneLine(s string) string { return strings.Join(strings.Fields(projection.SingleLine(s)), " ") }
