package projection

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestRuleNumbersResolve: every "rule N" (and "rules N and M", "rule N+M")
// written anywhere in the module's Go files names an item of the numbered
// list in this package's doc, so a comment's rule number can be looked up.
func TestRuleNumbersResolve(t *testing.T) {
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	listed := map[int]bool{}
	for _, m := range regexp.MustCompile(`(?m)^//  (\d+)\. `).FindAllStringSubmatch(string(doc), -1) {
		n, _ := strconv.Atoi(m[1])
		listed[n] = true
	}
	for n := 1; n <= 5; n++ { // the rules OpenIM's read path applies to a slot
		if !listed[n] {
			t.Errorf("doc.go lists no rule %d", n)
		}
	}
	mention := regexp.MustCompile(`(?i)\brules? (\d+)((?:\s*(?:\+|,|and)\s*\d+)*)`)
	number := regexp.MustCompile(`\d+`)
	err = filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") && d.Name() != ".." || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(src), "\n") {
			for _, m := range mention.FindAllString(line, -1) {
				for _, num := range number.FindAllString(m, -1) {
					if n, _ := strconv.Atoi(num); !listed[n] {
						t.Errorf("%s:%d: %q names no rule of projection's package doc", path, i+1, m)
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
