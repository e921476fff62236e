package main

import (
	"context"
	"flag"
	"slices"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/embedded"
	"github.com/chatlens/chatlens/store/openimapi/openimtest"
)

// openIMStandIn is the script command
//
//	openim-standin [-left USER] [-fault PATH=drop|hang|accept] FILE SECRET
//
// It serves OpenIM's auth and msg endpoints (openimtest) over the embedded
// store FILE, sharing the file with the chatlens processes the script runs,
// until the script ends, and sets $OPENIM_API to its URL. -left makes USER
// a non-member of every group for the server only: chatlens, reading the
// same file, still sees them as a member (a server ahead of the store).
func openIMStandIn(ts *testscript.TestScript, neg bool, args []string) {
	fs := flag.NewFlagSet("openim-standin", flag.ContinueOnError)
	left := fs.String("left", "", "a user the server sees outside every group")
	fault := fs.String("fault", "", "PATH=drop|hang|accept")
	if neg || fs.Parse(args) != nil || fs.NArg() != 2 {
		ts.Fatalf("usage: openim-standin [-left USER] [-fault PATH=drop|hang|accept] FILE SECRET")
	}
	b, err := embedded.Open(ts.MkAbs(fs.Arg(0)), embedded.Options{Shared: true})
	ts.Check(err)
	srv := openimtest.Start(store.New(&withoutMember{Backend: b, user: *left}, store.Options{}), fs.Arg(1))
	if path, kind, ok := strings.Cut(*fault, "="); ok {
		f := map[string]openimtest.Fault{"drop": openimtest.Drop, "hang": openimtest.Hang, "accept": openimtest.AcceptOnly}[kind]
		srv.SetFaults(func(p string) openimtest.Fault {
			if p == path {
				return f
			}
			return openimtest.Answer
		})
	}
	ts.Setenv("OPENIM_API", srv.URL)
	ts.Defer(func() {
		srv.Close()
		_ = b.Close(context.Background())
	})
}

// withoutMember hides one user from every group's members.
// It serves store.Directory's GroupMembers; every other call goes to
// the Backend it wraps.
type withoutMember struct {
	store.Backend
	user string
}

func (w *withoutMember) GroupMembers(ctx context.Context, groupID string) ([]bucket.GroupMember, error) {
	ms, err := w.Backend.GroupMembers(ctx, groupID)
	return slices.DeleteFunc(ms, func(m bucket.GroupMember) bool { return m.UserID == w.user }), err
}
