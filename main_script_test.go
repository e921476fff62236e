package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/chatlens/chatlens/store/recordingtest"
)

// TestScript runs the command-line behaviour scripts in testdata/script:
// exit codes, one-line errors, what goes to stdout and what to stderr.
// Each script runs chatlens as a process in a directory of its own, with
// its own XDG directories, so no script sees the user's store or another
// script's.
//
// Beyond testscript's own commands, a script has:
//
//	exits N cmd args...  runs cmd and wants exit code N (stdout and stderr are kept for the checks after it)
//	errline              wants stderr to be exactly one line, with one "chatlens: " prefix
func TestScript(t *testing.T) {
	t.Parallel()
	recorded := recordingtest.Dir(t, recordingtest.OpenIM)
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		RequireExplicitExec: true,
		Setup: func(env *testscript.Env) error {
			for name, dir := range map[string]string{"XDG_DATA_HOME": "xdg-data", "XDG_STATE_HOME": "xdg-state", "XDG_CONFIG_HOME": "xdg-config"} {
				env.Setenv(name, filepath.Join(env.WorkDir, dir))
			}
			env.Setenv("RECORDED", recorded)
			if raceBuild {
				// A script's chatlens is this test binary, built with the race
				// detector, which waits 1 s at every exit by default for late
				// reports: most of the scripts' time, hundreds of commands.
				env.Setenv("GORACE", strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=100"))
			}
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"openim-standin": openIMStandIn,
			"exits": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) < 2 {
					ts.Fatalf("usage: exits N command [args...]")
				}
				want, err := strconv.Atoi(args[0])
				if err != nil {
					ts.Fatalf("exits: %v", err)
				}
				got := 0
				var exit *exec.ExitError
				if err := ts.Exec(args[1], args[2:]...); errors.As(err, &exit) {
					got = exit.ExitCode()
				} else if err != nil {
					ts.Fatalf("exits: %v", err)
				}
				if got != want {
					ts.Fatalf("%s exited %d, want %d", strings.Join(args[1:], " "), got, want)
				}
			},
			"errline": func(ts *testscript.TestScript, neg bool, args []string) {
				stderr := ts.ReadFile("stderr")
				ok := strings.Count(stderr, "\n") == 1 && strings.HasSuffix(stderr, "\n") &&
					strings.HasPrefix(stderr, "chatlens: ") && strings.Count(stderr, "chatlens:") == 1
				if ok == neg {
					ts.Fatalf("stderr should be one line with one \"chatlens: \" prefix, got %q", stderr)
				}
			},
		},
	})
}
