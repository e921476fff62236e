// Package mongostore is the MongoDB backend of chatlens: every method of
// store.Backend is one plain, portable query (find by doc_id / $in, $set,
// $addToSet, filtered update, insert, $max upsert) so that it runs the same
// on MongoDB, sharded clusters and MongoDB-wire servers such as FerretDB.
package mongostore

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"go.mongodb.org/mongo-driver/v2/event"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
	"go.mongodb.org/mongo-driver/v2/mongo/readpref"
	"go.mongodb.org/mongo-driver/v2/x/mongo/driver/topology"

	"github.com/chatlens/chatlens/store"
)

// DefaultTimeout bounds server selection and connecting when Options.Timeout is 0.
const DefaultTimeout = 5 * time.Second

// DefaultOpTimeout bounds one round trip when Options.OpTimeout is 0: a
// server that accepts connections but stops answering must not leave the UI
// waiting forever.
const DefaultOpTimeout = 15 * time.Second

// Options tune how the backend talks to the deployment.
type Options struct {
	// ReadPreference is primary (default), primaryPreferred, secondary,
	// secondaryPreferred or nearest.
	ReadPreference string
	// Timeout bounds server selection and connecting, so an unreachable
	// server fails fast. serverSelectionTimeoutMS and connectTimeoutMS in
	// the URI take precedence, each over its half.
	Timeout time.Duration
	// OpTimeout bounds each round trip (a find, an update, one batch of an
	// import) unless the caller's context ends sooner. Scans (export,
	// check) are bounded by the caller only.
	OpTimeout time.Duration
	// Monitor, if set, sees every command sent and its outcome (tests
	// assert on the exact commands: index specs, read and write concerns).
	Monitor *event.CommandMonitor
}

// Backend is a store.Backend on one MongoDB database: a facade over one
// type per role of store.Backend, all on one connection, that keeps the
// lifecycle itself.
type Backend struct {
	*conn
	msgReads
	msgWrites
	seqs
	directory
	rawDocs
	queryPlans
}

// The roles of a Backend, each one type.
type (
	msgReads   struct{ *conn } // msg.go, slots.go, ranges.go, newest.go, find.go
	msgWrites  struct{ *conn } // msg.go, bulk.go
	seqs       struct{ *conn } // records.go, bulk.go
	directory  struct{ *conn } // records.go
	rawDocs    struct{ *conn } // raw.go, indexes.go
	queryPlans struct{ *conn } // explain.go
)

// conn is the connection every role of a Backend works on, and the
// helpers they share to send a request and make its error safe to show.
type conn struct {
	client  *mongo.Client
	db      *mongo.Database
	uri     string
	name    string
	clock   *causalClock  // nil when the deployment refuses sessions
	timeout time.Duration // server selection
	opTime  time.Duration // one round trip
	closeMu sync.Mutex
	closed  bool
	// slotReads is a store.SlotReadMode: whether this server honours the
	// $slice projection, found out by the first FindSlots.
	slotReads atomic.Int32
	// rangeReads is the same for FindSlotRanges' $slice aggregation.
	rangeReads atomic.Int32
	// newestReads is the same for FindNewestSlots' aggregation.
	newestReads atomic.Int32
	traffic     *traffic
}

var (
	_ store.BucketReader = (*msgReads)(nil)
	_ store.BucketWriter = (*msgWrites)(nil)
	_ store.SeqRecorder  = (*seqs)(nil)
	_ store.Directory    = (*directory)(nil)
	_ store.RawDocs      = (*rawDocs)(nil)
	_ store.Lifecycle    = (*Backend)(nil)
	_ store.Backend      = (*Backend)(nil)
	_ store.Metered      = (*Backend)(nil)
)

func newBackend(c *conn) *Backend {
	return &Backend{conn: c, msgReads: msgReads{c}, msgWrites: msgWrites{c}, seqs: seqs{c},
		directory: directory{c}, rawDocs: rawDocs{c}, queryPlans: queryPlans{c}}
}

// Open connects to uri, checks that the server answers, and uses database
// db. Errors are one line and never contain the password.
func Open(ctx context.Context, uri, db string, opts Options) (*Backend, error) {
	fail := func(err error) error {
		return fmt.Errorf("open %s: %s", describe(uri, db), scrub(err.Error(), uri))
	}
	badInput := func(err error) error { return &inputError{msg: fail(err).Error()} }
	if db == "" {
		return nil, badInput(errors.New("no database name given"))
	}
	rp, err := readPreference(opts.ReadPreference)
	if err != nil {
		return nil, badInput(err)
	}
	timeout := opts.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	co := options.Client().ApplyURI(uri).SetReadPreference(rp)
	// A timeout the URI sets is the user's choice: the default only fills
	// in what the URI leaves out.
	if co.ServerSelectionTimeout != nil {
		timeout = *co.ServerSelectionTimeout
	} else {
		co.SetServerSelectionTimeout(timeout)
	}
	if co.ConnectTimeout == nil {
		co.SetConnectTimeout(timeout)
	}
	majorityUnlessSet(co)
	counted := &traffic{}
	co.SetMonitor(counted.monitor(opts.Monitor))
	if err := co.Validate(); err != nil {
		var dnsErr *net.DNSError // mongodb+srv:// resolves while parsing: the network, not the input
		if errors.As(err, &dnsErr) {
			return nil, fail(err)
		}
		return nil, badInput(err)
	}
	client, err := mongo.Connect(co)
	if err != nil {
		return nil, fail(err)
	}
	pingCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	if err := client.Ping(pingCtx, rp); err != nil {
		_ = client.Disconnect(context.Background())
		return nil, fail(unreachable(err, timeout))
	}
	opTime := opts.OpTimeout
	if opTime <= 0 {
		opTime = DefaultOpTimeout
	}
	b := newBackend(&conn{client: client, db: client.Database(db), uri: uri, name: describe(uri, db),
		timeout: timeout, opTime: opTime, traffic: counted})
	b.clock = probeSessions(pingCtx, client, rp)
	return b, nil
}

// ErrBadInput marks an Open error caused by what the caller gave (a URI
// that does not parse, an unknown read preference, no database name), as
// opposed to a server that could not be reached: errors.Is(err, ErrBadInput).
var ErrBadInput = errors.New("bad connection settings")

type inputError struct{ msg string }

func (e *inputError) Error() string        { return e.msg }
func (e *inputError) Is(target error) bool { return target == ErrBadInput }

// readPreference parses a mode name as mongosh spells it, case-insensitive.
func readPreference(mode string) (*readpref.ReadPref, error) {
	if mode == "" {
		return readpref.Primary(), nil
	}
	m, err := readpref.ModeFromString(mode)
	if err != nil {
		return nil, fmt.Errorf("read preference %q is not one of primary, primaryPreferred, secondary, secondaryPreferred, nearest", mode)
	}
	return readpref.New(m)
}

// unreachable shortens the driver's server selection error (a dump of the
// topology) to its cause.
func unreachable(err error, timeout time.Duration) error {
	msg := err.Error()
	if i := strings.LastIndex(msg, "Last error: "); i >= 0 {
		cause := strings.TrimSpace(strings.TrimRight(msg[i+len("Last error: "):], " ,]}"))
		return fmt.Errorf("no server reachable within %s: %s", timeout, cause)
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("no server reachable within %s: %s", timeout, msg)
	}
	return err
}

// Describe names the deployment with the password masked.
func (b *Backend) Describe() string { return b.name }

// CausalSessions reports whether operations run in causally consistent
// sessions (false on servers that refuse sessions).
func (b *Backend) CausalSessions() bool { return b.clock != nil }

// Close disconnects; closing twice is harmless.
// Flush has nothing to do: every MongoDB write is its own command, done
// when it is acknowledged.
func (b *Backend) Flush(context.Context) error { return nil }

// Sync has nothing to do: durability is the write concern's (majority).
func (b *Backend) Sync(context.Context) error { return nil }

// Committed reports every write committed: each is acknowledged when it
// returns.
func (b *Backend) Committed() (written, committed uint64) { return 0, 0 }

func (b *Backend) Close(ctx context.Context) error {
	b.closeMu.Lock()
	defer b.closeMu.Unlock()
	if b.closed {
		return nil
	}
	b.closed = true
	b.clock.end(ctx)
	return b.wrap(b.client.Disconnect(ctx))
}

// wrap makes a driver error safe to show: one line, no secret of the URI.
// The original stays reachable through errors.Is/As (timeouts, network).
func (b *conn) wrap(err error) error {
	if err == nil {
		return nil
	}
	return &safeError{msg: scrub(err.Error(), b.uri), err: err}
}

// wrapOp is wrap with the operation named first ("find msg: ..."). A
// server that could not be selected or did not answer in time is said so,
// without the driver's dump of the topology.
func (b *conn) wrapOp(op, coll string, err error) error {
	if err == nil {
		return nil
	}
	shown := err
	var sse topology.ServerSelectionError
	switch {
	case errors.As(err, &sse):
		shown = unreachable(err, b.timeout)
	case errors.Is(err, context.DeadlineExceeded):
		shown = fmt.Errorf("no answer within %s (server slow or unreachable): %w", b.opTime, err)
	}
	return &safeError{msg: op + " " + coll + ": " + scrub(shown.Error(), b.uri), err: err}
}

// run runs one round trip in a causally consistent session, bounded by the
// operation timeout.
func (b *conn) run(ctx context.Context, fn func(context.Context) error) error {
	ctx, cancel := context.WithTimeout(ctx, b.opTime)
	defer cancel()
	return b.clock.run(ctx, fn)
}

type safeError struct {
	msg string
	err error
}

func (e *safeError) Error() string { return e.msg }
func (e *safeError) Unwrap() error { return e.err }

// Describe names the deployment of uri and db as Backend.Describe will,
// password masked, before connecting (the UI shows it while it connects).
func Describe(uri, db string) string { return describe(uri, db) }
