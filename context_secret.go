package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/chatlens/chatlens/store/openimapi"
)

// The OpenIM secret of a context that keeps it outside the config file:
// the value of its openim-secret-env variable, or what its
// openim-secret-cmd prints (pass, a vault's client). The API client asks
// for it when a write first needs the admin token, never before: reading
// needs no secret. A command runs once per run (a switch of context in the
// UI and back does not run it again), within --openim-secret-timeout, in a
// process group of its own that is ended on the timeout, on Ctrl-C and
// when chatlens ends; what it prints beyond maxSecretOutput is refused,
// and its stderr goes nowhere: it may hold anything.

// maxSecretOutput bounds what a secret command may print.
const maxSecretOutput = 64 << 10

// secretSources are a run's secret sources, one per context and command.
type secretSources struct {
	mu sync.Mutex
	by map[string]*secretSource
}

func newSecretSources() *secretSources { return &secretSources{by: map[string]*secretSource{}} }

// secretSource is one context's secret, asked once.
type secretSource struct {
	context  string // the context's name, for messages
	env, cmd string // openim-secret-env or openim-secret-cmd
	timeout  time.Duration
	note     io.Writer // where "waiting for…" is said; nil in the UI, whose status bar says it

	mu      sync.Mutex // held while asking
	asked   atomic.Bool
	value   string
	err     error
	running atomic.Pointer[exec.Cmd] // the command while it runs
}

// secretSource is where the client of --openim-api gets the secret when
// the flag does not give it: the context's variable or command, else
// nothing (a write then says the secret is missing; reading never asks).
func (s *session) secretSource() openimapi.SecretSource {
	c := s.conn
	d := c.deployment
	if !d.hasSecretSource() {
		return noSecret{}
	}
	var note io.Writer
	if s.cmd != "" {
		note = s.stderr // (the UI's screen is its own: its status bar says it)
	}
	src := &secretSource{context: d.name, env: d.secretEnv, cmd: d.secretCmd, timeout: c.OpenIMSecretTimeout, note: note}
	if s.secrets == nil {
		return src
	}
	key := d.name + "\x00" + d.secretEnv + "\x00" + d.secretCmd
	s.secrets.mu.Lock()
	defer s.secrets.mu.Unlock()
	if held, ok := s.secrets.by[key]; ok {
		return held
	}
	s.secrets.by[key] = src
	return src
}

// end ends the process group of every secret command still running: the
// UI may quit while a write waits on one.
func (ss *secretSources) end() {
	if ss == nil {
		return
	}
	ss.mu.Lock()
	defer ss.mu.Unlock()
	for _, src := range ss.by {
		if cmd := src.running.Load(); cmd != nil {
			_ = endGroup(cmd)
		}
	}
}

// errNoSecret is a write through the API with no secret to ask the admin
// token with.
var errNoSecret = usagef("--openim-api needs --openim-secret (or CHATLENS_OPENIM_SECRET, or a context's %s or %s) to write: the admin token is asked with it",
	keySecretEnv, keySecretCmd)

// noSecret is the source of a run given none, and of a dry run.
type noSecret struct{}

func (noSecret) Secret(context.Context) (string, error) { return "", errNoSecret }
func (noSecret) Waiting() string                        { return "" }

// missingSecret is errNoSecret for a scripted write through the API that
// has no secret to ask with: said before anything is attempted.
func (c *connection) missingSecret() error {
	if c.OpenIMAPI == "" || c.ReadOnly || c.OpenIMSecret != "" || c.deployment.hasSecretSource() {
		return nil
	}
	return errNoSecret
}

// Waiting says what the first write waits on: the command, until it has
// been asked.
func (src *secretSource) Waiting() string {
	if src.cmd == "" || src.asked.Load() {
		return ""
	}
	return fmt.Sprintf("waiting for %s of context %s (%s at most)…", keySecretCmd, src.context, src.timeout)
}

// Secret is the secret, asked the first time; what that gave (the value
// or why not) stands for the rest of the run, unless the asking was cut
// short by the caller (a later write may ask again).
func (src *secretSource) Secret(ctx context.Context) (string, error) {
	src.mu.Lock()
	defer src.mu.Unlock()
	if src.asked.Load() {
		return src.value, src.err
	}
	v, err := src.ask(ctx)
	if err != nil && ctx.Err() != nil {
		return "", err
	}
	src.value, src.err = v, err
	src.asked.Store(true)
	return v, err
}

func (src *secretSource) ask(ctx context.Context) (string, error) {
	if src.env != "" {
		v := strings.TrimSpace(os.Getenv(src.env))
		if v == "" {
			return "", usagef("context %s: %s %s is not set: the OpenIM secret is read from it", src.context, keySecretEnv, src.env)
		}
		return v, nil
	}
	if src.note != nil {
		fmt.Fprintln(src.note, "chatlens: "+src.Waiting())
	}
	v, err := src.run(ctx)
	if err != nil {
		return "", fmt.Errorf("context %s: %s %v: the OpenIM secret is not known", src.context, keySecretCmd, err)
	}
	return v, nil
}

// errSecretTimeout is the cause of a secret command's end at its timeout.
var errSecretTimeout = errors.New("timeout")

// run runs the command in a shell, in a process group of its own, and
// returns what it printed, trimmed. Its errors say what happened (the
// exit status, the timeout, the size), never what it wrote to stderr.
func (src *secretSource) run(parent context.Context) (string, error) {
	ctx, cancel := context.WithTimeoutCause(parent, src.timeout, errSecretTimeout)
	defer cancel()
	shell := []string{"sh", "-c"}
	if runtime.GOOS == "windows" {
		shell = []string{"cmd", "/C"}
	}
	cmd := exec.CommandContext(ctx, shell[0], shell[1], src.cmd)
	inOwnGroup(cmd)
	cmd.WaitDelay = time.Second // a child that keeps stdout open does not hold the run
	out := &cappedBuffer{limit: maxSecretOutput, full: cancel}
	cmd.Stdout = out // stdin and stderr: the null device
	err := cmd.Start()
	if err != nil {
		return "", fmt.Errorf("could not start (%v)", err)
	}
	src.running.Store(cmd)
	err = cmd.Wait()
	src.running.Store(nil)
	_ = endGroup(cmd) // what it left running in the background
	switch {
	case out.over:
		return "", fmt.Errorf("printed more than %d KiB", maxSecretOutput>>10)
	case errors.Is(context.Cause(ctx), errSecretTimeout):
		return "", fmt.Errorf("did not finish within %s (--openim-secret-timeout)", src.timeout)
	case parent.Err() != nil:
		return "", fmt.Errorf("was stopped (%v)", context.Cause(parent))
	case errors.Is(err, exec.ErrWaitDelay) && cmd.ProcessState.Success():
	case err != nil && cmd.ProcessState != nil:
		return "", fmt.Errorf("failed (%s)", cmd.ProcessState)
	case err != nil:
		return "", fmt.Errorf("failed (%v)", err)
	}
	v := strings.TrimSpace(out.buf.String())
	if v == "" {
		return "", errors.New("printed nothing")
	}
	return v, nil
}

// cappedBuffer keeps up to limit bytes; more ends the command (full).
type cappedBuffer struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	limit int
	over  bool
	full  func()
}

func (b *cappedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.over || b.buf.Len()+len(p) > b.limit {
		b.over = true
		b.full()
		return 0, errors.New("too much output")
	}
	return b.buf.Write(p)
}

// secretProgram names a secret command by its program, without its
// arguments (which may hold the secret): "pass show x" is "pass …". A
// leading NAME=value is skipped, as the shell does.
func secretProgram(line string) string {
	words := strings.Fields(line)
	for i, w := range words {
		if name, _, ok := strings.Cut(w, "="); ok && name != "" && !strings.ContainsAny(name, `'"$/\`) {
			continue
		}
		program := strings.Trim(w, `'"`)
		if i < len(words)-1 || i > 0 {
			program += " …"
		}
		return program
	}
	return "…"
}
