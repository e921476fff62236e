package ui

import (
	"os"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// lastLine is the footer: the key hints, the input or the status.
func lastLine(d *driver) string {
	lines := strings.Split(d.m.View(), "\n")
	return lines[len(lines)-1]
}

// TestDialogKeysFollowKeysJSON: the keys of the picker, the inputs and the
// inspector come from keys.json like every other key: moved there, the new
// key works, the old one no longer does, and the hints name the new one.
func TestDialogKeysFollowKeysJSON(t *testing.T) {
	st, _ := newTestStore(t, false)
	seedSmall(t, st)
	opts, _ := testOptions(t, "alice")
	remap := `{"choicedown": ["ctrl+j"], "dismiss": ["ctrl+g"], "back": ["x"], "down": ["J"]}`
	if err := os.WriteFile(opts.KeymapFile, []byte(remap), 0o600); err != nil {
		t.Fatal(err)
	}
	d := newDriver(t, st, opts, 120, 30)
	if d.m.statusErr {
		t.Fatalf("keys.json refused: %s", d.m.status)
	}
	d.open(chatAB)

	// The viewer picker: ctrl+j moves down, the arrow no longer does.
	d.keys("v")
	if f := lastLine(d); !strings.Contains(f, "ctrl+j choose") || !strings.Contains(f, "ctrl+g cancel") {
		t.Errorf("picker hints do not name the moved keys: %q", f)
	}
	start := d.m.picker.cursor
	d.keys("down")
	if d.m.picker.cursor != start {
		t.Error("the down arrow still moves the picker")
	}
	d.send(tea.KeyMsg{Type: tea.KeyCtrlJ})
	if d.m.picker.cursor != start+1 {
		t.Errorf("ctrl+j did not move the picker: cursor %d, was %d", d.m.picker.cursor, start)
	}
	d.keys("esc")
	if d.m.overlay != ovPicker {
		t.Error("esc still closes the picker")
	}
	d.send(tea.KeyMsg{Type: tea.KeyCtrlG})
	if d.m.overlay != ovNone {
		t.Fatal("ctrl+g did not close the picker")
	}

	// The bottom input: ctrl+g cancels it, esc is typed into it.
	d.keys(":")
	d.keys("esc")
	if !d.m.input.open() {
		t.Error("esc still closes the input")
	}
	d.send(tea.KeyMsg{Type: tea.KeyCtrlG})
	if d.m.input.open() {
		t.Fatal("ctrl+g did not close the input")
	}
}

// TestInspectorNamesMovedKeys: the inspector's title names the keys it
// scrolls and closes with as keys.json sets them (it said "j/k scroll · esc
// close" whatever the file said), and they work.
func TestInspectorNamesMovedKeys(t *testing.T) {
	st, _ := newTestStore(t, false)
	seedSmall(t, st)
	opts, _ := testOptions(t, "alice")
	if err := os.WriteFile(opts.KeymapFile, []byte(`{"back": ["x"], "down": ["J"]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	d := newDriver(t, st, opts, 120, 30)
	d.open(chatAB)
	d.jump(7)
	d.keys("i")
	view := d.m.View()
	if !strings.Contains(view, "J/k scroll · x close") {
		t.Errorf("inspector title does not name the moved keys:\n%s", view)
	}
	top := d.m.inspector.vp.YOffset
	d.keys("J")
	if d.m.inspector.vp.YOffset != top+1 {
		t.Errorf("J did not scroll the inspector: offset %d, was %d", d.m.inspector.vp.YOffset, top)
	}
	d.keys("esc")
	if d.m.overlay != ovInspector {
		t.Error("esc still closes the inspector")
	}
	d.keys("x")
	if d.m.overlay != ovNone {
		t.Error("x did not close the inspector")
	}
}
