package mongostore

import (
	"errors"
	"testing"

	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/chatlens/chatlens/store"
)

// The server errors that say nothing was written are store.ErrNotWritten,
// so the state machine tries the bucket again; others are not, and a lost
// reply stays unknown (it may have been written), never retried.
func TestWriteErrorsThatSayNothingWasWritten(t *testing.T) {
	b := &conn{}
	for _, c := range []struct {
		name              string
		err               error
		notWritten, maybe bool
	}{
		// FerretDB v2 on PostgreSQL: one of 8 racing inserts of one new bucket.
		{"deadlock detected", mongo.CommandError{Code: 1, Message: "ERROR: deadlock detected (SQLSTATE 40P01)"}, true, false},
		{"deadlock as a write error", mongo.WriteException{WriteErrors: []mongo.WriteError{{Code: 16908292, Message: "deadlock detected"}}}, true, false},
		{"write conflict", mongo.CommandError{Code: 112, Message: "WriteConflict"}, true, false},
		{"transient label", mongo.CommandError{Code: 251, Labels: []string{"TransientTransactionError"}}, true, false},
		{"retryable write label", mongo.CommandError{Code: 262, Labels: []string{"RetryableWriteError"}}, true, false},
		{"not primary", mongo.CommandError{Code: 10107, Message: "not primary"}, true, false},
		{"primary stepped down", mongo.CommandError{Code: 189}, true, false},
		{"shutdown in progress", mongo.CommandError{Code: 91}, true, false},
		{"interrupted by a state change", mongo.WriteException{WriteConcernError: &mongo.WriteConcernError{Code: 11602}}, true, false},
		{"not primary in a write error", mongo.WriteException{WriteErrors: []mongo.WriteError{{Code: 13435, Message: "not primary and secondaryOk=false"}}}, true, false},
		{"a bad update", mongo.CommandError{Code: 2, Message: "bad value"}, false, false},
		{"duplicate key", mongo.WriteException{WriteErrors: []mongo.WriteError{{Code: 11000}}}, false, false},
		{"network error", mongo.CommandError{Code: 6, Labels: []string{"NetworkError", "RetryableWriteError"}}, false, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			werr := b.wrapWrite("insert", "msg", c.err)
			if got := errors.Is(werr, store.ErrNotWritten); got != c.notWritten {
				t.Errorf("ErrNotWritten: %v, want %v (%v)", got, c.notWritten, werr)
			}
			if got := errors.Is(werr, store.ErrOutcomeUnknown); got != c.maybe {
				t.Errorf("ErrOutcomeUnknown: %v, want %v (%v)", got, c.maybe, werr)
			}
		})
	}
}
