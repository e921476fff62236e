// Package recordingtest hands tests the recorded runs chatlens is held to,
// each a folder of files as it was recorded:
//
//   - OpenIM: the real OpenIM Server's scenario (its collections, what it
//     pulled to each user, its Redis keys, every API answer);
//   - OpenIMTimed: its timed scenario (what each user was pulled, phase by
//     phase);
//   - OpenIMTimed2: a second timed scenario (clears, physical deletes, a
//     quit, a kick, an invite);
//   - Engine: a MongoDB-compatible engine's explain answers.
//
// Each folder's README.md says what it holds. They travel with the
// repository as one compressed archive, testdata/recordings.tar.gz, built
// into the test binary, so every clone runs the tests that read them. A
// newer recording replaces the archive; from the folder holding the four:
//
//	tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner --mode=a+rX,u+w \
//	    -cf - openim-recorded openim-recorded-timed engine-recorded openim-recorded-timed2 | gzip -n -9 >recordings.tar.gz
//
// Import it only from _test.go files.
package recordingtest

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"sync"
	"testing"
)

// The recordings, by folder name.
const (
	OpenIM       = "openim-recorded"
	OpenIMTimed  = "openim-recorded-timed"
	OpenIMTimed2 = "openim-recorded-timed2"
	Engine       = "engine-recorded"
)

//go:embed testdata/recordings.tar.gz
var archive []byte

// written is, for each running test and recording, the folder Dir wrote.
var written sync.Map // key -> string

type key struct {
	t    testing.TB
	name string
}

// Dir is a folder holding the recording name's files, in the test's
// temporary directory: written on the test's first call, the same folder
// on later ones. A test may change the files; no other test sees them.
func Dir(t testing.TB, name string) string {
	t.Helper()
	k := key{t, name}
	if dir, ok := written.Load(k); ok {
		return dir.(string)
	}
	dir := filepath.Join(t.TempDir(), name)
	if err := extract(dir, name); err != nil {
		t.Fatalf("recording %s: %v", name, err)
	}
	written.Store(k, dir)
	t.Cleanup(func() { written.Delete(k) })
	return dir
}

// extract writes the archive's files under name/ into dir.
func extract(dir, name string) error {
	zr, err := gzip.NewReader(bytes.NewReader(archive))
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	tr := tar.NewReader(zr)
	files := 0
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
		folder, file := path.Split(h.Name)
		if h.Typeflag != tar.TypeReg || folder != name+"/" {
			continue
		}
		f, err := os.OpenFile(filepath.Join(dir, file), os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
		if err != nil {
			return err
		}
		_, err = io.Copy(f, tr)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
		files++
	}
	if files == 0 {
		return fmt.Errorf("no such recording in testdata/recordings.tar.gz")
	}
	return nil
}
