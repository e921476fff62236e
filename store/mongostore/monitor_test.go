package mongostore_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/event"

	"github.com/chatlens/chatlens/store/mongostore"
)

// sentCommands records every command a Backend sends, as the server gets
// it: FerretDB accepts specs and concerns that MongoDB would refuse or act
// on, so tests assert on what chatlens sends, not only on what it gets back.
type sentCommands struct {
	mu   sync.Mutex
	cmds []sentCommand
}

type sentCommand struct {
	name string
	body bson.Raw
}

func (s *sentCommands) monitor() *event.CommandMonitor {
	return &event.CommandMonitor{Started: func(_ context.Context, e *event.CommandStartedEvent) {
		s.mu.Lock()
		defer s.mu.Unlock()
		s.cmds = append(s.cmds, sentCommand{e.CommandName, append(bson.Raw{}, e.Command...)})
	}}
}

// named returns the recorded commands called name ("find", "createIndexes").
func (s *sentCommands) named(name string) []bson.Raw {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []bson.Raw
	for _, c := range s.cmds {
		if c.name == name {
			out = append(out, c.body)
		}
	}
	return out
}

func (s *sentCommands) reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cmds = nil
}

// openRecorded opens database db of uri with every command recorded.
func openRecorded(t *testing.T, uri, db string) (*mongostore.Backend, *sentCommands) {
	t.Helper()
	rec := &sentCommands{}
	b, err := mongostore.Open(t.Context(), uri, db, mongostore.Options{Timeout: 5 * time.Second, Monitor: rec.monitor()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = b.Close(context.Background()) })
	return b, rec
}
