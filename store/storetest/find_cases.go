package storetest

import (
	"context"
	"errors"
	"slices"

	"github.com/chatlens/chatlens/store"
)

// testFindMessage: a message is found by its client or server message ID
// across every conversation, with the conversation, seq and bucket slot it
// sits in, whichever conversation holds it (issue 11, open-im-server #2185).
func testFindMessage(e *fixture) {
	e.insert("sg_g1", 1, 250)
	e.insert("si_u1_u2", 1, 5)
	ids, err := e.b.FindMsgDocIDs(e.ctx, "", store.FieldClientMsgID, "sg_g1-c120")
	e.must(err, "find doc ids")
	if !slices.Equal(ids, []string{"sg_g1:1"}) {
		e.errorf("FindMsgDocIDs(client sg_g1-c120) = %q, want [sg_g1:1]", ids)
	}
	if ids, err := e.b.FindMsgDocIDs(e.ctx, "si_u1_u2", store.FieldClientMsgID, "sg_g1-c120"); err != nil || len(ids) != 0 {
		e.errorf("FindMsgDocIDs limited to another conversation = %q, %v; want none", ids, err)
	}
	// Among named buckets only: a stored one without it, one missing.
	in := []string{"sg_g1:0", "sg_g1:1", "sg_g1:9"}
	if ids, err := e.b.FindMsgDocIDsIn(e.ctx, in, store.FieldClientMsgID, "sg_g1-c120"); err != nil || !slices.Equal(ids, []string{"sg_g1:1"}) {
		e.errorf("FindMsgDocIDsIn(%q, client sg_g1-c120) = %q, %v; want [sg_g1:1]", in, ids, err)
	}
	if ids, err := e.b.FindMsgDocIDsIn(e.ctx, in[:1], store.FieldClientMsgID, "sg_g1-c120"); err != nil || len(ids) != 0 {
		e.errorf("FindMsgDocIDsIn of buckets without it = %q, %v; want none", ids, err)
	}
	var plan store.FindPlan
	var progress [][2]int
	found, _, err := e.s.FindMessage(e.ctx, store.FieldServerMsgID, "si_u1_u2-s4", store.FindOptions{
		Plan:     func(p store.FindPlan) { plan = p },
		Progress: func(done, total int) { progress = append(progress, [2]int{done, total}) },
	})
	e.must(err, "find message")
	want := []store.Found{{ConversationID: "si_u1_u2", Seq: 4, DocID: "si_u1_u2:0", Slot: 3, SendTime: newMsg("si_u1_u2", 4).SendTime}}
	if !slices.Equal(found, want) {
		e.errorf("FindMessage(server si_u1_u2-s4) = %+v, want %+v", found, want)
	}
	if plan.Index != "" || plan.Buckets != 4 || plan.Conversations != 2 {
		e.errorf("plan without an index = %+v, want a scan of 4 buckets in 2 conversations", plan)
	}
	if len(progress) == 0 || progress[len(progress)-1] != [2]int{4, 4} {
		e.errorf("scan progress = %v, want it to end at 4 of 4 buckets", progress)
	}
	if found, _, err := e.s.FindMessage(e.ctx, store.FieldClientMsgID, "nowhere", store.FindOptions{}); err != nil || len(found) != 0 {
		e.errorf("FindMessage of an unknown ID = %+v, %v; want nothing", found, err)
	}
	// Cancelled as soon as the plan is told: the scan stops and says so.
	ctx, cancel := context.WithCancel(e.ctx)
	_, _, err = e.s.FindMessage(ctx, store.FieldClientMsgID, "sg_g1-c1", store.FindOptions{Plan: func(store.FindPlan) { cancel() }})
	if !errors.Is(err, context.Canceled) {
		e.errorf("a find cancelled before the scan = %v, want context.Canceled", err)
	}
}
