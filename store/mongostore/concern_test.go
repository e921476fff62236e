package mongostore_test

import (
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store/mongotest"
)

// concerns returns the write concern of the first update sent and the read
// concern of the first find sent, as the server received them ("" when
// the command carried none).
func concerns(t *testing.T, rec *sentCommands) (write, read string) {
	t.Helper()
	updates, finds := rec.named("update"), rec.named("find")
	if len(updates) == 0 || len(finds) == 0 {
		t.Fatalf("recorded %d updates and %d finds, want both", len(updates), len(finds))
	}
	field := func(cmd bson.Raw, name string) string {
		v, err := cmd.LookupErr(name)
		if err != nil {
			return ""
		}
		return v.String()
	}
	if field(updates[0], "lsid") == "" || field(finds[0], "lsid") == "" {
		t.Errorf("the write or the read ran outside a session: %s / %s", updates[0], finds[0])
	}
	return field(updates[0], "writeConcern"), field(finds[0], "readConcern")
}

// A write and the read that follows it run with majority write and read
// concern in the causal session: MongoDB's read-your-writes guarantee across
// a failover holds only then. FerretDB has no replica set, so what is
// asserted is what chatlens sends; the failover itself needs a real one.
func TestWritesAndReadsUseMajority(t *testing.T) {
	uri := mongotest.Start(t).URI()
	b, rec := openRecorded(t, uri, mongotest.Database(t, uri))
	if err := b.RaiseMaxSeq(t.Context(), "si_a_b", 7); err != nil {
		t.Fatal(err)
	}
	if _, err := b.SeqRecords(t.Context(), []string{"si_a_b"}); err != nil {
		t.Fatal(err)
	}
	write, read := concerns(t, rec)
	t.Logf("writeConcern %s, readConcern %s", write, read)
	if write != `{"w": "majority"}` {
		t.Errorf("write concern sent = %s, want w: majority", write)
	}
	if want := `"level": "majority"`; !strings.Contains(read, want) {
		t.Errorf("read concern sent = %s, want %s", read, want)
	}
}

// w= and readConcernLevel= in the URI win over the defaults.
func TestURIConcernsWin(t *testing.T) {
	srv := mongotest.Start(t)
	uri := srv.URI() + "?w=1&readConcernLevel=local"
	b, rec := openRecorded(t, uri, mongotest.Database(t, srv.URI()))
	if err := b.RaiseMaxSeq(t.Context(), "si_a_b", 7); err != nil {
		t.Fatal(err)
	}
	if _, err := b.SeqRecords(t.Context(), []string{"si_a_b"}); err != nil {
		t.Fatal(err)
	}
	write, read := concerns(t, rec)
	if write != `{"w": {"$numberInt":"1"}}` {
		t.Errorf("write concern sent = %s, want the URI's w=1", write)
	}
	if want := `"level": "local"`; !strings.Contains(read, want) {
		t.Errorf("read concern sent = %s, want the URI's %s", read, want)
	}
}
