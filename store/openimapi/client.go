// Package openimapi makes chatlens's writes through OpenIM Server's REST
// API, so the server applies its own permission rules and sends the
// notifications devices act on: /msg/revoke_msg, /msg/delete_msgs (for the
// acting user only) and /msg/mark_msgs_as_read, each with the acting user's
// own token from /auth/get_user_token, or the app admin's from
// /auth/get_admin_token. It implements store.API; store.Do checks first.
package openimapi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/chatlens/chatlens/store"
)

// Paths of the endpoints used (internal/api/router.go).
const (
	PathAdminToken = "/auth/get_admin_token"
	PathUserToken  = "/auth/get_user_token"
	PathRevoke     = "/msg/revoke_msg"
	PathDelete     = "/msg/delete_msgs"
	PathMarkRead   = "/msg/mark_msgs_as_read"
)

// PlatformID is the platform a user token is asked for: 5 (web), as the
// recorded run did. Under the server's default multiLogin policy (share.yml
// policy 1, AllLoginButSameTermKick) a new token kicks every token the user
// holds on that platform (controller/auth.go CreateToken, checkToken): the
// user's web session answers 1506 TokenKickedError on its next call.
const PlatformID = 5

// SessionNote says what a write as user does to their own sessions: a
// token asked for PlatformID signs their web session out under the
// server's default policy. With the app admin's token (admin) no user
// token is asked.
func (c *Client) SessionNote(user string, admin bool) string {
	if admin {
		return ""
	}
	return fmt.Sprintf("this signs %s's web session out: chatlens asks a token for platform %d (web), and under OpenIM's default multiLogin policy (1: one login per platform) their web client's next call answers 1506 TokenKickedError",
		user, PlatformID)
}

// DefaultAdmin is the app admin's user ID in OpenIM's default share.yml.
const DefaultAdmin = "imAdmin"

// DefaultTimeout bounds one request: its answer or "unknown".
const DefaultTimeout = 10 * time.Second

// ErrBadURL is an --openim-api that is not an http(s) URL: a usage error.
var ErrBadURL = errors.New("--openim-api")

// Options configure a Client.
type Options struct {
	URL    string // the API's base, e.g. http://host:10002
	Secret string // share.yml secret, for the admin token
	// SecretFrom, when Secret is "", gives the secret when the client
	// first needs it: when a write asks the admin token, never before.
	SecretFrom SecretSource
	Admin      string // the app admin's user ID (DefaultAdmin when "")
	Timeout    time.Duration
}

// SecretSource is where the server's secret comes from when it is not
// given: asked for when the first write needs it.
type SecretSource interface {
	Secret(ctx context.Context) (string, error)
	// Waiting says what asking for the secret waits on (a command that
	// runs), for a note while it does; "" when nothing.
	Waiting() string
}

// Client talks to one OpenIM API. Tokens are asked once per user and
// kept in memory only; nothing it returns or prints holds one.
type Client struct {
	base    *url.URL
	secret  string       // "" until asked of source
	source  SecretSource // nil when secret was given
	admin   string
	http    *http.Client
	mu      sync.Mutex
	tokens  map[string]string // user ID → token; the admin's under admin
	secrets []string          // what every text from here is scrubbed of
}

// New checks opts and returns a client; it sends nothing yet.
func New(opts Options) (*Client, error) {
	u, err := parseURL(opts.URL)
	if err != nil {
		return nil, err
	}
	if opts.Secret == "" && opts.SecretFrom == nil {
		return nil, fmt.Errorf("%w needs --openim-secret (or CHATLENS_OPENIM_SECRET): the admin token is asked with it", ErrBadURL)
	}
	if opts.Admin == "" {
		opts.Admin = DefaultAdmin
	}
	if opts.Timeout == 0 {
		opts.Timeout = DefaultTimeout
	}
	c := &Client{base: u, secret: opts.Secret, admin: opts.Admin, http: &http.Client{Timeout: opts.Timeout},
		tokens: map[string]string{}}
	if opts.Secret == "" {
		c.source = opts.SecretFrom
	} else {
		c.secrets = []string{opts.Secret}
	}
	return c, nil
}

// Describe names the API, with the credentials in its URL masked.
func (c *Client) Describe() string { return "OpenIM API " + MaskURL(c.base.String()) }

// Waiting says what the next write waits on before its first request
// (the secret's command, the first time); "" when nothing.
func (c *Client) Waiting() string {
	c.mu.Lock()
	known := c.secret != ""
	c.mu.Unlock()
	if known || c.source == nil {
		return ""
	}
	return c.source.Waiting()
}

// adminSecret is the server's secret, asked of the source the first time.
func (c *Client) adminSecret(ctx context.Context) (string, error) {
	c.mu.Lock()
	known := c.secret
	c.mu.Unlock()
	if known != "" || c.source == nil {
		return known, nil
	}
	v, err := c.source.Secret(ctx)
	if err != nil {
		return "", err
	}
	c.mu.Lock()
	c.secret = v
	c.secrets = append(c.secrets, v)
	c.mu.Unlock()
	return v, nil
}

// Send makes one call of a write with the acting user's token (the admin's
// with call.Admin). A refused token is the call's answer; a token that got
// no answer leaves the write not sent.
func (c *Client) Send(ctx context.Context, call store.APICall) store.APIAnswer {
	for retried := false; ; retried = true {
		token, refused := c.token(ctx, call)
		a := store.APIAnswer{}
		if refused != nil {
			a = *refused
		} else {
			path, body := request(call)
			a = c.post(ctx, path, call.OperationID, token, body, nil)
		}
		if retried || !tokenRejected(a.Code) {
			return a
		}
		// An expired or kicked token is refused before the write is looked
		// at (router.go GinParseToken): ask new tokens and send once more.
		c.mu.Lock()
		clear(c.tokens)
		c.mu.Unlock()
	}
}

// tokenRejected tells the token errors of servererrs/code.go (1501-1507).
func tokenRejected(code int) bool { return code >= 1501 && code <= 1507 }

// request is the body of call's endpoint (pkg/apistruct and protocol
// msg.proto: RevokeMsgReq, DeleteMsgsReq, MarkMsgsAsReadReq).
func request(call store.APICall) (string, any) {
	switch call.Action {
	case store.ActionRevoke:
		return PathRevoke, map[string]any{"conversationID": call.Cid, "seq": call.Seqs[0], "userID": call.By}
	case store.ActionDelete:
		// IsSyncSelf: the server tells the user's own devices (a 2102 in
		// n_<user>_<user>); without it delete.go sends nothing. Never
		// IsSyncOther: that deletes for everyone, physically.
		return PathDelete, map[string]any{"conversationID": call.Cid, "seqs": call.Seqs, "userID": call.By,
			"deleteSyncOpt": map[string]bool{"IsSyncSelf": true}}
	default:
		return PathMarkRead, map[string]any{"conversationID": call.Cid, "seqs": call.Seqs, "userID": call.By}
	}
}

// token returns the token call is sent with, asking the server for it once.
func (c *Client) token(ctx context.Context, call store.APICall) (string, *store.APIAnswer) {
	c.mu.Lock()
	_, held := c.tokens[c.admin]
	c.mu.Unlock()
	secret := ""
	if !held {
		var err error
		if secret, err = c.adminSecret(ctx); err != nil {
			return "", &store.APIAnswer{Path: PathAdminToken, Err: err} // not sent
		}
	}
	admin, err := c.cached(ctx, c.admin, call.OperationID+"-admin", PathAdminToken, map[string]any{"secret": secret, "userID": c.admin}, "")
	if err != nil || call.Admin {
		return admin, err
	}
	return c.cached(ctx, call.By, call.OperationID+"-token", PathUserToken, map[string]any{"platformID": PlatformID, "userID": call.By}, admin)
}

func (c *Client) cached(ctx context.Context, user, op, path string, body any, auth string) (string, *store.APIAnswer) {
	c.mu.Lock()
	t, ok := c.tokens[user]
	c.mu.Unlock()
	if ok {
		return t, nil
	}
	var data struct {
		Token string `json:"token"`
	}
	a := c.post(ctx, path, op, auth, body, &data)
	switch {
	case a.Err != nil:
		a.Sent = false // no write was sent
		return "", &a
	case a.Code != 0:
		return "", &a
	case data.Token == "":
		a.Err = fmt.Errorf("%s answered no token", path)
		return "", &a
	}
	c.mu.Lock()
	c.tokens[user] = data.Token
	c.secrets = append(c.secrets, data.Token)
	c.mu.Unlock()
	return data.Token, nil
}

// answer is every endpoint's reply (pkg/apiresp): errCode 0 is success.
type answer struct {
	ErrCode int             `json:"errCode"`
	ErrMsg  string          `json:"errMsg"`
	ErrDlt  string          `json:"errDlt"`
	Data    json.RawMessage `json:"data"`
}

// post sends body to path with the headers the API reads (operationID,
// token) and decodes the answer; data, when given, gets its "data".
func (c *Client) post(ctx context.Context, path, op, token string, body, data any) store.APIAnswer {
	a := store.APIAnswer{Path: path}
	raw, err := json.Marshal(body)
	if err != nil {
		a.Err = err
		return a
	}
	// The path joins the base's path; a query the base has stays the query.
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base.JoinPath(path).String(), bytes.NewReader(raw))
	if err != nil {
		a.Err = c.scrub(err)
		return a
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("operationID", op)
	if token != "" {
		req.Header.Set("token", token)
	}
	// Once the request is written the server may act on it: from then on,
	// a lost answer leaves the outcome unknown.
	var wrote atomic.Bool // set on the transport's goroutine
	req = req.WithContext(httptrace.WithClientTrace(req.Context(), &httptrace.ClientTrace{
		WroteRequest: func(info httptrace.WroteRequestInfo) {
			if info.Err == nil {
				wrote.Store(true)
			}
		},
	}))
	resp, err := c.http.Do(req)
	if err != nil {
		var ue *url.Error // it quotes the request's URL: masked as every shown URL is
		if errors.As(err, &ue) {
			ue.URL = MaskURL(ue.URL)
		}
		a.Err, a.Sent = c.scrub(err), wrote.Load()
		return a
	}
	defer func() { _ = resp.Body.Close() }()
	var ans answer
	b, err := io.ReadAll(io.LimitReader(resp.Body, 8<<20))
	if err == nil && resp.StatusCode != http.StatusOK {
		err = fmt.Errorf("HTTP %s from %s", resp.Status, path)
	}
	if err == nil {
		err = json.Unmarshal(b, &ans)
	}
	if err == nil && data != nil && len(ans.Data) > 0 && ans.ErrCode == 0 {
		err = json.Unmarshal(ans.Data, data)
	}
	if err != nil {
		a.Err, a.Sent = c.scrub(err), true
		return a
	}
	a.Code, a.Msg, a.Dlt = ans.ErrCode, c.scrubText(ans.ErrMsg), c.scrubText(ans.ErrDlt)
	return a
}

// scrub keeps the secret and every token out of an error's text.
func (c *Client) scrub(err error) error {
	if t := c.scrubText(err.Error()); t != err.Error() {
		return errors.New(t)
	}
	return err
}

func (c *Client) scrubText(s string) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, sec := range c.secrets {
		// A secret of a few letters would blank parts of words ("user"),
		// and no server text is known to echo one: only longer ones.
		if len(sec) >= 8 {
			s = strings.ReplaceAll(s, sec, "***")
		}
	}
	return s
}

// CheckURL refuses a URL that is not the API's (ErrBadURL), before the
// secret New needs is asked for.
func CheckURL(raw string) error {
	_, err := parseURL(raw)
	return err
}

func parseURL(raw string) (*url.URL, error) {
	u, err := url.Parse(strings.TrimRight(raw, "/"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("%w: want an http:// or https:// URL of the OpenIM API, got %q", ErrBadURL, MaskURL(raw))
	}
	return u, nil
}

// MaskURL is raw as chatlens shows it anywhere (the contexts, errors, the
// audit log, the status bar): the password of its user info, a user name
// without a password (often a token), every query value and a fragment
// masked; a URL that does not parse is not shown at all.
func MaskURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(not a URL)" // it may hold a password chatlens cannot find
	}
	info := ""
	if u.User != nil {
		info = mask + "@" // a lone user name
		if _, ok := u.User.Password(); ok {
			info = url.User(u.User.Username()).String() + ":" + mask + "@"
		}
		u.User = nil
	}
	if u.RawQuery != "" || u.ForceQuery {
		parts := strings.FieldsFunc(u.RawQuery, func(r rune) bool { return r == '&' || r == ';' })
		for i, p := range parts {
			if name, _, ok := strings.Cut(p, "="); ok {
				parts[i] = name + "=" + mask
			} else {
				parts[i] = mask // a bare word may be the token itself
			}
		}
		u.RawQuery, u.ForceQuery = strings.Join(parts, "&"), false
	}
	if u.Fragment != "" {
		u.Fragment, u.RawFragment = mask, ""
	}
	shown := u.String()
	if info != "" {
		shown = strings.Replace(shown, "//", "//"+info, 1)
	}
	return shown
}

// mask stands for a credential wherever one is shown.
const mask = "****"
