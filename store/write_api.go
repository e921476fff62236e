package store

import (
	"context"
	"fmt"
	"strconv"
)

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

// APIDone is what a write through the API adds to Done.
type APIDone struct {
	OperationID string // the write's; each call's header is it plus "-<n>"
	// Unconfirmed are the seqs the server accepted that the store did not
	// show yet when chatlens stopped looking (it writes MongoDB after it
	// answers).
	Unconfirmed []int64
}

// ViaAPI is the audit log's "via" of a write made through the server's API.
const ViaAPI = "api"

// WritesViaAPI reports whether Do's writes go through the server's API.
func (s *Store) WritesViaAPI() bool { return s.api != nil }

// APINote says, for a confirm dialog, what a write through the API does
// that a storage-level one does not.
const APINote = "through the OpenIM API: the server applies its own permission rules and notifies devices; its answer decides"

// ServerRefusal is the server refusing what chatlens's own checks allowed:
// the server's verdict stands, and nothing after it was tried.
type ServerRefusal struct {
	Action, Cid string
	Seqs        []int64 // the call's
	Path        string
	Code        int
	Msg, Dlt    string
}

func (e *ServerRefusal) Error() string {
	what := fmt.Sprintf("the server refused %s of seq %s of %s", e.Action, FormatSeqs(e.Seqs), e.Cid)
	if e.Path != "" && !isWritePath(e.Path) {
		what += " (" + e.Path + ")"
	}
	return what + ": " + e.Verdict()
}

// Verdict is the server's answer in one phrase: code, message, detail.
func (e *ServerRefusal) Verdict() string {
	v := strconv.Itoa(e.Code) + " " + e.Msg
	if e.Dlt != "" {
		v += " (" + e.Dlt + ")"
	}
	return v
}

func isWritePath(p string) bool { return len(p) > 5 && p[:5] == "/msg/" }

// Verdicts records, on an audit line, where chatlens's checks and the
// server's disagreed: chatlens allowed what the server refused.
type Verdicts struct {
	Chatlens string `json:"chatlens"`
	Server   string `json:"server"`
}
