// Package demo seeds a store with a deterministic dataset that shows off
// chatlens: a dozen users, single and group chats with every common content
// type, group notifications, revokes by senders and by admins, deletes for one
// participant, read flags, holes, hostile text, and one long group so paging
// is real. Each bucket is written as store.Store's state machine leaves it:
// built whole and inserted when new (writer.buckets), through the state
// machine when it exists.
package demo

import (
	"fmt"
	"math/rand/v2"
)

// Options size the dataset. Zero values take the defaults.
type Options struct {
	Seed          int64 // same seed, same documents
	Conversations int   // ordinary conversations, single and group (default 8)
	Messages      int   // messages per ordinary conversation (default 300; showcase ones get at least 60)
	LongMessages  int   // messages of the long group (default 50,000; negative: no long group)
	// BulkBytes, when positive, gathers the documents of many
	// conversations up to about this many bytes and sends them a few
	// requests at a time (bulkWriter): for a store a round trip away.
	BulkBytes int
}

// Defaults of Options.
const (
	DefaultConversations = 8
	DefaultMessages      = 300
	DefaultLongMessages  = 50000
	showcaseMinimum      = 60
	// MaxMessages bounds a seed's ordinary and long messages together:
	// at about 200,000 messages a second and 1.5 KB each on disk, 2,000,000
	// is ten seconds and 3 GB, while a slip such as --messages 3000000000
	// is refused before it fills a disk.
	MaxMessages = 2_000_000
	// MaxConversations bounds --conversations: each is a seq document,
	// conversation documents and a bucket at least.
	MaxConversations = 10_000
)

// Well-known conversations of the dataset, for documentation and tests.
const (
	ShowcaseSingleID = "si_alice_bob" // every content type, hostile text, holes
	ShowcaseGroupID  = "sg_phoenix"   // notifications, admin revokes, joins, a kick
	LongGroupID      = "sg_townsquare"
)

func (o Options) withDefaults() Options {
	if o.Conversations <= 0 {
		o.Conversations = DefaultConversations
	}
	if o.Messages <= 0 {
		o.Messages = DefaultMessages
	}
	if o.LongMessages == 0 {
		o.LongMessages = DefaultLongMessages
	}
	return o
}

// Summary tells what was seeded.
type Summary struct {
	Users, Groups, Conversations int
	Messages                     int // stored messages, notifications included
	Holes                        int // seqs left without a message
	Revoked, Deleted             int // revokes, and (seq, user) delete-for-me pairs
	Notices                      int // in the notification conversations (n_*): revokes, deletes with IsSyncSelf, read marks
}

func (s Summary) String() string {
	return fmt.Sprintf("%d users, %d groups, %d conversations, %d messages (%d holes, %d revoked, %d deleted for one user), %d notifications of them",
		s.Users, s.Groups, s.Conversations, s.Messages, s.Holes, s.Revoked, s.Deleted, s.Notices)
}

// spec is one conversation of the layout: its size and how to plan it.
type spec struct {
	n    int
	plan func(p *planner, n int) *conv
}

func singleSpec(a, b string, showcase bool) spec {
	return spec{plan: func(p *planner, n int) *conv { return p.single(a, b, n, showcase) }}
}

func groupSpec(g *groupPlan, kind groupKind) spec {
	return spec{plan: func(p *planner, n int) *conv { return p.group(g, n, kind) }}
}

// layout lists the conversations: the showcase single and group first, then
// the fixed chats, then generated ones, then the long group.
func layout(o Options, rng *rand.Rand) []spec {
	sp := func(i int, showcase bool) spec { return singleSpec(singlePairs[i][0], singlePairs[i][1], showcase) }
	fixed := []spec{
		sp(0, true), groupSpec(&groupTeam, groupShowcase), sp(1, false), groupSpec(&groupFamily, groupPlain),
		sp(2, false), sp(3, false), groupSpec(&groupBooks, groupPlain), sp(4, false), sp(5, false), sp(6, false),
	}
	extra := extraPairs()
	var specs []spec
	for i := range o.Conversations {
		var s spec
		switch {
		case i < len(fixed):
			s = fixed[i]
		case i%2 == 0 && len(extra) > 0:
			s, extra = singleSpec(extra[0][0], extra[0][1], false), extra[1:]
		default:
			s = groupSpec(generatedGroup(rng, i), groupPlain)
		}
		s.n = o.Messages
		if i < 2 {
			s.n = max(s.n, showcaseMinimum)
		}
		specs = append(specs, s)
	}
	if o.LongMessages > 0 {
		s := groupSpec(&groupTown, groupLong)
		s.n = o.LongMessages
		specs = append(specs, s)
	}
	return specs
}
