package main

import (
	"go/build"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const module = "github.com/chatlens/chatlens"

// TestTheHouseKeepsItsLayers holds the README's Layout and DESIGN.md's rules
// to the import graph (non-test files): projection, the timeline's model
// and OpenIM's rules see only the bucket model (the model projection too)
// and do no I/O; store never
// imports the terminal libraries; ui reaches storage only through store;
// nothing below points back up.
func TestTheHouseKeepsItsLayers(t *testing.T) {
	t.Parallel()
	imports := moduleImports(t)
	has := func(pkg, prefix string) []string {
		var out []string
		for _, imp := range imports[pkg] {
			if imp == prefix || strings.HasPrefix(imp, prefix+"/") {
				out = append(out, imp)
			}
		}
		return out
	}
	if _, ok := imports["projection"]; !ok {
		t.Fatalf("no projection package among %d read", len(imports))
	}
	for pkg := range imports {
		inModule := has(pkg, module)
		switch {
		case pkg == "projection":
			for _, imp := range inModule {
				if imp != module+"/store/bucket" {
					t.Errorf("projection imports %s: it may import only store/bucket", imp)
				}
			}
			for _, io := range []string{"os", "net", "io/fs", "os/exec", "net/http"} {
				if len(has(pkg, io)) > 0 {
					t.Errorf("projection imports %s: it does no I/O", io)
				}
			}
		case pkg == "ui/pages/timeline/model" || pkg == "store/openimrules":
			// Pure: the timeline's data half (which projects both sides of
			// the compare view), and OpenIM's rules.
			for _, imp := range inModule {
				if imp != module+"/store/bucket" && (pkg != "ui/pages/timeline/model" || imp != module+"/projection") {
					t.Errorf("%s imports %s: it may import only store/bucket (the model: and projection)", pkg, imp)
				}
			}
			if tui := has(pkg, "github.com/charmbracelet"); len(tui) > 0 {
				t.Errorf("%s imports %v: it is pure, no Bubble Tea", pkg, tui)
			}
			for _, io := range []string{"os", "net", "io/fs", "os/exec", "net/http", "context"} {
				if len(has(pkg, io)) > 0 {
					t.Errorf("%s imports %s: it does no I/O", pkg, io)
				}
			}
		case pkg == "store/bucket":
			if len(inModule) > 0 {
				t.Errorf("store/bucket imports %v: the bucket model stands alone", inModule)
			}
			if tui := has(pkg, "github.com/charmbracelet"); len(tui) > 0 {
				t.Errorf("%s imports %v: store never imports the terminal libraries", pkg, tui)
			}
		case pkg == "store" || strings.HasPrefix(pkg, "store/"):
			if tui := has(pkg, "github.com/charmbracelet"); len(tui) > 0 {
				t.Errorf("%s imports %v: store never imports the terminal libraries", pkg, tui)
			}
			for _, up := range []string{"ui", "keymap", "themes"} {
				if len(has(pkg, module+"/"+up)) > 0 {
					t.Errorf("%s imports %s: nothing below points back up", pkg, up)
				}
			}
		case pkg == "ui" || strings.HasPrefix(pkg, "ui/"):
			for _, backend := range []string{module + "/store/mongostore", module + "/store/embedded",
				module + "/store/rediscache", "go.mongodb.org/mongo-driver/v2/mongo", "github.com/redis/go-redis"} {
				if len(has(pkg, backend)) > 0 {
					t.Errorf("%s imports %s: ui reaches storage only through store, and builds no query", pkg, backend)
				}
			}
		}
	}
}

// moduleImports reads the non-test imports of every package of the module,
// keyed by its path below the module ("" is main).
func moduleImports(t *testing.T) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	err := filepath.WalkDir(".", func(path string, d os.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		if name := d.Name(); path != "." && (name == "testdata" || strings.HasPrefix(name, ".")) {
			return filepath.SkipDir
		}
		p, err := build.ImportDir(path, 0)
		if _, none := err.(*build.NoGoError); none {
			return nil
		}
		if err != nil {
			return err
		}
		rel := filepath.ToSlash(path)
		if rel == "." {
			rel = ""
		}
		out[rel] = p.Imports
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
