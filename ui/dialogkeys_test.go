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
	// The choices are alice (the viewer, selected) and bob.
	d.keys("down")
	if !strings.Contains(d.m.View(), "▸ alice") {
		t.Errorf("the down arrow still moves the picker:\n%s", d.m.View())
	}
	d.send(tea.KeyMsg{Type: tea.KeyCtrlJ})
	if !strings.Contains(d.m.View(), "▸ bob") {
		t.Errorf("ctrl+j did not move the picker to bob:\n%s", d.m.View())
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
	if !d.m.input.Open() {
		t.Error("esc still closes the input")
	}
	d.send(tea.KeyMsg{Type: tea.KeyCtrlG})
	if d.m.input.Open() {
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
	second := strings.Split(view, "\n")[3] // under the border, the title and the first line
	d.keys("J")
	if first := strings.Split(d.m.View(), "\n")[2]; first != second {
		t.Errorf("J did not scroll the inspector one line: its first line is %q, want %q", first, second)
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
