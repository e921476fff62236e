package main

import (
	"strings"
	"testing"
)

// TestTyposInIDsSayNoSuchConversationOrUser: a conversation or user ID no
// stored document names is a typo in every reading command, not someone
// real with nothing to see: "no such conversation / user" with the nearest
// stored name, exit 1, one line.
func TestTyposInIDsSayNoSuchConversationOrUser(t *testing.T) {
	t.Parallel()
	s := seeded(t)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"dump", "--conversation", "si_alice_bbo", "--as", "bob"}, "no such conversation si_alice_bbo: no seq, conversation, seq_user or msg document names it (did you mean si_alice_bob or n_alice_bob?)"},
		{[]string{"dump", "--conversation", "si_alice_bob", "--as", "bbo"}, `no such user "bbo": no user, conversation, seq_user or group_member document names them (did you mean "bob"?)`},
		{[]string{"dump", "--conversation", "si_alice_bob", "--as", "bbo", "--format", "markdown"}, `(did you mean "bob"?)`},
		{[]string{"conversations", "--as", "alcie"}, `no such user "alcie"`},
		{[]string{"export", "--conversation", "sg_phoenx"}, "(did you mean sg_phoenix or n_phoenix?)"},
		{[]string{"check", "--conversation", "sg_phoenx"}, "(did you mean sg_phoenix or n_phoenix?)"},
		{[]string{"read", "--conversation", "si_alice_bob", "--seq", "1", "--by", "alcie"}, `(did you mean "alice"?)`},
	} {
		r := s.chatlens(t, c.args...)
		if r.code != 1 || r.stdout != "" || !strings.Contains(r.stderr, c.want) {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit 1 and %s", strings.Join(c.args, " "), r.code, r.stdout, r.stderr, c.want)
		}
		oneErrorLine(t, r.stderr)
	}
	if e := s.lastAudit(t); e.Result != "refused" || e.As != "alcie" {
		t.Errorf("the read by alcie is audited %+v; want refused", e)
	}
}
