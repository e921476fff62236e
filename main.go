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

	"github.com/alecthomas/kong"

	"github.com/chatlens/chatlens/projection"
	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bench"
	"github.com/chatlens/chatlens/store/demo"
	"github.com/chatlens/chatlens/store/embedded"
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
	Completion    completionCmd    `cmd:"" help:"Print a shell completion script (bash, zsh or fish)."`
	Help          helpCmd          `cmd:"" help:"Show help for chatlens or one command."`
}

// connection holds the flags every command takes: where the store is and
// how to reach it.
type connection struct {
	MongoURI       string `name:"mongo-uri" env:"CHATLENS_MONGO_URI" placeholder:"URI" group:"connection" help:"MongoDB URI; none: the embedded store."`
	DB             string `name:"db" default:"openim_v3" placeholder:"NAME" group:"connection" help:"MongoDB database."`
	Redis          string `name:"redis" env:"CHATLENS_REDIS" placeholder:"ADDR" group:"connection" help:"Redis address or URL, the first read layer."`
	Data           string `name:"data" env:"CHATLENS_DATA" placeholder:"FILE" group:"connection" complete:"file" help:"Embedded store file (default ${data_path})."`
	ReadOnly       bool   `name:"read-only" group:"connection" help:"Refuse every write."`
	ReadPreference string `name:"read-preference" placeholder:"MODE" group:"connection" help:"MongoDB read preference (primary, secondaryPreferred, ...)."`
	AuditLog       string `name:"audit-log" placeholder:"FILE" group:"connection" complete:"file" help:"Audit log file (default ${audit_path})."`
	UTC            bool   `name:"utc" group:"connection" help:"Show times in UTC, not the local time zone."`
}

// Validate checks the Redis address before anything creates or seeds a
// store for nothing.
func (c *connection) Validate() error {
	if c.Redis != "" {
		return rediscache.ParseAddr(c.Redis)
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
}

// osProcess is the process main runs as.
func osProcess() process {
	return process{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, firstRunDemo: demo.Options{Seed: 1}}
}

func main() {
	os.Exit(run(os.Args[1:], osProcess()))
}

// run is the whole program; main only exits with its code. Ctrl-C and
// SIGTERM (kill, a service manager) cancel the context every command runs
// under, so a seed stops between batches and bench removes its scratch files.
func run(args []string, p process) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return runContext(ctx, args, p)
}

// usageError is bad input from the command line: exit code 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, a ...any) error { return usageError{fmt.Sprintf(format, a...)} }

// exitRequest is how kong's help and --version end a run: a panic that
// runContext turns back into an exit code.
type exitRequest int

// runContext is run under a context the caller ends (tests interrupt with it).
func runContext(ctx context.Context, args []string, p process) (code int) {
	// A damaged embedded store that passed the checks at open (a page
	// overwritten in the middle) makes bbolt panic or fault on its memory
	// map: say so in one line instead of a stack trace.
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		r := recover()
		if r == nil {
			return
		}
		if exit, ok := r.(exitRequest); ok {
			code = int(exit)
			return
		}
		if !storeFault(r) {
			panic(r)
		}
		fmt.Fprintln(p.stderr, errorLine(fmt.Errorf("%w: %v", embedded.ErrDamaged, r)))
		code = 1
	}()
	err := dispatch(ctx, args, p)
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
// stdout.
func newParser(p process) (*kong.Kong, error) {
	return kong.New(&cli{},
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
			"coll_msg":           store.CollMsg,
			"themes":             strings.Join(themes.Names(), ", "),
			"demo_conversations": fmt.Sprint(demo.DefaultConversations),
			"demo_messages":      fmt.Sprint(demo.DefaultMessages),
			"demo_long":          fmt.Sprint(demo.DefaultLongMessages),
			"bench_messages":     fmt.Sprint(bench.DefaultMessages),
			"bench_batch":        fmt.Sprint(bench.DefaultBatchSize),
			"bucket_size":        fmt.Sprint(store.BucketSize),
		},
	)
}

// dispatch parses args and runs the command they name.
func dispatch(ctx context.Context, args []string, p process) error {
	parser, err := newParser(p)
	if err != nil {
		return err // a mistake in the declaration above
	}
	if err := singleDashFlag(parser, args); err != nil {
		return err
	}
	kctx, err := parser.Parse(args)
	if err != nil {
		return parseError(parser, err)
	}
	s := &session{process: p, conn: &parser.Model.Target.Addr().Interface().(*cli).connection, cmd: commandName(kctx)}
	kctx.BindTo(ctx, (*context.Context)(nil))
	kctx.Bind(s, parser)
	return kctx.Run()
}

// commandName is the command kctx selected; "" for the UI, which the
// store-opening policy treats as no command.
func commandName(kctx *kong.Context) string {
	if n := kctx.Selected(); n != nil && n.Name != "ui" {
		return n.Name
	}
	return ""
}

// parseError makes kong's error a usage error naming the command it is
// about, and suggests the nearest command for a word that is none.
func parseError(parser *kong.Kong, err error) error {
	msg := err.Error()
	var pe *kong.ParseError
	if !errors.As(err, &pe) || pe.Context == nil {
		return usageError{msg}
	}
	if word, ok := strings.CutPrefix(msg, "unexpected argument "); ok && commandName(pe.Context) == "" {
		// A word where a command goes: kong handed it to the UI, which takes none.
		return usageError{unknownCommand(parser, word)}
	}
	if flag, ok := unknownFlag(msg); ok {
		msg = "unknown flag " + flag
		if near := nearest(flag, flagNames(parser, pe.Context)); near != "" {
			msg += fmt.Sprintf(", did you mean %q?", near)
		}
	}
	if name := commandName(pe.Context); name != "" && !strings.HasPrefix(msg, name+": ") {
		msg = name + ": " + msg // kong names the command in errors of its Validate only
	}
	return usageError{msg}
}

// unknownCommand says word is no command, with the nearest if one is near.
func unknownCommand(parser *kong.Kong, word string) string {
	msg := fmt.Sprintf("unknown command %q", word)
	if near := nearest(word, commandNames(parser)); near != "" {
		msg += fmt.Sprintf(", did you mean %q?", near)
	}
	return msg + " (chatlens help lists the commands)"
}

// unknownFlag is the flag kong's error says it does not know. Its own
// suggestions are every name within two edits; the nearest one serves better.
func unknownFlag(msg string) (string, bool) {
	rest, ok := strings.CutPrefix(msg, "unknown flag ")
	flag, _, _ := strings.Cut(rest, ",")
	return flag, ok && flag != ""
}

// flagNames are the flags the command kctx selected takes, with the
// global ones.
func flagNames(parser *kong.Kong, kctx *kong.Context) []string {
	node := parser.Model.Node
	if n := kctx.Selected(); n != nil {
		node = n
	}
	var names []string
	for _, group := range node.AllFlags(true) {
		for _, f := range group {
			names = append(names, "--"+f.Name)
		}
	}
	return names
}

func commandNames(parser *kong.Kong) []string {
	var names []string
	for _, n := range parser.Model.Children {
		if !n.Hidden {
			names = append(names, n.Name)
		}
	}
	return names
}

// nearest is the name closest to word by edit distance, if any is within
// a third of the word's length (at least 1, at most 3 edits), or has it as
// a prefix.
func nearest(word string, names []string) string {
	best, bestDist := "", min(3, max(1, len(word)/3))+1
	for _, n := range names {
		d := editDistance(word, n)
		if strings.HasPrefix(n, word) && word != "" {
			d = min(d, 1)
		}
		if d < bestDist {
			best, bestDist = n, d
		}
	}
	return best
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}

// singleDashFlag refuses -name for a long flag --name with a pointer to
// the two-dash form: Go's flag package took both, kong reads -name as the
// short flags -n -a -m -e.
func singleDashFlag(parser *kong.Kong, args []string) error {
	for _, a := range args {
		if a == "--" {
			return nil
		}
		name, _, _ := strings.Cut(strings.TrimPrefix(a, "-"), "=")
		if !strings.HasPrefix(a, "-") || strings.HasPrefix(a, "--") || len(name) < 2 {
			continue
		}
		for _, n := range append([]*kong.Node{parser.Model.Node}, parser.Model.Children...) {
			for _, f := range n.Flags {
				if f.Name == name {
					return usagef("unknown flag %s, did you mean %q?", a, "--"+name)
				}
			}
		}
	}
	return nil
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

// oneLine keeps an error to one line on stderr.
func oneLine(s string) string { return strings.Join(strings.Fields(projection.SingleLine(s)), " ") }
