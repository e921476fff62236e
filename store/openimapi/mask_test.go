package openimapi_test

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/openimapi"
)

// Every credential an --openim-api URL carries is masked wherever chatlens
// shows it: the password of its user info, a lone user name (a token as
// often as not), every query value.
func TestMaskURLHidesEveryCredential(t *testing.T) {
	for raw, want := range map[string]string{
		"http://u:pw@127.0.0.1:1/?token=Q":               "http://u:****@127.0.0.1:1/?token=****",
		"https://im.example.net/api?token=Q&sig=S":       "https://im.example.net/api?token=****&sig=****",
		"https://tok3n@im.example.net":                   "https://****@im.example.net",
		"https://im.example.net/?Q2ZlNDc":                "https://im.example.net/?****",
		"https://im.example.net:10002":                   "https://im.example.net:10002",
		"http://h/#access_token=T":                       "http://h/#****",
		"http://u:p%40ss@h:1/x?a=1;b=2":                  "http://u:****@h:1/x?a=****&b=****",
		"http://h/\x7f?token=Q":                          "(not a URL)",
		"http://u:pw@127.0.0.1:1/auth/get_admin_token?x": "http://u:****@127.0.0.1:1/auth/get_admin_token?****",
	} {
		if got := openimapi.MaskURL(raw); got != want {
			t.Errorf("MaskURL(%q) = %q, want %q", raw, got, want)
		}
	}
}

// A request goes to the base's path joined with the endpoint's, the
// base's query kept as the query: not the path glued after the query
// string (".../?token=Q/auth/get_admin_token").
func TestRequestURLIsBuiltFromItsParts(t *testing.T) {
	var mu sync.Mutex
	var seen []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.URL.Path+" ? "+r.URL.RawQuery)
		mu.Unlock()
		_, _ = w.Write([]byte(`{"errCode":1002,"errMsg":"NoPermissionError"}`))
	}))
	defer srv.Close()
	api, err := openimapi.New(openimapi.Options{URL: srv.URL + "/openim/?token=Q", Secret: "s3cret-long-enough"})
	if err != nil {
		t.Fatal(err)
	}
	api.Send(context.Background(), store.APICall{Action: store.ActionRevoke, Cid: "sg_g1", By: "u3", Seqs: []int64{4}})
	mu.Lock()
	defer mu.Unlock()
	if len(seen) != 1 || seen[0] != "/openim/auth/get_admin_token ? token=Q" {
		t.Errorf("the server was asked %q; want /openim/auth/get_admin_token with the query token=Q", seen)
	}
	if d := api.Describe(); strings.Contains(d, "token=Q") {
		t.Errorf("Describe() = %q shows the query's token", d)
	}
}

// An API that does not answer: the error, and the audit line of the write
// it stopped, name the URL with its credentials masked.
func TestAnUnansweredURLIsShownMasked(t *testing.T) {
	const token, password = "QueryToken77", "UserPass55"
	api, err := openimapi.New(openimapi.Options{URL: "http://ops:" + password + "@127.0.0.1:1/?token=" + token, Secret: "s3cret-long-enough"})
	if err != nil {
		t.Fatal(err)
	}
	var audit bytes.Buffer
	st := store.New(recordedBackend(t, before), store.Options{API: api, Audit: store.NewAuditLog(&audit), Operator: "ops"})
	_, err = st.Do(context.Background(), store.WriteRequest{Action: store.ActionRevoke, Cid: "sg_g1", By: "u3", Seqs: []int64{4}})
	if err == nil {
		t.Fatal("a revoke through an API that does not answer succeeded")
	}
	for what, text := range map[string]string{"the error": err.Error(), "the audit log": audit.String()} {
		if strings.Contains(text, token) || strings.Contains(text, password) {
			t.Errorf("%s shows a credential of the URL: %s", what, text)
		}
		if !strings.Contains(text, "token=****") {
			t.Errorf("%s does not name the URL masked: %s", what, text)
		}
	}
}

// secretOnce is a secret source that counts how often it is asked.
type secretOnce struct {
	mu    sync.Mutex
	value string
	asked int
	err   error
}

func (s *secretOnce) Secret(context.Context) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.asked++
	return s.value, s.err
}

func (s *secretOnce) Waiting() string { return "waiting for the source" }

// A client given a source of the secret asks it only when a write needs
// the admin token, says meanwhile what the write waits on, and a source
// that fails leaves the write not sent.
func TestTheSecretIsAskedWhenAWriteNeedsIt(t *testing.T) {
	r := standIn(t, before, before, 0, 0)
	src := &secretOnce{value: r.secret}
	api, err := openimapi.New(openimapi.Options{URL: r.srv.URL, SecretFrom: src})
	if err != nil {
		t.Fatal(err)
	}
	if src.asked != 0 || api.Waiting() != "waiting for the source" {
		t.Fatalf("before any write: asked %d times, waiting %q", src.asked, api.Waiting())
	}
	for _, seq := range []int64{4, 5} {
		if a := api.Send(context.Background(), store.APICall{Action: store.ActionRead, Cid: "sg_g1", By: "u3", Seqs: []int64{seq}, OperationID: "op"}); a.Err != nil || a.Code != 0 {
			t.Fatalf("mark read of seq %d: %+v", seq, a)
		}
	}
	if src.asked != 1 || api.Waiting() != "" {
		t.Errorf("after two writes: asked %d times (want 1), waiting %q", src.asked, api.Waiting())
	}
	calls := len(r.srv.Calls())
	failing := &secretOnce{err: errors.New("no vault")}
	bad, _ := openimapi.New(openimapi.Options{URL: r.srv.URL, SecretFrom: failing})
	if a := bad.Send(context.Background(), store.APICall{Action: store.ActionRevoke, Cid: "sg_g1", By: "u3", Seqs: []int64{4}, OperationID: "op"}); a.Err == nil || a.Sent || len(r.srv.Calls()) != calls {
		t.Fatalf("a failing source: answer %+v, %d calls more; want not sent, no call", a, len(r.srv.Calls())-calls)
	}
}
