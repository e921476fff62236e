package store_test

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// stepOf is the step of a file of store's root, bottom up: a file may use
// what the files of its own step and of the steps below it declare, and
// nothing of a step above (README, Layout: each step calls only downward).
// A write's steps go plan, then apply: the plan's checks under the plan,
// the plan's words over it; what a write did under the frame of a write on
// the backend, the API's sends over it, and Ask, Apply and Do on top.
func stepOf(file string) (int, bool) {
	steps := map[string]int{
		"write_api.go":           2, // the API write's words, which planning and applying share
		"write_plan_checks.go":   3,
		"write_plan.go":          4,
		"write_plan_lines.go":    5,
		"write_apply_outcome.go": 6,
		"write_apply_state.go":   7,
		"write_api_apply.go":     8,
		"write_apply.go":         9,
	}
	switch {
	case file == "backend.go" || file == "counting.go" || strings.HasPrefix(file, "base_"):
		return 0, true
	case strings.HasPrefix(file, "read_"):
		return 1, true
	}
	n, ok := steps[file]
	return n, ok
}

// TestEachStepCallsOnlyDownward type-checks store's root and fails on a
// name one file uses that a file of a higher step declares: a read that
// reaches into a write, a plan into its applying, a frame into the write
// that called it. The parts of the Store facade are composed in
// base_store.go, which names each of them, and is let name the cache of
// the reads above it.
func TestEachStepCallsOnlyDownward(t *testing.T) {
	t.Parallel()
	fset := token.NewFileSet()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		if _, ok := stepOf(name); !ok {
			t.Errorf("%s: store's root holds base_*, read_* and the write steps' files (stepOf); name it for its step", name)
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}}
	conf := types.Config{Importer: importer.ForCompiler(fset, "source", nil)}
	if _, err := conf.Check("github.com/chatlens/chatlens/store", fset, files, info); err != nil {
		t.Fatal(err)
	}
	for id, obj := range info.Uses {
		if obj.Pkg() == nil || obj.Pkg().Path() != "github.com/chatlens/chatlens/store" || !obj.Pos().IsValid() {
			continue
		}
		from, to := fset.Position(id.Pos()).Filename, fset.Position(obj.Pos()).Filename
		if from == "base_store.go" && to == "read_told.go" {
			continue // the facade's composition names the reads' cache
		}
		fs, _ := stepOf(from)
		ts, _ := stepOf(to)
		if ts > fs {
			t.Errorf("%s uses %s of %s, a step above it: move the name down, or the use up", fset.Position(id.Pos()), obj.Name(), to)
		}
	}
}

// TestTheEmbeddedBackendStandsOnTheContract: the embedded backend imports
// the contract in store/bucket, not store, so the store's Counter hands it
// a write downward.
func TestTheEmbeddedBackendStandsOnTheContract(t *testing.T) {
	t.Parallel()
	names, err := filepath.Glob(filepath.Join("embedded", "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, name, src, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			if imp.Path.Value == `"github.com/chatlens/chatlens/store"` {
				t.Errorf("%s imports store: a backend imports the contract (store/bucket), not the store that wraps it", name)
			}
		}
	}
}
