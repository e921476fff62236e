package demo

import (
	"context"
	"errors"
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

// A seed interrupted in the long group said "sg_townsquare seqs 1-138500
// … stay stored" when the group's group, member, conversation and seq_user
// documents were not written: OpenIM pulled none of it to anyone. They
// are written before the messages, so what stays stored is seen.
func TestInterruptedSeedLeavesWhatItStoredPulled(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	st := store.New(testkit.TempBackend(t), store.Options{})
	opts := Options{Seed: 1, Conversations: 2, Messages: 100, LongMessages: 20000}
	_, err := Seed(ctx, st, opts, func(done, total int) {
		if done > 5000 { // part way through the long group
			cancel()
		}
	})
	var stopped *StoppedError
	if !errors.As(err, &stopped) || len(stopped.Convs) == 0 || stopped.Convs[len(stopped.Convs)-1].Cid != LongGroupID {
		t.Fatalf("interrupted seed: %v; want it stopped in %s", err, LongGroupID)
	}
	if strings.Contains(err.Error(), "pulled by no one") {
		t.Errorf("interrupted seed: %v; every conversation it stored messages of has its members' documents", err)
	}
	last := stopped.Convs[len(stopped.Convs)-1].Last
	ws, err := st.Windows(t.Context(), "alice", []string{LongGroupID}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if w := ws[LongGroupID]; w.MaxSeq < last || w.NoConversationDoc {
		t.Errorf("alice's window of %s after the seed stopped at seq %d: %+v; want its messages pulled", LongGroupID, last, w)
	}
	members, err := st.Backend().GroupMembers(t.Context(), "townsquare")
	if err != nil || len(members) == 0 {
		t.Errorf("group members of %s: %v (%v); want its members", LongGroupID, members, err)
	}
}

// Where members come and go (the showcase group), the membership documents
// are known only once the conversation is planned: a seed stopped in its
// messages before that says they are not written.
func TestInterruptedSeedSaysWhatNobodyIsPulled(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	st := store.New(testkit.TempBackend(t), store.Options{})
	opts := Options{Seed: 1, Conversations: 2, Messages: 8000, LongMessages: -1}
	_, err := Seed(ctx, st, opts, func(done, total int) {
		if done > 8000+500 { // part way through the showcase group
			cancel()
		}
	})
	want := regexp.MustCompile(`sg_phoenix seqs 1-\d+ \(its member documents are not written: pulled by no one\)`)
	if !want.MatchString(errText(err)) {
		t.Errorf("interrupted seed: %v; want it to say nobody is pulled sg_phoenix", err)
	}
	convs, err := st.Backend().ConversationsByID(t.Context(), ShowcaseGroupID)
	if err != nil || len(convs) != 0 {
		t.Errorf("conversation documents of %s: %d (%v); the error says none are written", ShowcaseGroupID, len(convs), err)
	}
}
