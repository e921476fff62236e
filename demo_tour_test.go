//go:build linux

package main

import (
	"os"
	"strings"
	"testing"

	"github.com/chatlens/chatlens/store/demo"
)

// The UI started with no --as on the demo opened as whoever owned the
// first group stored (sofia), while the README's tour starts with alice:
// a demo store now starts as the viewer the README names, and says why.
func TestDemoStartsAsTheREADMEsViewer(t *testing.T) {
	t.Parallel()
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), "--as "+demo.TourViewer) {
		t.Fatalf("the README's tour does not start with --as %s", demo.TourViewer)
	}
	term, _ := startUIWith(t, seeded(t), "Bob")
	term.waitFor(t, 0, "viewing as "+demo.TourViewer+" (the README's tour")
}
