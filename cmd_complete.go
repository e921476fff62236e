package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/alecthomas/kong"
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/projection"
	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
)

// completeCmd is what the completion scripts run for the values of
// --conversation and --as/--by (and --context, from the config file): the
// candidates from the store, one a line,
// as gh and kubectl complete names. A store that cannot be opened within
// completeTimeout (a server away, a file locked by a seed, no store at
// all) prints nothing and exits 0: a prompt never waits, never errs.
type completeCmd struct {
	Kind         string `arg:"" enum:"conversations,users,contexts" help:"What to complete."`
	Prefix       string `arg:"" optional:"" help:"What is typed so far."`
	As           string `name:"as" help:"Conversations of this user only."`
	Conversation string `name:"conversation" help:"Users of this conversation only."`
}

// completeTimeout is how long a completion may take at most.
const completeTimeout = time.Second

// completeLimit bounds the candidates printed.
const completeLimit = 1000

func (c *completeCmd) Run(ctx context.Context, parser *kong.Kong, s *session) error {
	ctx, cancel := context.WithTimeout(ctx, completeTimeout)
	defer cancel()
	s.stderr = io.Discard  // a warning would land on the user's prompt
	s.conn.Redis = ""      // names come from the store; the cache adds none
	s.conn.ReadOnly = true // nothing is created, seeded or locked for writing
	s.openTimeout = completeTimeout
	var names []string
	if c.Kind == "contexts" {
		// The config file's names; no store is opened.
		if cfg, _ := loadConfig(configPath(), contextKeys(parser.Model)); cfg != nil {
			names = cfg.names
		}
		return c.print(s, names)
	}
	if s.contextErr != nil {
		return nil // not another store's names
	}
	err := s.withStore(ctx, reads, func(st *store.Store) error {
		var err error
		if c.Kind == "conversations" {
			names, err = c.conversations(ctx, st)
		} else {
			names, err = c.users(ctx, st)
		}
		return err
	})
	if err != nil {
		return nil
	}
	return c.print(s, names)
}

// print writes the names that start with the prefix, one a line.
func (c *completeCmd) print(s *session, names []string) error {
	var out strings.Builder
	n := 0
	for _, name := range names {
		// A stored ID can be hostile: it is shown as every output shows it,
		// escape sequences and bidi controls made visible.
		safe := projection.SingleLine(name)
		if strings.HasPrefix(safe, c.Prefix) && !strings.ContainsAny(name, " \t\n") && n < completeLimit {
			out.WriteString(safe + "\n")
			n++
		}
	}
	_, err := io.WriteString(s.stdout, out.String())
	return err
}

// conversations are the user's conversation documents with --as, else
// every conversation of the msg collection (the doc_id index, walked).
func (c *completeCmd) conversations(ctx context.Context, st *store.Store) ([]string, error) {
	if c.As != "" {
		list, err := st.Backend().Conversations(ctx, c.As)
		if err != nil {
			return nil, err
		}
		var ids []string
		for _, conv := range list {
			ids = append(ids, conv.ConversationID)
		}
		if len(ids) > 0 {
			slices.Sort(ids)
			return ids, nil
		}
	}
	return st.AllConversationIDs(ctx)
}

// users are the members of --conversation, else the user collection.
func (c *completeCmd) users(ctx context.Context, st *store.Store) ([]string, error) {
	var ids []string
	if c.Conversation != "" {
		members, err := st.MembersFor(ctx, c.Conversation, "")
		if err == nil {
			for _, m := range members {
				ids = append(ids, m.UserID)
			}
			return ids, nil
		}
	}
	errEnough := fmt.Errorf("enough")
	err := st.Backend().ScanRaw(ctx, bucket.CollUser, "", func(raw bson.Raw) error {
		if id, ok := raw.Lookup("user_id").StringValueOK(); ok && strings.HasPrefix(id, c.Prefix) {
			ids = append(ids, id)
		}
		if len(ids) >= completeLimit {
			return errEnough
		}
		return nil
	})
	if err != nil && err != errEnough {
		return nil, err
	}
	slices.Sort(ids)
	return ids, nil
}
