package uitest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/charmbracelet/lipgloss"
)

// WantSafeScreen fails on anything in view a terminal would act on: ESC and
// every other C0 control but newline, C1 controls, bidi embeddings,
// overrides and isolates, invalid UTF-8; and on a line wider than width.
func WantSafeScreen(t testing.TB, where, view string, width int) {
	t.Helper()
	if !utf8.ValidString(view) {
		t.Errorf("%s: the screen holds invalid UTF-8", where)
	}
	for i, r := range view {
		bad := r < 0x20 && r != '\n' || r == 0x7f || r >= 0x80 && r <= 0x9f ||
			r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069
		if bad {
			from := max(0, i-40)
			t.Errorf("%s: the screen holds %U at byte %d: …%q…", where, r, i, view[from:min(len(view), i+20)])
			return
		}
	}
	for n, line := range strings.Split(view, "\n") {
		if w := lipgloss.Width(line); w > width {
			t.Errorf("%s: line %d is %d cells wide on a %d-cell screen", where, n+1, w, width)
			return
		}
	}
}

// ReadOnlyFile is the path and text of the one transcript (*.md) in dir;
// the test fails when there is not exactly one.
func ReadOnlyFile(t testing.TB, dir string) (string, string) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*.md"))
	if len(files) != 1 {
		t.Fatalf("transcript files: %v, want one", files)
	}
	b, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	return files[0], string(b)
}
