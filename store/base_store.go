package store

import (
	"context"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// Store composes a Backend with an optional Cache, the way OpenIM's
// controller composes MongoDB and Redis: reads try the cache first, writes go
// through the bucket state machine on the backend, then invalidate the cache.
// Its backend is wrapped in a Counter, which counts round trips so the UI
// and `dump --stats` can show them.
//
// Store is a facade over parts stacked one on another, each seeing only
// those below it, so a step calls only downward: base (the backend, the
// cache, the options and counters), messageReads (buckets, slots, ranges,
// scans), userReads (windows, seq records, members, names, conversations),
// lookupReads (finds across conversations, notifications, the audit
// trail); then a write's steps: planning (what it would do, from reads),
// applying (the state machine, the API's sends) and writePath (Ask, Apply
// and Do, which audit a refusal). Their methods are Store's by promotion.
type Store struct{ *writePath }

// The parts, bottom up.
type (
	messageReads struct{ *base }
	userReads    struct{ *messageReads }
	lookupReads  struct {
		*userReads
		told toldCache // the notification conversations read for Told
	}
	planning  struct{ *lookupReads } // what a write would do: reads only
	applying  struct{ *planning }    // the state machine, the API's sends
	writePath struct{ *applying }    // Ask (plan, audit a refusal), Apply, Do
)

// base is what every part reads: the counted backend, the cache, the
// options and the counters.
type base struct {
	backend   *Counter
	cache     Cache
	readOnly  bool
	audit     *AuditLog
	operator  string
	api       API // nil: writes go through the state machine on the backend
	apiSettle time.Duration
	imAdmins  []string // the deployment's app admins (Options.IMAdmins)
	context   string   // the named deployment (Options.Context)
	// FindBatch is the most buckets read in one find.
	FindBatch int

	cacheRoundTrips atomic.Int64
	cacheHits       atomic.Int64
	cacheMisses     atomic.Int64
	mu              sync.Mutex
	cacheErr        error
}

// Options configure a Store.
type Options struct {
	Cache    Cache     // nil: no cache layer
	ReadOnly bool      // refuse every write before it is attempted
	Audit    *AuditLog // nil: writes are not logged
	Operator string    // who is at the keyboard, for the audit log
	// API, when set, makes the writes Do has checked (revoke, delete, mark
	// read) through the server, which notifies devices; nil: the state
	// machine writes them to the backend.
	API API
	// APISettle bounds the wait for the store to show a write the API
	// accepted (0: DefaultAPISettle).
	APISettle time.Duration
	// IMAdmins are the user IDs the deployment makes app admins (OpenIM's
	// share.yml imAdminUserID): their own writes pass as --admin's do, as
	// the server's authverify.IsAdmin passes their token.
	IMAdmins []string
	// Context names the deployment, as the user's config file does (a
	// context such as prod-eu); "" when none was chosen.
	Context string
}

// New wraps backend, counting its round trips.
func New(backend Backend, opts Options) *Store {
	settle := opts.APISettle
	if settle == 0 {
		settle = DefaultAPISettle
	}
	b := &base{backend: NewCounter(backend, Watch{}), cache: opts.Cache, readOnly: opts.ReadOnly,
		audit: opts.Audit, operator: opts.Operator, api: opts.API, apiSettle: settle, FindBatch: 16, context: opts.Context,
		imAdmins: slices.DeleteFunc(slices.Clone(opts.IMAdmins), func(id string) bool { return id == "" })}
	return &Store{&writePath{&applying{&planning{&lookupReads{userReads: &userReads{&messageReads{b}}}}}}}
}

// IsIMAdmin reports whether uid is one of the deployment's app admins
// (Options.IMAdmins): OpenIM skips every permission check of their writes.
func (s *base) IsIMAdmin(uid string) bool { return slices.Contains(s.imAdmins, uid) }

// Backend is the underlying backend, its calls not counted (for import,
// export and check).
func (s *base) Backend() Backend { return s.backend.Inner() }

// SlotReads says how a read of a few slots reads on this backend: cut to
// them, or as whole buckets (a server without the $slice projection).
func (s *base) SlotReads() SlotReadMode { return s.backend.SlotReads() }

// Context is the named deployment the store was opened as (Options.Context).
func (s *base) Context() string { return s.context }

// ReadOnly reports whether writes are refused.
func (s *base) ReadOnly() bool { return s.readOnly }

// Describe names the backend and cache, credentials masked.
func (s *base) Describe() string {
	d := s.backend.Describe()
	if s.cache != nil {
		d += " + " + s.cache.Describe()
	}
	if s.api != nil {
		d += ", writes via " + s.api.Describe()
	}
	return d
}

// Close closes the backend and cache.
func (s *base) Close(ctx context.Context) error {
	if s.cache != nil {
		_ = s.cache.Close()
	}
	return s.backend.Close(ctx)
}

// Stats are the counters shown in the status bar and by `dump --stats`.
type Stats struct {
	RoundTrips      int64 // backend queries and commands
	CacheRoundTrips int64
	CacheHits       int64
	CacheMisses     int64
	CacheError      error // the last cache failure, nil once the cache answers again
}

// Stats returns a snapshot of the counters.
func (s *base) Stats() Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	return Stats{RoundTrips: s.backend.RoundTrips(), CacheRoundTrips: s.cacheRoundTrips.Load(),
		CacheHits: s.cacheHits.Load(), CacheMisses: s.cacheMisses.Load(), CacheError: s.cacheErr}
}

// Traffic is the backend's traffic so far; ok false when the backend does
// not count it.
func (s *base) Traffic() (t Traffic, ok bool) { return s.backend.Traffic() }

// cacheResult records a cache round trip and whether it failed.
func (s *base) cacheResult(err error) {
	s.cacheRoundTrips.Add(1)
	s.mu.Lock()
	s.cacheErr = err
	s.mu.Unlock()
}
