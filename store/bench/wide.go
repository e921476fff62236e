package bench

import (
	"context"
	"fmt"
	"strconv"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store/bucket"
)

// wideLayout is a bench-only bucket layout of size slots per document,
// {doc_id: "<cid>:<index>", msgs: [size slots]}, slot (seq-1) mod size. It
// measures the bucket size as a trade-off without touching bucket.BucketSize,
// which the real data and the state machine keep at 100. The bench writes
// whole new buckets in order, so each is one insert, made when it is full
// (or holds the conversation's last message); reads go by doc_id.
type wideLayout struct {
	ws      WideStore
	cid     string
	size    int64
	maxSeq  int64
	pending *bucket.Doc // the bucket being filled by write
	got     received
}

func newWideLayout(ws WideStore, cid string, size int, maxSeq int64) *wideLayout {
	return &wideLayout{ws: ws, cid: cid, size: int64(size), maxSeq: maxSeq}
}

func (l *wideLayout) index(seq int64) int64 { return (seq - 1) / l.size }

func (l *wideLayout) docID(index int64) string { return l.cid + ":" + strconv.FormatInt(index, 10) }

func (l *wideLayout) write(ctx context.Context, first int64, msgs []*bucket.MsgData) error {
	for i, m := range msgs {
		seq := first + int64(i)
		if l.pending == nil {
			l.pending = &bucket.Doc{DocID: l.docID(l.index(seq)), Msgs: make([]*bucket.Slot, l.size)}
			for j := range l.pending.Msgs {
				l.pending.Msgs[j] = bucket.EmptySlot()
			}
		}
		slot := bucket.EmptySlot()
		slot.Msg = m
		l.pending.Msgs[(seq-1)%l.size] = slot
		if seq%l.size == 0 || seq == l.maxSeq {
			doc := l.pending
			l.pending = nil
			if err := l.ws.Insert(ctx, doc); err != nil {
				return err
			}
		}
	}
	return nil
}

// read fetches the documents covering from..to ($in, or the one document
// of a single read) and decodes only the slots asked for, as the embedded
// store's slot reads do: the bytes crossing still count whole documents.
func (l *wideLayout) read(ctx context.Context, from, to int64) (int, error) {
	var ids []string
	for idx := l.index(from); idx <= l.index(to); idx++ {
		ids = append(ids, l.docID(idx))
	}
	raws, err := l.ws.Get(ctx, ids)
	if err != nil {
		return 0, err
	}
	l.got.add(raws)
	n := 0
	for _, raw := range raws {
		got, err := l.decodeSlots(raw, from, to)
		if err != nil {
			return 0, err
		}
		n += got
	}
	return n, nil
}

// decodeSlots decodes the slots of raw holding seqs from..to and counts
// those with a message.
func (l *wideLayout) decodeSlots(raw bson.Raw, from, to int64) (int, error) {
	var id string
	if err := raw.Lookup("doc_id").Unmarshal(&id); err != nil {
		return 0, fmt.Errorf("wide bucket: doc_id: %w", err)
	}
	index, err := strconv.ParseInt(id[len(l.cid)+1:], 10, 64)
	if err != nil {
		return 0, fmt.Errorf("wide bucket %s: %w", id, err)
	}
	arr, ok := raw.Lookup("msgs").ArrayOK()
	if !ok {
		return 0, fmt.Errorf("wide bucket %s: msgs is not an array", id)
	}
	vals, err := arr.Values()
	if err != nil {
		return 0, fmt.Errorf("wide bucket %s: %w", id, err)
	}
	// The asked slots go through bucket.DecodeSlots, the decoder the
	// store's own buckets use, at most BucketSize at a time as a slice of
	// their own: the sizes then differ in layout, not in decoder.
	base := index*l.size + 1
	lo, hi := max(from, base)-base, min(to, base+int64(len(vals))-1)-base
	n := 0
	for first := lo; first <= hi; first += bucket.BucketSize {
		chunk := vals[first:min(hi+1, first+bucket.BucketSize)]
		slice, err := bson.Marshal(bson.D{{Key: "msgs", Value: chunk}})
		if err != nil {
			return 0, fmt.Errorf("wide bucket %s: %w", id, err)
		}
		for _, s := range bucket.DecodeSlots(slice, true, 0, 0, len(chunk)) {
			if !s.IsHole() {
				n++
			}
		}
	}
	return n, nil
}

// scroll reads one whole document per round trip, newest first.
func (l *wideLayout) scroll(ctx context.Context, maxSeq int64, step func(int)) (int, error) {
	done := 0
	for idx := l.index(maxSeq); idx >= 0; idx-- {
		if err := ctx.Err(); err != nil {
			return done, err
		}
		n, err := l.read(ctx, idx*l.size+1, min((idx+1)*l.size, maxSeq))
		if err != nil {
			return done, err
		}
		done += n
		step(done)
	}
	return done, nil
}

func (l *wideLayout) counts() Counts { return l.got.counts(l.ws.RoundTrips()) }

func (l *wideLayout) storage(ctx context.Context) (Storage, error) { return l.ws.Storage(ctx) }

// WideStore holds the bench-only wide buckets on one backend, counted as
// FlatStore is: each method is one query.
type WideStore interface {
	// Insert stores one whole bucket; ErrDuplicateKey if its doc_id exists.
	Insert(ctx context.Context, doc *bucket.Doc) error
	// Get reads the buckets with the given doc_ids ($in), in any order.
	Get(ctx context.Context, docIDs []string) ([]bson.Raw, error)
	Storage(ctx context.Context) (Storage, error)
	// RoundTrips is the number of queries sent so far.
	RoundTrips() int64
	Close(ctx context.Context) error
}

// largest remembers the biggest document a wide store wrote, the figure
// to hold against MongoDB's document limit.
type largest struct{ bytes int64 }

func (l *largest) saw(n int) { l.bytes = max(l.bytes, int64(n)) }

// mongoDocLimit is MongoDB's largest BSON document: 16 MiB.
const mongoDocLimit = 16 << 20

// MaxBucketSize is the largest bucket size whose documents stay under
// mongoDocLimit even when every slot holds the generator's largest message.
func MaxBucketSize() int {
	doc := &bucket.Doc{DocID: DefaultConversation + ":" + strconv.Itoa(MaxMessages), Msgs: []*bucket.Slot{}}
	base, _ := bson.Marshal(doc)
	slot := bucket.EmptySlot()
	slot.Msg = largestMessage()
	raw, _ := bson.Marshal(slot)
	// An array element is its type byte, its decimal key and a NUL, then the slot.
	per := 1 + len(strconv.Itoa(MaxMessages)) + 1 + len(raw)
	return (mongoDocLimit - len(base)) / per
}

// largestMessage is the biggest message the generator makes: the longest
// text of its longest word, at the highest seq the bench allows.
func largestMessage() *bucket.MsgData {
	m := message(0, DefaultConversation, MaxMessages)
	longest := ""
	for _, w := range vocabulary {
		if len(w) > len(longest) {
			longest = w
		}
	}
	ws := make([]byte, 0, longTextWords*(len(longest)+1))
	for i := 0; i < longTextWords; i++ {
		if i > 0 {
			ws = append(ws, ' ')
		}
		ws = append(ws, longest...)
	}
	m.ContentType, m.Content = 101, jsonString(map[string]string{"content": string(ws)})
	return m
}
