package projection

import (
	"reflect"
	"testing"
	"time"
)

func TestDetail(t *testing.T) {
	tests := []struct {
		name string
		m    Message
		want []string
	}{
		{"multi-line text keeps its lines", View(stored(5, message(5, Text, text("line one\nline two\tx")), read), "", "bob", Conv{ID: single}, nil), []string{
			"seq 5 · si_alice_bob:0 slot 4",
			"from Alice (alice) to bob · 2023-11-14 22:13:20 UTC",
			"text · sent · read",
			"  line one",
			"  line two    x",
		}},
		{"hole", View(stored(7, nil), "", "bob", Conv{ID: single}, nil), []string{"seq 7 · si_alice_bob:0 slot 6", "[no message]"}},
		{"deleted for the viewer hides the content", View(stored(5, message(5, Text, text("secret")), deletedBy("bob")), "", "bob", Conv{ID: single}, nil), []string{
			"seq 5 · si_alice_bob:0 slot 4",
			"from Alice (alice) to bob · 2023-11-14 22:13:20 UTC",
			"text · deleted",
			"deleted for bob",
		}},
		{"revoked by an admin", View(stored(5, groupMessage(5, Picture, `{}`), revokedBy("carol", "Carol", 60, 1700000060000)), "", "bob", Conv{ID: group}, nil), []string{
			"seq 5 · sg_team:0 slot 4",
			"from Alice (alice) to group team · 2023-11-14 22:13:20 UTC",
			"revoke notice · sent",
			"revoked by Carol (carol, role 60) · 2023-11-14 22:14:20 UTC",
			"  Carol revoked a message from Alice",
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Detail(tc.m, time.UTC); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Detail:\n got %q\nwant %q", got, tc.want)
			}
		})
	}
}

func TestTypeName(t *testing.T) {
	for ct, want := range map[int32]string{101: "text", 105: "file", 2101: "revoke notice", 1501: "notification 1501", 42: "type 42"} {
		if got := TypeName(ct); got != want {
			t.Errorf("TypeName(%d) = %q, want %q", ct, got, want)
		}
	}
}
