package bench

import (
	"context"
	"fmt"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
)

// layout is what each scenario asks of a layout. Reads decode what they
// fetch, as a client must before it can show anything, and return how many
// messages came back so the harness can refuse a measurement that read
// the wrong thing.
type layout interface {
	write(ctx context.Context, first int64, msgs []*bucket.MsgData) error
	// read fetches seqs from..to inclusive.
	read(ctx context.Context, from, to int64) (int, error)
	// scroll reads the whole conversation newest to oldest, in the
	// layout's natural page, calling step with the messages read so far.
	scroll(ctx context.Context, maxSeq int64, step func(done int)) (int, error)
	counts() Counts
	storage(ctx context.Context) (Storage, error)
}

// bucketLayout is OpenIM's layout: writes through the state machine, reads
// through Store.Buckets, counted by the Counting decorator.
type bucketLayout struct {
	st      *store.Store
	counter *Counting
	cid     string
	maxSeq  int64
	// sizeOf reports the target's storage figures for the msg collection.
	sizeOf func(ctx context.Context) (Storage, error)
}

func (l *bucketLayout) write(ctx context.Context, first int64, msgs []*bucket.MsgData) error {
	_, err := l.st.InsertMessages(ctx, l.cid, first, msgs)
	return err
}

func (l *bucketLayout) read(ctx context.Context, from, to int64) (int, error) {
	if from == to {
		return l.readOne(ctx, from)
	}
	if bucket.BucketIndex(from) == bucket.BucketIndex(to) {
		return l.readSlots(ctx, from, to)
	}
	// A range over several buckets, as a reader's page or a jump reads it:
	// the buckets at its edges cut to the seqs in range (Store.Range).
	slots, err := l.st.Range(ctx, l.cid, from, to, l.maxSeq)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, s := range slots {
		if !s.IsHole() {
			n++
		}
	}
	return n, nil
}

// readOne reads one message as the inspector and a quote do: that slot
// only (Store.Slots), not its bucket.
func (l *bucketLayout) readOne(ctx context.Context, seq int64) (int, error) {
	slots, err := l.st.Slots(ctx, l.cid, []int64{seq}, l.maxSeq)
	if err != nil || slots[seq].IsHole() {
		return 0, err
	}
	return 1, nil
}

// readSlots reads a range inside one bucket as a pull of a few seqs does
// (OpenIM projects only the slots asked for: mgo/msg.go getMsgBySeqIndexIn1Doc,
// $arrayElemAt per index): those
// slots, not the bucket, in one round trip.
func (l *bucketLayout) readSlots(ctx context.Context, from, to int64) (int, error) {
	seqs := make([]int64, 0, to-from+1)
	for seq := from; seq <= to; seq++ {
		seqs = append(seqs, seq)
	}
	slots, err := l.st.Slots(ctx, l.cid, seqs, l.maxSeq)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, s := range slots {
		if !s.IsHole() {
			n++
		}
	}
	return n, nil
}

// scroll reads one whole bucket per round trip, newest first.
func (l *bucketLayout) scroll(ctx context.Context, maxSeq int64, step func(int)) (int, error) {
	done := 0
	for idx := bucket.BucketIndex(maxSeq); idx >= 0; idx-- {
		if err := ctx.Err(); err != nil { // the embedded store does not look at ctx
			return done, err
		}
		n, err := l.read(ctx, bucket.FirstSeq(idx), min(bucket.LastSeq(idx), maxSeq))
		if err != nil {
			return done, err
		}
		done += n
		step(done)
	}
	return done, nil
}

func (l *bucketLayout) counts() Counts { return l.counter.Counts() }

func (l *bucketLayout) storage(ctx context.Context) (Storage, error) { return l.sizeOf(ctx) }

// flatPage is the flat layout's page while scrolling: one screen.
const flatPage = 20

// flatLayout is one document per message.
type flatLayout struct {
	fs  FlatStore
	cid string
	got received
}

func (l *flatLayout) write(ctx context.Context, _ int64, msgs []*bucket.MsgData) error {
	docs := make([]*FlatDoc, len(msgs))
	for i, m := range msgs {
		docs[i] = NewFlatDoc(l.cid, m)
	}
	return l.fs.Insert(ctx, docs)
}

func (l *flatLayout) read(ctx context.Context, from, to int64) (int, error) {
	var raws []bson.Raw
	var err error
	if from == to {
		raws, err = l.fs.Get(ctx, l.cid, []int64{from})
	} else {
		raws, err = l.fs.Range(ctx, l.cid, from, to)
	}
	if err != nil {
		return 0, err
	}
	l.got.add(raws)
	n, _, err := decodeFlat(raws)
	return n, err
}

// scroll reads pages of flatPage below the last seq seen, newest first.
func (l *flatLayout) scroll(ctx context.Context, maxSeq int64, step func(int)) (int, error) {
	done := 0
	for before := maxSeq + 1; before > 1; {
		if err := ctx.Err(); err != nil {
			return done, err
		}
		raws, err := l.fs.Before(ctx, l.cid, before, flatPage)
		if err != nil {
			return done, err
		}
		l.got.add(raws)
		n, lowest, err := decodeFlat(raws)
		if err != nil {
			return done, err
		}
		if n == 0 {
			break
		}
		done += n
		step(done)
		before = lowest
	}
	return done, nil
}

func (l *flatLayout) counts() Counts { return l.got.counts(l.fs.RoundTrips()) }

func (l *flatLayout) storage(ctx context.Context) (Storage, error) { return l.fs.Storage(ctx) }

// decodeFlat decodes every document, as a client showing them would, and
// tells the lowest seq among them.
func decodeFlat(raws []bson.Raw) (n int, lowest int64, err error) {
	for i, raw := range raws {
		var d FlatDoc
		if err := bson.Unmarshal(raw, &d); err != nil {
			return 0, 0, fmt.Errorf("flat document: %w", err)
		}
		if i == 0 || d.Seq < lowest {
			lowest = d.Seq
		}
	}
	return len(raws), lowest, nil
}
