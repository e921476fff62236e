package storetest

import (
	"fmt"
	"slices"
	"sync"

	"github.com/chatlens/chatlens/store/bucket"
)

// testConcurrentInserts has 8 writers deliver overlapping ranges of one
// conversation across bucket edges at once: every seq ends up stored exactly
// once, in its own slot, and every bucket keeps 100 slots.
func testConcurrentInserts(e *fixture) {
	const cid = "sg_busy"
	const writers, span, step = 8, 120, 30 // writer w delivers 1+w*30 .. w*30+120: 1..330
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			first := int64(1 + w*step)
			msgs := make([]*bucket.MsgData, span)
			for i := range msgs {
				msgs[i] = newMsg(cid, first+int64(i))
			}
			if _, err := e.s.InsertMessages(e.ctx, cid, first, msgs); err != nil {
				errs <- fmt.Errorf("writer %d: %w", w, err)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		e.errorf("%v", err)
	}
	last := int64((writers-1)*step + span)
	seen := map[string]int{}
	for idx := int64(0); idx <= bucket.BucketIndex(last); idx++ {
		slots := e.slots(bucket.DocID(cid, idx))
		if len(slots) != bucket.BucketSize {
			e.errorf("bucket %d has %d slots", idx, len(slots))
		}
		for i, v := range slots {
			seq := bucket.FirstSeq(idx) + int64(i)
			if seq > last {
				if err := wantEmptySlot(v); err != nil {
					e.errorf("seq %d: %v", seq, err)
				}
				continue
			}
			s := e.slot(v)
			e.wantMessage(cid, seq, &s)
			if s.Msg != nil {
				seen[s.Msg.ClientMsgID]++
			}
		}
	}
	for id, n := range seen {
		if n != 1 {
			e.errorf("message %s stored %d times", id, n)
		}
	}
	if len(seen) != int(last) {
		e.errorf("%d distinct messages stored, want %d", len(seen), last)
	}
	if ids, _ := e.b.BucketIDs(e.ctx, cid); len(ids) != int(bucket.BucketIndex(last))+1 {
		e.errorf("conversation has buckets %q, want %d", ids, bucket.BucketIndex(last)+1)
	}
	recs, err := e.b.SeqRecords(e.ctx, []string{cid})
	if err != nil || len(recs) != 1 || recs[0].MaxSeq != last {
		e.errorf("seq record after concurrent inserts = %+v, %v; want max_seq %d", recs, err, last)
	}
}

// testConcurrentMutations runs revokes, deletes and mark-reads on one bucket
// from 8 goroutines at once: none is lost.
func testConcurrentMutations(e *fixture) {
	const cid = "si_alice_bob" // alice sends odd seqs, bob even ones
	const workers = 8
	e.insert(cid, 1, 100)
	var wg sync.WaitGroup
	errs := make(chan error, workers*3)
	for w := range workers {
		seq := int64(1 + w)
		user := fmt.Sprintf("u%d", w)
		run := func(what string, f func() error) {
			defer wg.Done()
			if err := f(); err != nil {
				errs <- fmt.Errorf("%s by worker %d: %w", what, w, err)
			}
		}
		wg.Add(3)
		go run("revoke", func() error {
			_, err := e.s.Revoke(e.ctx, cid, []int64{seq}, bucket.Revoke{Role: 1, UserID: user, Time: 1})
			return err
		})
		go run("delete", func() error {
			_, err := e.s.DeleteForMe(e.ctx, cid, []int64{21, 22}, user)
			return err
		})
		go run("read", func() error {
			_, err := e.s.MarkRead(e.ctx, cid, []int64{41 + int64(w)}, "bob")
			return err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		e.errorf("%v", err)
	}
	slots := e.slots(cid + ":0")
	if len(slots) != bucket.BucketSize {
		e.fatalf("bucket has %d slots", len(slots))
	}
	var wantUsers []string
	for w := range workers {
		wantUsers = append(wantUsers, fmt.Sprintf("u%d", w))
		if s := e.slot(slots[w]); s.Revoke == nil || s.Revoke.UserID != fmt.Sprintf("u%d", w) {
			e.errorf("revoke of seq %d lost: %+v", w+1, s.Revoke)
		}
		seq := int64(41 + w)
		if got, want := e.slot(slots[seq-1]).IsRead, sender(cid, seq) != "bob"; got != want {
			e.errorf("seq %d is_read = %v, want %v", seq, got, want)
		}
	}
	for _, seq := range []int64{21, 22} {
		got := slices.Clone(e.slot(slots[seq-1]).DelList)
		slices.Sort(got)
		if !slices.Equal(got, wantUsers) {
			e.errorf("del_list of seq %d = %q, want %q", seq, got, wantUsers)
		}
	}
	for i := workers; i < 20; i++ {
		e.wantMessage(cid, int64(i+1), ptr(e.slot(slots[i])))
	}
	e.wantReadSeq("bob", cid, 41+workers-1)
}

func ptr[T any](v T) *T { return &v }
