package demo

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/embedded"
)

// seedChildEnv names the store a child process seeds, then waits to be killed.
const seedChildEnv = "CHATLENS_TEST_SEED_CHILD"

// TestSeedIsDurableWhenItReturns seeds in a real process opened as
// `chatlens seed` opens the store (NoSync: commits grouped, synced once),
// kills it with SIGKILL the moment Seed returns, before any Close, and
// finds every document of an in-process seed in the file it left.
func TestSeedIsDurableWhenItReturns(t *testing.T) {
	if path := os.Getenv(seedChildEnv); path != "" {
		seedThenWait(path)
		return
	}
	path := filepath.Join(t.TempDir(), "killed.db")
	cmd := exec.Command(os.Args[0], "-test.run", "^TestSeedIsDurableWhenItReturns$")
	cmd.Env = append(os.Environ(), seedChildEnv+"="+path)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	if err != nil || line != "seeded\n" {
		t.Fatalf("child said %q (%v), want it to report the seed done", line, err)
	}

	b, err := embedded.Open(path, embedded.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	killed := store.New(b, store.Options{})
	defer killed.Close(context.Background())
	want, _ := seedInto(t, tiny)
	got, exp := dump(t, killed), dump(t, want)
	for _, coll := range bucket.Collections {
		if len(got[coll]) != len(exp[coll]) {
			t.Fatalf("%s: %d documents in the killed seed's store, %d in a finished one", coll, len(got[coll]), len(exp[coll]))
		}
		for i := range got[coll] {
			if !bytes.Equal(got[coll][i], exp[coll][i]) {
				t.Fatalf("%s document %d differs from a finished seed's", coll, i)
			}
		}
	}
}

// seedThenWait is the child: seed, say so, and hang until killed.
func seedThenWait(path string) {
	b, err := embedded.Open(path, embedded.Options{NoSync: true})
	if err != nil {
		fmt.Println(err)
		os.Exit(1)
	}
	if _, err := Seed(context.Background(), store.New(b, store.Options{}), tiny, nil); err != nil {
		fmt.Println(err)
		os.Exit(1)
	}
	fmt.Println("seeded")
	time.Sleep(time.Hour)
}
