package main

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/demo"
)

// TestDumpExplainSaysWhy: --explain adds two JSON fields, "explain", naming
// the rule behind each row (here the del_list entry a delete-for-me
// writes), and "life", the slot's dated changes (the delete, dated by the
// audit log), and a trailing note in text; without it the output is as
// before.
func TestDumpExplainSaysWhy(t *testing.T) {
	t.Parallel()
	s := seeded(t)
	cid := demo.ShowcaseSingleID
	st := s.stored(t)
	deleted := plainSeq(t, st, cid, "alice", 20, false)
	_ = st.Close(t.Context())
	s.mustRun(t, "delete", "--conversation", cid, "--seq", fmt.Sprint(deleted), "--by", "alice")

	seq := fmt.Sprint(deleted)
	plain := s.dumpJSON(t, cid, "alice", "--from", seq, "--to", seq)
	explained := s.dumpJSON(t, cid, "alice", "--from", seq, "--to", seq, "--explain")
	if len(plain) != 1 || len(explained) != 1 {
		t.Fatalf("dump of one seq printed %d and %d objects", len(plain), len(explained))
	}
	why, ok := explained[0]["explain"].([]any)
	if !ok || len(why) == 0 || why[0] != "in del_list of alice" {
		t.Errorf("explain field = %v, want it to start with \"in del_list of alice\"", explained[0]["explain"])
	}
	if life := fmt.Sprint(explained[0]["life"]); !strings.Contains(life, "source:audit log what:deleted for alice") {
		t.Errorf("life field = %s, want the delete for alice dated by the audit log", life)
	}
	delete(explained[0], "explain")
	delete(explained[0], "life")
	if !reflect.DeepEqual(plain[0], explained[0]) {
		t.Errorf("--explain changed other fields:\n%v\n%v", plain[0], explained[0])
	}
	if _, has := plain[0]["explain"]; has {
		t.Error("explain printed without --explain")
	}
	text := s.mustRun(t, "dump", "--conversation", cid, "--as", "alice", "--from", seq, "--to", seq, "--explain")
	if !strings.Contains(text, "← in del_list of alice") || strings.Count(text, "\n") != 1 {
		t.Errorf("text dump with --explain = %q, want one line ending in the rule", text)
	}
}

// TestDumpExplainNamesTheRevokersRole: a group message its sender, an
// ordinary member, revoked is explained with the role by OpenIM's name,
// "ordinary member", as the revoke rule and the viewer picker say it.
func TestDumpExplainNamesTheRevokersRole(t *testing.T) {
	t.Parallel()
	s := seeded(t)
	group := demo.ShowcaseGroupID
	st := s.stored(t)
	members, err := st.Members(t.Context(), group)
	if err != nil {
		t.Fatal(err)
	}
	member := ""
	for _, m := range members {
		if m.RoleLevel == bucket.RoleMember {
			member = m.UserID
			break
		}
	}
	seq := fmt.Sprint(plainSeq(t, st, group, member, 0, false))
	_ = st.Close(t.Context())
	s.mustRun(t, "revoke", "--conversation", group, "--seq", seq, "--by", member)

	text := s.mustRun(t, "dump", "--conversation", group, "--as", member, "--from", seq, "--to", seq, "--explain")
	if want := "(the sender, ordinary member, role 20)"; !strings.Contains(text, want) {
		t.Errorf("dump --explain of %s's revoked seq %s = %q, want it to name the role: %s", member, seq, text, want)
	}
}
