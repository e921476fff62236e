package store

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/typo"
)

// A conversation or user ID typed wrong would otherwise read as someone
// real with nothing to see ("bob has no conversation document for
// si_alice_bbo"): an ID that no stored document names is refused, with the
// stored names nearest to it.

// NoSuchError says which of the IDs given name nothing stored.
type NoSuchError []NoSuch

// NoSuch is one ID that no stored document names.
type NoSuch struct {
	Kind    string   // "conversation" or "user"
	ID      string   // as given
	Nearest []string // the stored names nearest to ID, nearest first; none when nothing is near
}

func (e NoSuchError) Error() string {
	parts := make([]string, len(e))
	for i, n := range e {
		parts[i] = n.String()
	}
	return strings.Join(parts, "; ")
}

func (n NoSuch) String() string {
	name, named, quote := n.ID, "no seq, conversation, seq_user or msg document names it", func(s string) string { return s }
	if n.Kind == "user" {
		quote = func(s string) string { return fmt.Sprintf("%q", s) }
		name, named = quote(n.ID), "no user, conversation, seq_user or group_member document names them"
	}
	s := fmt.Sprintf("no such %s %s: %s", n.Kind, name, named)
	if len(n.Nearest) > 0 {
		near := make([]string, len(n.Nearest))
		for i, id := range n.Nearest {
			near[i] = quote(id)
		}
		s += " (did you mean " + strings.Join(near, " or ") + "?)"
	}
	return s
}

// CheckIDs returns a NoSuchError when cid, a conversation ID, or uid, a user
// ID, is given ("" is not) and no stored document names it. A conversation
// is named by its seq document, its conversation documents, its buckets
// (doc_id index) or a seq_user document; a user by their user document,
// the conversation documents they own, a seq_user or a group_member
// document, or as one of the deployment's app admins. A store that keeps no
// user, conversation, seq_user or group_member document (a bare msg
// export) cannot tell who its users are: every user passes. What is looked
// up first is read by key (one round trip each, all a known ID costs);
// only an ID not found so is looked for in whole collections, which give
// the nearest names too. The msg collection is never scanned.
func (s *userReads) CheckIDs(ctx context.Context, cid, uid string) error {
	var missing NoSuchError
	if cid != "" {
		near, err := s.conversationNamed(ctx, cid)
		if err != nil {
			return err
		}
		if near != nil {
			missing = append(missing, NoSuch{Kind: "conversation", ID: cid, Nearest: near.names()})
		}
	}
	if uid != "" {
		near, err := s.userNamed(ctx, uid)
		if err != nil {
			return err
		}
		if near != nil {
			missing = append(missing, NoSuch{Kind: "user", ID: uid, Nearest: near.names()})
		}
	}
	if len(missing) > 0 {
		return missing
	}
	return nil
}

// conversationNamed returns nil when a stored document names cid, else
// the stored conversation IDs nearest to it.
func (s *userReads) conversationNamed(ctx context.Context, cid string) (*nearest, error) {
	if seqs, err := s.backend.SeqRecords(ctx, []string{cid}); err != nil || len(seqs) > 0 {
		return nil, err
	}
	if convs, err := s.backend.ConversationsByID(ctx, cid); err != nil || len(convs) > 0 {
		return nil, err
	}
	if ids, err := s.backend.BucketIDs(ctx, cid); err != nil || len(ids) > 0 {
		return nil, err
	}
	near := newNearest(cid)
	// Only a seq_user document may name it now; the seq collection holds
	// one document a conversation, the likeliest names.
	for _, coll := range []string{bucket.CollSeqUser, bucket.CollSeq} {
		found, _, err := s.scanNames(ctx, coll, "conversation_id", cid, near)
		if err != nil || found {
			return nil, err
		}
	}
	if len(near.found) == 0 { // no seq documents to guess from
		if _, _, err := s.scanNames(ctx, bucket.CollConversation, "conversation_id", "", near); err != nil {
			return nil, err
		}
	}
	return near, nil
}

// userNamed returns nil when a stored document names uid, or when nothing
// stored says who the users are; else the stored user IDs nearest to it.
func (s *userReads) userNamed(ctx context.Context, uid string) (*nearest, error) {
	if s.IsIMAdmin(uid) {
		return nil, nil
	}
	if users, err := s.backend.Users(ctx, []string{uid}); err != nil || len(users) > 0 {
		return nil, err
	}
	if convs, err := s.backend.Conversations(ctx, uid); err != nil || len(convs) > 0 {
		return nil, err
	}
	near := newNearest(uid)
	decided := false
	for _, coll := range []string{bucket.CollSeqUser, bucket.CollGroupMember, bucket.CollUser} {
		find := uid
		if coll == bucket.CollUser {
			find = "" // read by key above: scanned for the nearest names only
		}
		found, holds, err := s.scanNames(ctx, coll, "user_id", find, near)
		if err != nil || found {
			return nil, err
		}
		decided = decided || holds
	}
	if !decided {
		any, err := s.holdsAny(ctx, bucket.CollConversation)
		if err != nil || !any {
			return nil, err
		}
	}
	return near, nil
}

// scanNames reads field of every document of coll (one round trip), offers
// each value to near, and stops at the first that is find ("" finds
// nothing). holds says coll holds a document.
func (s *userReads) scanNames(ctx context.Context, coll, field, find string, near *nearest) (found, holds bool, err error) {
	err = s.backend.ScanRaw(ctx, coll, "", func(raw bson.Raw) error {
		holds = true
		name, ok := raw.Lookup(field).StringValueOK()
		if !ok {
			return nil
		}
		if find != "" && name == find {
			return errFound
		}
		near.offer(name)
		return nil
	})
	if errors.Is(err, errFound) {
		return true, true, nil
	}
	return false, holds, err
}

// maxSuggestions is how many near names a NoSuch offers at most.
const maxSuggestions = 3

// nearest keeps the names closest to word by edit distance (a swap of two
// neighbours is one edit): within a third of its length, 1 to 3 edits, or
// names it starts; the nearest first, at most maxSuggestions.
type nearest struct {
	word  string
	found []nearName
}

type nearName struct {
	name string
	dist int
}

func newNearest(word string) *nearest { return &nearest{word: word} }

func (n *nearest) offer(name string) {
	if slices.ContainsFunc(n.found, func(f nearName) bool { return f.name == name }) {
		return
	}
	limit := min(3, max(1, utf8.RuneCountInString(n.word)/3))
	d := typo.Distance(n.word, name, limit)
	if n.word != "" && strings.HasPrefix(name, n.word) {
		d = min(d, 1)
	}
	if d > limit || d == 0 {
		return
	}
	n.found = append(n.found, nearName{name, d})
	slices.SortFunc(n.found, func(a, b nearName) int {
		if a.dist != b.dist {
			return a.dist - b.dist
		}
		return strings.Compare(a.name, b.name)
	})
	if len(n.found) > maxSuggestions {
		n.found = n.found[:maxSuggestions]
	}
}

func (n *nearest) names() []string {
	out := make([]string, len(n.found))
	for i, f := range n.found {
		out[i] = f.name
	}
	return out
}
