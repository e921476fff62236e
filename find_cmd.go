package main

import (
	"context"
	"flag"
	"fmt"
	"time"

	"github.com/chatlens/chatlens/projection"
	"github.com/chatlens/chatlens/store"
)

func findFlags(fs *flag.FlagSet, o *opts) {
	fs.StringVar(&o.clientMsgID, "client-msg-id", "", "the message's client_msg_id")
	fs.StringVar(&o.serverMsgID, "server-msg-id", "", "the message's server_msg_id")
}

// runFind prints every slot holding the message asked for, one a line. With
// no index on the field it says how many buckets the scan reads before it
// starts; Ctrl-C stops it between conversations.
func runFind(ctx context.Context, e *env) error {
	field, value := store.FieldClientMsgID, e.o.clientMsgID
	switch {
	case (e.o.clientMsgID == "") == (e.o.serverMsgID == ""):
		return usagef("find: give exactly one of --client-msg-id or --server-msg-id")
	case e.o.serverMsgID != "":
		field, value = store.FieldServerMsgID, e.o.serverMsgID
	}
	step, end := func(int, int) {}, func() {}
	found, _, err := e.st.FindMessage(ctx, field, value, store.FindOptions{
		Plan: func(p store.FindPlan) {
			if p.Index == "" {
				step, end = progressPrinter(e.stderr, findPlanLine(field, p), true)
			}
		},
		Progress: func(done, total int) { step(done, total) },
	})
	end()
	if err != nil {
		return fmt.Errorf("find: %w", err)
	}
	if len(found) == 0 {
		return fmt.Errorf("find: no stored message has %s %s", field, projection.SingleLine(value))
	}
	for _, f := range found {
		fmt.Fprintf(e.stdout, "%s  seq %d  bucket %s slot %d\n", projection.SingleLine(f.ConversationID), f.Seq,
			projection.SingleLine(f.DocID), f.Slot)
	}
	return nil
}

// findPlanLine says what a find without an index will read.
func findPlanLine(field string, p store.FindPlan) string {
	return fmt.Sprintf("no index on msgs.msg.%s: scanning %d buckets in %d conversations (check suggests the index)",
		field, p.Buckets, p.Conversations)
}

// zone is where times are shown: UTC with --utc, else the local zone, the
// same for the UI and dump.
func (e *env) zone() *time.Location {
	if e.o.utc {
		return time.UTC
	}
	return time.Local
}
