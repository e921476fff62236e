// Package openimtest is an in-process stand-in for OpenIM Server's auth and
// msg endpoints, for tests only. It answers as the recorded run of OpenIM
// Server v3.8 (../shared/openim-recorded: api-calls.jsonl and
// revoke_verdicts.json) answered, with the rules of the server's source
// (internal/rpc/auth/auth.go, pkg/authverify/token.go,
// internal/rpc/msg/revoke.go, delete.go, as_read.go,
// internal/rpc/group/group.go checkAdminOrInGroup), and writes the store the
// way the recorded collections show: a revoke record {role, user_id,
// nickname, time}, del_list, is_read and the read seq, and the
// notification messages (notify.go).
package openimtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
)

// Fault is what the stand-in does instead of answering normally.
type Fault int

const (
	Answer       Fault = iota // answer and write, as the server does
	AcceptOnly                // answer errCode 0 and write nothing (the store never shows it)
	Hang                      // read the request, then answer nothing until the client gives up
	Drop                      // read the request, then close the connection without a word
	AnswerNoData              // write, then drop the connection instead of answering
)

// Server is the stand-in. Its URL is the API's base.
type Server struct {
	*httptest.Server
	Secret  string
	Admins  []string
	st      *store.Store
	mu      sync.Mutex
	tokens  map[string]string // token → user ID
	calls   []Call
	release chan struct{}
	faults  func(path string) Fault // nil: Answer
	drops   func(path string, seqs []int64) bool
	// notifyMu orders the notifications' seqs in their conversations.
	notifyMu sync.Mutex
}

// SetFaults sets what picks the behaviour for a path (Answer when nil). It
// may be called while the server runs: requests already in flight keep the
// behaviour they were given.
func (s *Server) SetFaults(f func(path string) Fault) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = f
}

// Call is one request the stand-in was sent, and its answer.
type Call struct {
	Path, OperationID string
	TokenUser         string // whose token came with it ("" none or unknown)
	Request           json.RawMessage
	Response          Response
}

// Response is every endpoint's answer (pkg/apiresp ApiResponse).
type Response struct {
	ErrCode int    `json:"errCode"`
	ErrMsg  string `json:"errMsg"`
	ErrDlt  string `json:"errDlt"`
	Data    any    `json:"data,omitempty"`
}

// Start serves the stand-in over st until the test's cleanup.
func Start(st *store.Store, secret string, admins ...string) *Server {
	if len(admins) == 0 {
		admins = []string{"imAdmin"}
	}
	s := &Server{Secret: secret, Admins: admins, st: st, tokens: map[string]string{}, release: make(chan struct{})}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	return s
}

// Close releases hung requests and stops the server.
func (s *Server) Close() {
	s.mu.Lock()
	select {
	case <-s.release:
	default:
		close(s.release)
	}
	s.mu.Unlock()
	s.Server.CloseClientConnections()
	s.Server.Close()
}

// Expire makes every token issued so far unknown to the server, as an
// expiry or a login elsewhere that kicks them does.
func (s *Server) Expire() {
	s.mu.Lock()
	defer s.mu.Unlock()
	clear(s.tokens)
}

// Calls are the requests answered so far, in order.
func (s *Server) Calls() []Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.calls)
}

// Issued are the tokens handed out so far (to test that none leaks).
func (s *Server) Issued() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for t := range s.tokens {
		out = append(out, t)
	}
	return out
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	var body json.RawMessage
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
		body = nil
	}
	fault := Answer
	s.mu.Lock()
	pick := s.faults
	s.mu.Unlock()
	if pick != nil {
		fault = pick(r.URL.Path)
	}
	switch fault {
	case Hang:
		select {
		case <-s.release:
		case <-r.Context().Done():
		}
		return
	case Drop:
		drop(w)
		return
	}
	s.mu.Lock()
	user := s.tokens[r.Header.Get("token")]
	s.mu.Unlock()
	ctx := r.Context()
	if fault == AcceptOnly || fault == AnswerNoData {
		ctx = context.WithValue(ctx, faultKey{}, fault)
	}
	resp := s.answer(ctx, r.URL.Path, r.Header, user, body)
	s.mu.Lock()
	s.calls = append(s.calls, Call{Path: r.URL.Path, OperationID: r.Header.Get("operationID"), TokenUser: user, Request: body, Response: resp})
	s.mu.Unlock()
	if fault == AnswerNoData {
		drop(w)
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	_ = json.NewEncoder(w).Encode(resp)
}

type faultKey struct{}

func writes(ctx context.Context) bool { return ctx.Value(faultKey{}) != AcceptOnly }

func drop(w http.ResponseWriter) {
	if hj, ok := w.(http.Hijacker); ok {
		if conn, _, err := hj.Hijack(); err == nil {
			_ = conn.Close()
		}
	}
}

// Codes and messages of pkg/common/servererrs (code.go, predefine.go).
var (
	errArgs         = Response{ErrCode: 1001, ErrMsg: "ArgsError"}
	errNoPermission = Response{ErrCode: 1002, ErrMsg: "NoPermissionError"}
	errNotFound     = Response{ErrCode: 1004, ErrMsg: "RecordNotFoundError"}
	errRevoked      = Response{ErrCode: 1404, ErrMsg: "MsgAlreadyRevoke"}
	errInternal     = Response{ErrCode: 500, ErrMsg: "ServerInternalError"}
	errTokenBad     = Response{ErrCode: 1503, ErrMsg: "TokenMalformedError"}
	ok              = Response{}
)

func with(r Response, dlt string) Response { r.ErrDlt = dlt; return r }

// answer is the endpoint's reply to one request from user (the token's).
func (s *Server) answer(ctx context.Context, path string, h http.Header, user string, body json.RawMessage) Response {
	if h.Get("operationID") == "" {
		return with(errArgs, "header must have operationID") // tools/mw GinParseOperationID
	}
	if path == "/auth/get_admin_token" {
		return s.adminToken(body)
	}
	if h.Get("token") == "" {
		return with(errArgs, "header must have token") // internal/api/router.go GinParseToken
	}
	if user == "" {
		return errTokenBad
	}
	var err error
	var resp Response
	switch path {
	case "/auth/get_user_token":
		resp, err = s.userToken(ctx, user, body)
	case "/msg/revoke_msg":
		resp, err = s.revoke(ctx, user, body)
	case "/msg/delete_msgs":
		resp, err = s.delete(ctx, user, body)
	case "/msg/mark_msgs_as_read":
		resp, err = s.markRead(ctx, user, body)
	default:
		return Response{ErrCode: 404, ErrMsg: "the stand-in does not serve " + path}
	}
	if err != nil {
		return with(errInternal, err.Error())
	}
	return resp
}

func (s *Server) isAdmin(user string) bool { return slices.Contains(s.Admins, user) }

// token is the data of a token answer (pkg/protocol auth GetUserTokenResp).
type token struct {
	Token             string `json:"token"`
	ExpireTimeSeconds int64  `json:"expireTimeSeconds"`
}

func (s *Server) issue(user string) Response {
	b := make([]byte, 24)
	_, _ = rand.Read(b)
	t := "standin." + hex.EncodeToString(b)
	s.mu.Lock()
	s.tokens[t] = user
	s.mu.Unlock()
	return Response{Data: token{Token: t, ExpireTimeSeconds: 90 * 24 * 60 * 60}}
}

// adminToken is auth.go GetAdminToken.
func (s *Server) adminToken(body json.RawMessage) Response {
	var req struct {
		Secret string `json:"secret"`
		UserID string `json:"userID"`
	}
	_ = json.Unmarshal(body, &req)
	if req.Secret != s.Secret {
		return with(errNoPermission, "secret invalid")
	}
	if !s.isAdmin(req.UserID) {
		return with(errArgs, fmt.Sprintf("userID is error., userID=%s, adminUserID=%v", req.UserID, s.Admins))
	}
	return s.issue(req.UserID)
}

// userToken is auth.go GetUserToken.
func (s *Server) userToken(ctx context.Context, op string, body json.RawMessage) (Response, error) {
	var req struct {
		PlatformID int32  `json:"platformID"`
		UserID     string `json:"userID"`
	}
	_ = json.Unmarshal(body, &req)
	if !s.isAdmin(op) {
		return with(errNoPermission, "user "+op+" is not admin userID"), nil
	}
	if req.PlatformID == 10 {
		return with(errNoPermission, "platformID invalid. platformID must not be adminPlatformID"), nil
	}
	if s.isAdmin(req.UserID) {
		return with(errNoPermission, "don't get Admin token"), nil
	}
	if _, found, err := s.user(ctx, req.UserID); err != nil || !found {
		return with(errNotFound, "user not found"), err
	}
	return s.issue(req.UserID), nil
}

func (s *Server) user(ctx context.Context, id string) (bucket.User, bool, error) {
	us, err := s.st.Backend().Users(ctx, []string{id})
	if err != nil || len(us) == 0 {
		return bucket.User{}, false, err
	}
	return us[0], true, nil
}

// access is authverify.CheckAccess: the token's own user, or an app admin.
func (s *Server) access(op, owner string) *Response {
	if op == owner || s.isAdmin(op) {
		return nil
	}
	r := with(errNoPermission, "ownerUserID, "+owner+"=MISSING")
	return &r
}

// revoke is revoke.go RevokeMsg.
func (s *Server) revoke(ctx context.Context, op string, body json.RawMessage) (Response, error) {
	var req struct {
		ConversationID string `json:"conversationID"`
		Seq            int64  `json:"seq"`
		UserID         string `json:"userID"`
	}
	_ = json.Unmarshal(body, &req)
	switch {
	case req.UserID == "":
		return with(errArgs, "user_id is empty"), nil
	case req.ConversationID == "":
		return with(errArgs, "conversation_id is empty"), nil
	case req.Seq < 0:
		return with(errArgs, "seq is invalid"), nil
	}
	if r := s.access(op, req.UserID); r != nil {
		return *r, nil
	}
	user, found, err := s.user(ctx, req.UserID)
	if err != nil || !found {
		return with(errNotFound, "user not found"), err
	}
	slot, err := s.visible(ctx, req.UserID, req.ConversationID, req.Seq)
	if err != nil || slot == nil {
		return with(errNotFound, "msg not found"), err
	}
	if slot.Revoke != nil || slot.Msg.ContentType == bucket.ContentRevoked {
		return with(errRevoked, "msg already revoke"), nil
	}
	msg := slot.Msg
	var role int32
	if !s.isAdmin(op) {
		switch msg.SessionType {
		case bucket.SessionSingle:
			if r := s.access(op, msg.SendID); r != nil {
				return *r, nil
			}
			role = user.AppMangerLevel
		case bucket.SessionGroup:
			members, err := s.st.Backend().GroupMembers(ctx, msg.GroupID)
			if err != nil {
				return Response{}, err
			}
			byID := map[string]bucket.GroupMember{}
			for _, m := range members {
				byID[m.UserID] = m
			}
			if _, in := byID[op]; !in { // group.go checkAdminOrInGroup, through GetGroupMemberInfoMap
				return with(errNoPermission, "op user not in group"), nil
			}
			if req.UserID != msg.SendID {
				switch byID[req.UserID].RoleLevel {
				case bucket.RoleOwner:
				case bucket.RoleAdmin:
					if sender, in := byID[msg.SendID]; in && sender.RoleLevel != bucket.RoleMember {
						return with(errNoPermission, "no permission"), nil
					}
				default:
					return with(errNoPermission, "no permission"), nil
				}
			}
			if m, in := byID[req.UserID]; in {
				role = m.RoleLevel
			}
		default:
			return with(errInternal, fmt.Sprintf("msg sessionType not supported, sessionType=%d", msg.SessionType)), nil
		}
	}
	if writes(ctx) {
		rev := bucket.Revoke{Role: role, UserID: req.UserID, Nickname: user.Nickname, Time: time.Now().UnixMilli()}
		if _, err := s.st.Revoke(ctx, req.ConversationID, []int64{req.Seq}, rev); err != nil {
			return Response{}, err
		}
		// revoke.go RevokeMsg: to the group, or to the message's receiver.
		recv := msg.RecvID
		if msg.SessionType == bucket.SessionGroup {
			recv = msg.GroupID
		}
		tips := revokeTips{RevokerUserID: op, ClientMsgID: msg.ClientMsgID, RevokeTime: rev.Time, SesstionType: msg.SessionType,
			Seq: req.Seq, ConversationID: req.ConversationID, IsAdminRevoke: s.isAdmin(op)}
		if err := s.notify(ctx, notification{path: "/msg/revoke_msg", sendID: req.UserID, recvID: recv, sessionType: msg.SessionType,
			contentType: bucket.ContentRevoked, detail: tips, about: []int64{req.Seq}}); err != nil {
			return Response{}, err
		}
	}
	return ok, nil
}

// visible is the stored slot of seq if it holds a message in uid's window
// (the server's GetMsgBySeqs for the user), else nil.
func (s *Server) visible(ctx context.Context, uid, cid string, seq int64) (*bucket.Slot, error) {
	ws, err := s.st.Windows(ctx, uid, []string{cid}, nil)
	if err != nil {
		return nil, err
	}
	w := ws[cid]
	if seq < w.MinSeq || seq > w.MaxSeq {
		return nil, nil
	}
	slots, err := s.st.Slots(ctx, cid, []int64{seq}, w.MaxSeq)
	if err != nil {
		return nil, err
	}
	if st := slots[seq]; !st.IsHole() {
		return st.Slot, nil
	}
	return nil, nil
}

// seqsReq is the body of delete_msgs and mark_msgs_as_read.
type seqsReq struct {
	ConversationID string  `json:"conversationID"`
	Seqs           []int64 `json:"seqs"`
	UserID         string  `json:"userID"`
	DeleteSyncOpt  *struct {
		IsSyncSelf  bool `json:"IsSyncSelf"`
		IsSyncOther bool `json:"IsSyncOther"`
	} `json:"deleteSyncOpt"`
}

// delete is delete.go DeleteMsgs, for the user only (DeleteUserMsgsBySeqs:
// del_list), whatever the seqs hold. IsSyncOther (a physical delete for
// everyone) is not served: chatlens never asks for it.
func (s *Server) delete(ctx context.Context, op string, body json.RawMessage) (Response, error) {
	var req seqsReq
	_ = json.Unmarshal(body, &req)
	if r := s.access(op, req.UserID); r != nil {
		return *r, nil
	}
	if req.DeleteSyncOpt != nil && req.DeleteSyncOpt.IsSyncOther {
		return with(errArgs, "the stand-in does not delete for everyone"), nil
	}
	if !writes(ctx) {
		return ok, nil
	}
	if _, err := s.st.DeleteForMe(ctx, req.ConversationID, sortedSeqs(req.Seqs), req.UserID); err != nil {
		return Response{}, err
	}
	if req.DeleteSyncOpt == nil || !req.DeleteSyncOpt.IsSyncSelf {
		return ok, nil
	}
	// delete.go DeleteMsgs with IsSyncSelf: to the user's own devices.
	return ok, s.notify(ctx, notification{path: "/msg/delete_msgs", sendID: req.UserID, recvID: req.UserID,
		sessionType: bucket.SessionSingle, contentType: bucket.ContentDeleteNotice,
		detail: deleteTips{UserID: req.UserID, ConversationID: req.ConversationID, Seqs: req.Seqs}, about: req.Seqs})
}

// markRead is as_read.go MarkMsgsAsRead: is_read on each listed slot not
// sent by the reader, in every conversation type (controller
// MarkSingleChatMsgsAsRead), and the read seq raised to the list's last.
func (s *Server) markRead(ctx context.Context, op string, body json.RawMessage) (Response, error) {
	var req seqsReq
	_ = json.Unmarshal(body, &req)
	if r := s.access(op, req.UserID); r != nil {
		return *r, nil
	}
	if len(req.Seqs) == 0 {
		return with(errArgs, "seqs is empty"), nil
	}
	b := s.st.Backend()
	recs, err := b.SeqRecords(ctx, []string{req.ConversationID})
	if err != nil {
		return Response{}, err
	}
	var maxSeq int64
	for _, r := range recs {
		maxSeq = max(maxSeq, r.MaxSeq)
	}
	last := req.Seqs[len(req.Seqs)-1]
	if last > maxSeq {
		return with(errArgs, "hasReadSeq must not be bigger than maxSeq"), nil
	}
	convs, err := b.Conversations(ctx, req.UserID)
	if err != nil {
		return Response{}, err
	}
	i := slices.IndexFunc(convs, func(c bucket.Conversation) bool { return c.ConversationID == req.ConversationID })
	if i < 0 {
		return with(errNotFound, "conversation not found"), nil
	}
	conv := convs[i]
	if !writes(ctx) {
		return ok, nil
	}
	seqs := sortedSeqs(req.Seqs)
	for i := 0; i < len(seqs); {
		j := i
		var slots []int
		for j < len(seqs) && bucket.BucketIndex(seqs[j]) == bucket.BucketIndex(seqs[i]) {
			slots = append(slots, bucket.SlotIndex(seqs[j]))
			j++
		}
		// One request per bucket, as the server sends them (controller/msg.go
		// MarkSingleChatMsgsAsRead: a BulkWrite per doc_id).
		run := []store.BucketSlots{{DocID: bucket.DocIDForSeq(req.ConversationID, seqs[i]), Slots: slots}}
		if _, err := b.MarkSlotsRead(ctx, run, req.UserID); err != nil {
			return Response{}, err
		}
		i = j
	}
	if err := b.RaiseReadSeq(ctx, req.UserID, req.ConversationID, last); err != nil {
		return Response{}, err
	}
	if err := b.Flush(ctx); err != nil {
		return Response{}, err
	}
	// as_read.go sendMarkAsReadNotification: to the other user of a single
	// chat (conversationAndGetRecvID), or to the group.
	recv, kind := conv.UserID, bucket.SessionSingle
	if conv.ConversationType != bucket.SessionSingle {
		recv, kind = conv.GroupID, bucket.SessionGroup
	}
	return ok, s.notify(ctx, notification{path: "/msg/mark_msgs_as_read", sendID: req.UserID, recvID: recv, sessionType: kind,
		contentType: bucket.ContentReadReceipt, about: req.Seqs,
		detail: readTips{MarkAsReadUserID: req.UserID, ConversationID: req.ConversationID, Seqs: req.Seqs, HasReadSeq: last}})
}

func sortedSeqs(seqs []int64) []int64 {
	out := slices.Sorted(slices.Values(seqs))
	return slices.Compact(out)
}

// String names the stand-in in test logs.
func (s *Server) String() string { return "OpenIM stand-in at " + strings.TrimPrefix(s.URL, "http://") }
