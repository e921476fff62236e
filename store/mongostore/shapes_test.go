package mongostore

import (
	"strings"
	"testing"
)

// TestShapesCoverEveryQuery: check can only flag a collection scan on a
// query it explains, so every query the backend sends on an open or a
// write has a shape: the naming collections and the loose index scan too.
func TestShapesCoverEveryQuery(t *testing.T) {
	want := []string{"find msg {doc_id: {$in}}", "find msg {doc_id: prefix range}", "find msg {doc_id: $gt} sort limit 1",
		"update msg {doc_id} $set", "update msg {doc_id} $addToSet", "update msg {doc_id, send_id $ne}",
		"find seq {conversation_id: {$in}}", "update seq {conversation_id} $max upsert",
		"find seq_user {user_id, conversation_id: {$in}}", "update seq_user {user_id, conversation_id} $max",
		"find conversation {owner_user_id}", "find user {user_id: {$in}}", "find group {group_id: {$in}}",
		"find group_member {group_id}"}
	var names []string
	for _, s := range shapes() {
		names = append(names, s.name)
	}
	for _, w := range want {
		found := false
		for _, n := range names {
			found = found || strings.HasPrefix(n, w)
		}
		if !found {
			t.Errorf("no query shape %q among %q", w, names)
		}
	}
}
