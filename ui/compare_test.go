package ui

import (
	"strings"
	"testing"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
)

func compareDriver(t *testing.T, w, h int, setup ...func(*store.Store)) *driver {
	t.Helper()
	st, _ := newTestStore(t, false)
	seedSmall(t, st)
	for _, s := range setup {
		s(st)
	}
	opts, _ := testOptions(t, "alice")
	return newDriver(t, st, opts, w, h)
}

// TestCompareSingleChatAtOnce: a single chat has one other member, so c
// compares with them without a picker, across the full width; tab brings
// the conversation list back.
func TestCompareSingleChatAtOnce(t *testing.T) {
	t.Parallel()
	d := compareDriver(t, 120, 40)
	d.open(chatAB)
	d.keys("c")
	if d.m.overlay != ovNone || d.m.tl.Compare().With() != "bob" {
		t.Fatalf("c in a single chat: overlay %v, comparing with %q; want no dialog, bob", d.m.overlay, d.m.tl.Compare().With())
	}
	view := d.m.View()
	if !strings.Contains(view, "A as Alice") || !strings.Contains(view, "│ B as Bob") {
		t.Errorf("compare columns are not named:\n%s", view)
	}
	if strings.Contains(view, "Conversations of alice") {
		t.Errorf("the list pane still takes room while comparing:\n%s", view)
	}
	d.keys("tab")
	if view := d.m.View(); !strings.Contains(view, "Conversations of alice") || !strings.Contains(view, "vs Bob") {
		t.Errorf("tab did not bring the list back beside the compare view:\n%s", view)
	}
}

// TestDifferencesOnlyWithNoneActsOnNoHiddenRow: when "differences only"
// shows no row (the two see every seq alike), the row keys say so instead
// of inspecting, copying or writing the hidden seq under the cursor.
func TestDifferencesOnlyWithNoneActsOnNoHiddenRow(t *testing.T) {
	d := compareDriver(t, 120, 40)
	d.open(chatT)
	d.keys("c")
	d.typeText("bob")
	d.keys("enter", "D")
	if view := d.m.View(); !strings.Contains(view, "no differences") {
		t.Fatalf("alice and bob see the team chat differently; the test needs them alike:\n%s", view)
	}
	for _, k := range []string{"i", "y", "T", "r", "d", "m"} {
		d.keys(k)
		if d.m.overlay != ovNone || !strings.Contains(d.m.status, "no difference under the cursor") {
			t.Errorf("%s in differences only with none shown: overlay %v, status %q; want no dialog and a note", k, d.m.overlay, d.m.status)
			d.keys("esc")
		}
	}
	d.keys("D", "i")
	if d.m.overlay == ovNone {
		t.Errorf("i with every row shown again opened nothing (status %q)", d.m.status)
	}
}

// TestReasonColumnOnSmallTerminals: at 80 and at 40 columns the rows keep
// their width and the reason stays readable, not cut with the message text.
func TestReasonColumnOnSmallTerminals(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {40, 20}} {
		w := size[0]
		d := compareDriver(t, w, size[1])
		d.open(chatAB)
		d.jump(5)
		d.keys("c")
		view := d.m.View()
		if row := rowOf(view, 5); !strings.Contains(row, "deleted-for-A") {
			t.Errorf("at %d columns seq 5 is drawn as %q, without its reason", w, row)
		}
		for i, line := range strings.Split(view, "\n") {
			if n := len([]rune(line)); strings.Contains(line, "│") && n != w {
				t.Errorf("at %d columns line %d is %d cells: %q", w, i, n, line)
			}
		}
	}
}

// TestCompareFollowsAWrite: a delete for alice made from the compare view
// becomes a difference at once, counted and reachable with [.
func TestCompareFollowsAWrite(t *testing.T) {
	t.Parallel()
	d := compareDriver(t, 120, 40)
	d.open(chatAB)
	d.jump(10)
	d.keys("c", "d", "y")
	if row := rowOf(d.m.View(), 10); !strings.Contains(row, "deleted-for-A") {
		t.Fatalf("seq 10 after alice deleted it for herself: %q", row)
	}
	d.keys("G", "[")
	if d.m.tl.Cursor() != 10 {
		t.Errorf("[ from the newest went to %d, want the new difference at 10", d.m.tl.Cursor())
	}
}

// TestCompareInspectorWrapsLongValues: at 80 columns the compare
// inspector cut a client_msg_id (and a long reason) at its column's edge,
// with no wrap or scroll to read the rest. Each value now wraps in its
// column, whole.
func TestCompareInspectorWrapsLongValues(t *testing.T) {
	const id = "35e5274dd7807f8a41f0a067c86dd2a9-0123456789abcdef"
	d := compareDriver(t, 80, 24, func(st *store.Store) {
		m := textMsg("bob", "alice", "", bucket.SessionSingle, 110, "hello 110 from bob")
		m.ClientMsgID = id
		if _, err := st.Backend().SetSlotField(t.Context(), bucket.DocIDForSeq(chatAB, 110), bucket.SlotIndex(110), "msg", m); err != nil {
			t.Fatal(err)
		}
	})
	d.open(chatAB)
	d.keys("c")
	d.jump(110)
	d.keys("i")
	var left strings.Builder
	for _, l := range strings.Split(d.m.View(), "\n") {
		l = strings.TrimPrefix(l, "│")
		col, _, _ := strings.Cut(l, " │ ")
		left.WriteString(strings.ReplaceAll(col, " ", ""))
	}
	if !strings.Contains(left.String(), `"client_msg_id":"`+id+`"`) {
		t.Errorf("the inspector's left column does not hold the whole client_msg_id:\n%s", d.m.View())
	}
}
