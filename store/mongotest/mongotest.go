// Package mongotest starts an in-process MongoDB-wire server (FerretDB v1
// embedded, SQLite handler, telemetry off, only its errors logged to the
// test) for tests and bench tooling, or hands out a real MongoDB when
// CHATLENS_TEST_MONGO_URI is set. Import it only from
// _test.go files and bench tooling: it pulls FerretDB into the binary.
//
// FerretDB v1 limits to keep in mind: it scans a collection on every read
// (keep datasets to a few buckets), has no transactions, no $slice, gives
// wrong results for $elemMatch on sub-documents and "$path" in $project,
// and loses concurrent updates to one document.
package mongotest

import (
	"context"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/FerretDB/FerretDB/ferretdb"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
)

// EnvURI names the environment variable that points tests at a real MongoDB.
const EnvURI = "CHATLENS_TEST_MONGO_URI"

// Server is an embedded FerretDB behind a fixed loopback address. Stop
// drops every connection at once and shuts FerretDB down; Restart brings
// it back on the same address with the same data.
type Server struct {
	t     testing.TB
	dir   string // SQLite directory: the data that survives a restart
	addr  string // the address clients use, fixed for the Server's life
	mu    sync.Mutex
	run   *instance // nil while stopped
	ended bool
}

// instance is one running FerretDB and the proxy in front of it.
type instance struct {
	cancel context.CancelFunc
	done   chan struct{}
	proxy  *proxy
}

// Start runs a fresh FerretDB for t; it is stopped when t ends.
func Start(t testing.TB) *Server {
	t.Helper()
	collectLessOften()
	s := &Server{t: t, dir: t.TempDir() + string(filepath.Separator), addr: "127.0.0.1:0"}
	if err := s.start(); err != nil {
		t.Fatalf("mongotest: start FerretDB: %v", err)
	}
	t.Cleanup(func() {
		s.mu.Lock()
		s.ended = true
		s.mu.Unlock()
		s.Stop()
	})
	return s
}

// URI is the server's connection string, without a database.
func (s *Server) URI() string { return "mongodb://" + s.Addr() + "/" }

// Addr is host:port, the same across restarts.
func (s *Server) Addr() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.addr
}

// Stop drops every client connection and stops FerretDB; the data stays.
// Stopping a stopped server does nothing.
func (s *Server) Stop() {
	s.mu.Lock()
	run := s.run
	s.run = nil
	s.mu.Unlock()
	if run == nil {
		return
	}
	run.proxy.close()
	run.cancel()
	<-run.done
}

// Restart starts the server again on the same address with the same data.
func (s *Server) Restart() {
	s.t.Helper()
	s.mu.Lock()
	running, ended := s.run != nil, s.ended
	s.mu.Unlock()
	if ended {
		s.t.Fatalf("mongotest: Restart after the test ended")
	}
	if running {
		return
	}
	if err := s.start(); err != nil {
		s.t.Fatalf("mongotest: restart FerretDB on %s: %v", s.Addr(), err)
	}
}

// newMu serialises ferretdb.New, which writes a package-level variable.
var newMu sync.Mutex

func (s *Server) start() error {
	newMu.Lock()
	f, err := ferretdb.New(&ferretdb.Config{
		Listener:  ferretdb.ListenerConfig{TCP: "127.0.0.1:0"},
		Handler:   "sqlite",
		SQLiteURL: sqliteURL(s.dir),
		Logger:    slog.New(&testHandler{t: s.t, server: s}),
	})
	newMu.Unlock()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = f.Run(ctx)
	}()
	u, err := url.Parse(f.MongoDBURI())
	if err == nil {
		var p *proxy
		if p, err = listenProxy(s.Addr(), u.Host); err == nil {
			s.mu.Lock()
			s.addr, s.run = p.addr(), &instance{cancel: cancel, done: done, proxy: p}
			s.mu.Unlock()
			return nil
		}
	}
	cancel()
	<-done
	return err
}

// sqliteURL points FerretDB at dir. Durability does not matter for test
// data, so SQLite skips fsync; a Stop still leaves the data readable for Restart.
func sqliteURL(dir string) string {
	u := url.URL{Scheme: "file", Path: dir, RawQuery: url.Values{"_pragma": {"synchronous(OFF)"}}.Encode()}
	return u.String()
}

// running tells the log handler whether the test may still be logged to.
func (s *Server) running() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return !s.ended
}

// URI returns the real MongoDB of CHATLENS_TEST_MONGO_URI (real is true),
// else the URI of a fresh FerretDB stopped when t ends.
func URI(t testing.TB) (uri string, real bool) {
	t.Helper()
	if uri := os.Getenv(EnvURI); uri != "" {
		return uri, true
	}
	return Start(t).URI(), false
}

var dbSeq atomic.Int64

// Database returns a database name no other test uses and drops that
// database when t ends (a real MongoDB keeps no test data behind).
func Database(t testing.TB, uri string) string {
	t.Helper()
	name := fmt.Sprintf("chatlens_test_%d_%d", os.Getpid(), dbSeq.Add(1))
	t.Cleanup(func() { drop(t, uri, name) })
	return name
}

func drop(t testing.TB, uri, name string) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	client, err := mongo.Connect(options.Client().ApplyURI(uri).SetServerSelectionTimeout(2 * time.Second))
	if err != nil {
		return
	}
	defer client.Disconnect(ctx)
	if err := client.Database(name).Drop(ctx); err != nil {
		t.Logf("mongotest: could not drop test database %s: %v", name, err)
	}
}
