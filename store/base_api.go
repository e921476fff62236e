package store

import (
	"context"
	"time"
)

// The server's API as the base holds it (Options.API): what a write
// through it sends and what it answers. What a write through it does is
// the applying step's (write_api_apply.go).

// API is a server that makes a write itself: OpenIM's REST API
// (store/openimapi). The server applies its own permission rules and sends
// the notifications (2101 revoke, 2102 delete, 2200 read) that devices which
// already synced act on; a write made in storage reaches no device.
type API interface {
	// Send asks the server to make one call of a write: a revoke names one
	// seq (revoke_msg takes one), a delete or a mark read all of its seqs.
	Send(ctx context.Context, call APICall) APIAnswer
	// Describe names the server for the status bar, with no secret.
	Describe() string
	// SessionNote says, for a confirm dialog, what asking a token to act
	// as user does to that user's own sessions under the server's default
	// login policy; "" when nothing (admin: the app admin's token).
	SessionNote(user string, admin bool) string
}

// APICall is one request of a write through the API.
type APICall struct {
	Action  string // ActionRevoke, ActionDelete or ActionRead
	Cid, By string
	Seqs    []int64 // ascending
	// Admin: sent with the app admin's token (the server skips its
	// permission checks), not By's own.
	Admin bool
	// OperationID is the header the server logs the call under.
	OperationID string
}

// APIAnswer is what the server answered a call, or that it did not.
type APIAnswer struct {
	Path string // the endpoint that answered: the write's, or /auth/... when a token was refused
	Code int    // errCode; 0 accepted
	Msg  string // errMsg
	Dlt  string // errDlt
	// Err is set when no answer came. Sent says whether the request may
	// have reached the server: its seqs are then unknown, not "not done".
	Err  error
	Sent bool
}

// DefaultAPISettle is how long a write through the API waits for the store
// to show what the server accepted: the server writes MongoDB after it
// answers (within 0.2 s in the recorded run of OpenIM Server v3.8).
const DefaultAPISettle = 2 * time.Second

// apiCalls splits req into the requests the API takes: revoke_msg names one
// seq, delete_msgs and mark_msgs_as_read a list (the last one is the read
// seq the server sets, so the list is ascending).
func apiCalls(req WriteRequest, seqs []int64) []APICall {
	call := APICall{Action: req.Action, Cid: req.Cid, By: req.By, Admin: req.Admin}
	if req.Action != ActionRevoke {
		call.Seqs = seqs
		return []APICall{call}
	}
	calls := make([]APICall, len(seqs))
	for i, seq := range seqs {
		calls[i] = call
		calls[i].Seqs = []int64{seq}
	}
	return calls
}
