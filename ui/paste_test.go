package ui

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// TestPasteIntoInput: ctrl+v in the bottom input pastes the clipboard.
// textinput reads the clipboard in a command and types what it read when
// the reply comes back, so the command must reach the program and the reply
// the input. The clipboard tool is looked up when the program starts, so
// the test runs itself again with a fake xclip first on PATH.
func TestPasteIntoInput(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the fake clipboard is an xclip script")
	}
	if os.Getenv("CHATLENS_PASTE_CHILD") == "" {
		dir := t.TempDir()
		script := "#!/bin/sh\nprintf 'bob'\n"
		if err := os.WriteFile(filepath.Join(dir, "xclip"), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(os.Args[0], "-test.run=^TestPasteIntoInput$", "-test.count=1", "-test.v")
		cmd.Env = append(os.Environ(), "CHATLENS_PASTE_CHILD=1", "WAYLAND_DISPLAY=", "PATH="+dir+string(os.PathListSeparator)+os.Getenv("PATH"))
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		return
	}
	st, _ := newTestStore(t, false)
	seedSmall(t, st)
	opts, _ := testOptions(t, "alice")
	d := newDriver(t, st, opts, 100, 30)
	d.keys("u") // view as user ID
	d.send(tea.KeyMsg{Type: tea.KeyCtrlV})
	if v := d.m.input.Value(); v != "bob" {
		t.Fatalf("after ctrl+v the input holds %q, want the clipboard's %q", v, "bob")
	}
	d.keys("enter")
	if d.m.list.Owner() != "bob" {
		t.Errorf("the pasted ID was not used: viewing as %q", d.m.list.Owner())
	}
}
