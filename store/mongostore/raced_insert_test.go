package mongostore_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"io"
	"net"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/mongostore"
	"github.com/chatlens/chatlens/store/mongotest"
	"github.com/chatlens/chatlens/store/testkit"
)

// FerretDB v2 with DocumentDB answers some of several racing inserts of
// one new bucket "deadlock detected" where MongoDB says duplicate key
// (testdata/insert-deadlock-ferretdb-v2.json is its reply, as recorded).
// A loser that finds the bucket stored treats the answer as the duplicate
// key it stands for and goes on to update the bucket, spending none of the
// state machine's few retries; one that does not find it yet (the winner
// has not committed) is told nothing was written, to try again.
func TestInsertThatLostARaceUpdatesTheWinnersBucket(t *testing.T) {
	srv := mongotest.Start(t)
	race := newRaceLoser(t, srv.Addr())
	uri := "mongodb://" + race.addr() + "/"
	b, err := mongostore.Open(t.Context(), uri, mongotest.Database(t, srv.URI()), mongostore.Options{Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = b.Close(context.Background()) })
	ctx := t.Context()

	race.next(raceWon)
	if err := b.InsertBucket(ctx, bucket.NewDoc("sg_race:0")); !errors.Is(err, store.ErrDuplicateKey) {
		t.Errorf("insert answered deadlock, the bucket stored: %v; want store.ErrDuplicateKey", err)
	}
	race.next(raceUndecided)
	err = b.InsertBucket(ctx, bucket.NewDoc("sg_race:1"))
	if !errors.Is(err, store.ErrNotWritten) || errors.Is(err, store.ErrDuplicateKey) {
		t.Errorf("insert answered deadlock, no bucket stored: %v; want store.ErrNotWritten, not a duplicate key", err)
	}

	// A delivery whose new bucket another writer won: stored, not retried.
	var log bytes.Buffer
	s := store.New(b, store.Options{Audit: store.NewAuditLog(&log), Operator: "ops"})
	race.next(raceWon)
	if _, err := s.InsertMessages(ctx, faultCid, 1, faultMsgs(1, 3)); err != nil {
		t.Fatalf("delivery whose bucket insert lost the race: %v", err)
	}
	bs, err := s.Buckets(ctx, faultCid, []int64{0}, 0)
	if err != nil || len(bs) != 1 || bs[0].Slots[0].Slot.Msg == nil || bs[0].Slots[0].Slot.Msg.ClientMsgID != "c1" {
		t.Fatalf("after the lost race, bucket 0 = %+v, %v; want seq 1 stored", bs, err)
	}
	entries := testkit.AuditEntries(t, log.Bytes())
	if last := entries[len(entries)-1]; last.Result != store.ResultOK || last.Retried != 0 {
		t.Errorf("audit %+v; want ok with no retry", last)
	}
}

// The ways the recorded deadlock answer meets the bucket of an insert.
const (
	raceOff       int32 = iota
	raceWon             // the server stores the bucket (as the winner did), the writer hears deadlock
	raceUndecided       // the insert never reaches the server (the winner has not committed yet)
)

// raceLoser forwards TCP to a server; told next, it answers the next
// insert into msg with the recorded deadlock reply instead of the server's.
type raceLoser struct {
	ln     net.Listener
	to     string
	answer bson.Raw
	mode   atomic.Int32
}

func newRaceLoser(t *testing.T, to string) *raceLoser {
	t.Helper()
	data, err := os.ReadFile("testdata/insert-deadlock-ferretdb-v2.json")
	if err != nil {
		t.Fatal(err)
	}
	p := &raceLoser{to: to}
	if err := bson.UnmarshalExtJSON(data, false, &p.answer); err != nil {
		t.Fatal(err)
	}
	if p.ln, err = net.Listen("tcp", "127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	go p.serve()
	t.Cleanup(func() { _ = p.ln.Close() })
	return p
}

func (p *raceLoser) addr() string    { return p.ln.Addr().String() }
func (p *raceLoser) next(mode int32) { p.mode.Store(mode) }

func (p *raceLoser) serve() {
	for {
		in, err := p.ln.Accept()
		if err != nil {
			return
		}
		out, err := net.DialTimeout("tcp", p.to, 5*time.Second)
		if err != nil {
			_ = in.Close()
			continue
		}
		c := &raceConn{p: p, in: in, out: out}
		go c.requests()
		go c.replies()
	}
}

// raceConn is one client connection through a raceLoser.
type raceConn struct {
	p       *raceLoser
	in, out net.Conn
	writeMu sync.Mutex   // replies to the client come from both directions
	replace atomic.Int32 // request id whose reply is the recorded answer; 0: none
}

func (c *raceConn) requests() {
	defer c.out.Close()
	for {
		m, err := readWireMessage(c.in)
		if err != nil {
			return
		}
		if insertsIntoMsg(m) {
			switch c.p.mode.Swap(raceOff) {
			case raceWon:
				c.replace.Store(int32(binary.LittleEndian.Uint32(m[4:])))
			case raceUndecided:
				if c.reply(c.recorded(m[4:8])) != nil {
					return
				}
				continue
			}
		}
		if _, err := c.out.Write(m); err != nil {
			return
		}
	}
}

func (c *raceConn) replies() {
	defer c.in.Close()
	for {
		m, err := readWireMessage(c.out)
		if err != nil {
			return
		}
		if id := c.replace.Load(); id != 0 && int32(binary.LittleEndian.Uint32(m[8:])) == id {
			c.replace.Store(0)
			m = c.recorded(m[8:12])
		}
		if c.reply(m) != nil {
			return
		}
	}
}

func (c *raceConn) reply(m []byte) error {
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	_, err := c.in.Write(m)
	return err
}

// recorded is the recorded answer as an OP_MSG reply to the request id given.
func (c *raceConn) recorded(responseTo []byte) []byte {
	m := make([]byte, 16, 21+len(c.p.answer))
	binary.LittleEndian.PutUint32(m[12:], 2013) // OP_MSG
	copy(m[8:12], responseTo)
	m = append(m, 0, 0, 0, 0, 0) // no flags; a body section
	m = append(m, c.p.answer...)
	binary.LittleEndian.PutUint32(m, uint32(len(m)))
	return m
}

// readWireMessage reads one whole message of the wire protocol.
func readWireMessage(r io.Reader) ([]byte, error) {
	var size [4]byte
	if _, err := io.ReadFull(r, size[:]); err != nil {
		return nil, err
	}
	n := binary.LittleEndian.Uint32(size[:])
	if n < 16 || n > 48<<20 {
		return nil, errors.New("not a wire message")
	}
	m := make([]byte, n)
	copy(m, size[:])
	_, err := io.ReadFull(r, m[4:])
	return m, err
}

// insertsIntoMsg tells an OP_MSG whose body is an insert command on msg.
func insertsIntoMsg(m []byte) bool {
	if len(m) < 26 || binary.LittleEndian.Uint32(m[12:]) != 2013 || m[20] != 0 {
		return false
	}
	body := bson.Raw(m[21:])
	if n := int(binary.LittleEndian.Uint32(m[21:])); n <= len(body) {
		body = body[:n]
	}
	coll, ok := body.Lookup("insert").StringValueOK()
	return ok && coll == bucket.CollMsg
}
