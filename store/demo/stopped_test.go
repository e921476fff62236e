package demo

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/testkit"
)

// A seed interrupted once its first conversation's messages are stored,
// while it marks their reads, said "conversation si_alice_bob: read
// interrupted, nothing written": true of the mark read, false of the
// seed. It says what is stored, and where.
func TestSeedInterruptedDuringReadsSaysWhatItStored(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	st := store.New(testkit.TempBackend(t), store.Options{})
	opts := Options{Seed: 1, Conversations: 2, Messages: 1000, LongMessages: -1}
	_, err := Seed(ctx, st, opts, func(done, total int) {
		if done >= 1000 { // the first conversation's last batch is stored
			cancel()
		}
	})
	m := regexp.MustCompile(`^interrupted after storing 1000 of 2000 messages \(si_alice_bob seqs 1-(\d+)\).*: context canceled$`).FindStringSubmatch(errText(err))
	if m == nil || strings.Contains(errText(err), "nothing written") {
		t.Errorf("interrupted seed: %v; want what it stored", err)
	}
}

// A seed stopped in many conversations names a few and counts the rest,
// and always names the one it stopped in (maybe part way): counted among
// "and N more", that one was the line's news.
func TestStoppedErrorIsBounded(t *testing.T) {
	e := &StoppedError{Stored: 5000, Total: 9000, Err: context.Canceled}
	for range 49 {
		e.Convs = append(e.Convs, StoredConv{Cid: "sg_a_long_group_name", Last: 100})
	}
	e.Convs = append(e.Convs, StoredConv{Cid: "sg_cut_short", Last: 37})
	got := e.Error()
	if len(got) > 300 || !strings.Contains(got, "and 47 more") {
		t.Errorf("error %q (%d bytes); want 3 conversations named, the others counted", got, len(got))
	}
	if !strings.Contains(got, "sg_cut_short seqs 1-37 where it stopped") {
		t.Errorf("error %q does not name the conversation it stopped in", got)
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
