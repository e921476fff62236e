package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// configKeys are the context keys of chatlens's command line.
func configKeys(t testing.TB) map[string]contextKey {
	t.Helper()
	parser, _, err := newParser(testProcess(strings.NewReader(""), io.Discard, io.Discard))
	if err != nil {
		t.Fatal(err)
	}
	return contextKeys(parser.Model)
}

// writeConfigFile writes body as a config.yaml and loads it.
func writeConfigFile(t *testing.T, body string) (*configFile, string, error) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := loadConfig(path, configKeys(t))
	return cfg, path, err
}

// oneLineError fails unless err is one line holding every part.
func oneLineError(t *testing.T, err error, parts ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("loaded; want an error saying %q", parts)
	}
	msg := err.Error()
	if strings.Contains(msg, "\n") || len(msg) > 400 {
		t.Errorf("not one short line (%d bytes): %.400s", len(msg), msg)
	}
	for _, p := range parts {
		if !strings.Contains(msg, p) {
			t.Errorf("error %.400q does not say %q", msg, p)
		}
	}
}

// TestConfigOverOneMiBIsRefused: a config file over 1 MiB (a log saved
// over it, a generated file gone wrong) is refused in one line naming the
// file and its size, before it is parsed.
func TestConfigOverOneMiBIsRefused(t *testing.T) {
	t.Parallel()
	body := "contexts:\n  a:\n    data: a.db\n# " + strings.Repeat("x", 1<<20) + "\n"
	_, path, err := writeConfigFile(t, body)
	oneLineError(t, err, path, fmt.Sprintf("%d bytes", len(body)), "at most 1 MiB")

	// At the bound, the file is read.
	body = "contexts:\n  a:\n    data: a.db\n# "
	body += strings.Repeat("x", maxConfigBytes-len(body)-1) + "\n"
	if cfg, _, err := writeConfigFile(t, body); err != nil || len(cfg.names) != 1 {
		t.Fatalf("a file of exactly 1 MiB: %v", err)
	}
}

// TestConfigRefusesASecondDocument: a second YAML document after --- was
// ignored, its contexts silently missing; it is refused with its line.
func TestConfigRefusesASecondDocument(t *testing.T) {
	t.Parallel()
	_, _, err := writeConfigFile(t, "contexts:\n  a:\n    data: a.db\n---\ncontexts:\n  b:\n    data: b.db\n")
	oneLineError(t, err, "line 4", "second YAML document")
	_, _, err = writeConfigFile(t, "---\ncontexts:\n  a:\n    data: a.db\n") // one document, its start marked
	if err != nil {
		t.Errorf("one document after ---: %v", err)
	}
}

// TestConfigRefusesTags: !!binary was taken as a path (its base64 text a
// file name); every explicit tag is refused with its line.
func TestConfigRefusesTags(t *testing.T) {
	t.Parallel()
	for body, line := range map[string]string{
		"contexts:\n  a:\n    data: !!binary L3RtcC94LmRi\n": "line 3",
		"contexts:\n  a:\n    read-only: !!str true\n":       "line 3",
		"current-context: !vault prod\n":                     "line 1",
		"contexts: !!map\n  a:\n    data: a.db\n":            "line 1",
		"contexts:\n  !!str a:\n    data: a.db\n":            "line 2",
	} {
		_, _, err := writeConfigFile(t, body)
		oneLineError(t, err, line, "tag")
	}
}

// TestConfigNamesTheLinesOfATwiceGivenContext: a context given twice is
// refused naming both lines (as quickly as the rest: the file's keys are
// checked once each).
func TestConfigNamesTheLinesOfATwiceGivenContext(t *testing.T) {
	t.Parallel()
	_, _, err := writeConfigFile(t, "contexts:\n  a:\n    data: a.db\n  b:\n  a:\n    data: c.db\n")
	oneLineError(t, err, "line 5", `context "a" is given twice (line 2 too)`)
}

// TestConfigQuotesAHugeNameShort: a context name, a key or a value of
// 100 kB is quoted in its error cut short, with its length.
func TestConfigQuotesAHugeNameShort(t *testing.T) {
	t.Parallel()
	huge := strings.Repeat("q", 100_000)
	for _, body := range []string{
		"contexts:\n  " + huge + ":\n    data: a.db\n",
		"contexts:\n  a:\n    " + huge + ": 1\n",
		"contexts:\n  a:\n    timeout: " + huge + "\n",
		huge + ": 1\n",
		"contexts:\n  a:\n    data: a.db\n\t" + huge + "\n", // a syntax error quoting the line
	} {
		_, _, err := writeConfigFile(t, body)
		oneLineError(t, err)
	}
	cfg, _, err := writeConfigFile(t, "contexts:\n  a:\n    data: a.db\n")
	if err != nil {
		t.Fatal(err)
	}
	_, err = cfg.lookup(huge, "")
	oneLineError(t, err, "unknown context", "(100000 bytes)")
}

// BenchmarkParseConfig parses a file of 20,000 contexts (1.1 MB, over the
// bound loadConfig holds files to; parseConfig itself takes it): its time
// grows with the file, not with its square.
//
//	go test -run '^$' -bench ParseConfig -benchtime 3x .
func BenchmarkParseConfig(b *testing.B) {
	keys := configKeys(b)
	var body strings.Builder
	body.WriteString("contexts:\n")
	for i := range 20_000 {
		fmt.Fprintf(&body, "  c%06d:\n    data: /srv/x%d.db\n    read-only: true\n", i, i)
	}
	for b.Loop() {
		cfg, err := parseConfig("config.yaml", []byte(body.String()), keys)
		if err != nil || len(cfg.names) != 20_000 {
			b.Fatal(err)
		}
	}
}
