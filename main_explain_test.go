package main

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/chatlens/chatlens/store/demo"
)

// TestDumpExplainSaysWhy: --explain adds one JSON field, "explain", naming
// the rule behind each row (here the del_list entry a delete-for-me
// writes), and a trailing note in text; without it the output is as before.
func TestDumpExplainSaysWhy(t *testing.T) {
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
	delete(explained[0], "explain")
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
