//go:build linux

package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/demo"
)

// Process tests of one embedded store shared by a UI left open and
// commands run from another terminal: real processes on one file.

// terminal is a pseudo-terminal a UI process runs on: what the UI draws is
// kept (escape sequences and all), and its questions to the terminal
// (background colour, cursor position) are answered as a terminal would.
type terminal struct {
	master *os.File
	mu     sync.Mutex
	screen bytes.Buffer
	seen   chan struct{} // pulsed whenever output arrives
}

func ioctl(fd uintptr, req uintptr, arg unsafe.Pointer) error {
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, fd, req, uintptr(arg)); e != 0 {
		return e
	}
	return nil
}

// openTerminal opens a pty pair of 100x30 cells; the caller hands the
// second file to the process as its terminal.
func openTerminal(t *testing.T) (*terminal, *os.File) {
	t.Helper()
	master, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	var unlock int32
	var n uint32
	if err := ioctl(master.Fd(), syscall.TIOCSPTLCK, unsafe.Pointer(&unlock)); err != nil {
		t.Fatal(err)
	}
	if err := ioctl(master.Fd(), syscall.TIOCGPTN, unsafe.Pointer(&n)); err != nil {
		t.Fatal(err)
	}
	slave, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	size := struct{ rows, cols, x, y uint16 }{30, 100, 0, 0}
	if err := ioctl(slave.Fd(), syscall.TIOCSWINSZ, unsafe.Pointer(&size)); err != nil {
		t.Fatal(err)
	}
	term := &terminal{master: master, seen: make(chan struct{}, 1)}
	go term.read()
	t.Cleanup(func() { master.Close() })
	return term, slave
}

// read keeps what the UI draws and answers its terminal queries.
func (term *terminal) read() {
	buf := make([]byte, 4096)
	for {
		n, err := term.master.Read(buf)
		if n > 0 {
			chunk := buf[:n]
			if bytes.Contains(chunk, []byte("\x1b]11;?")) {
				_, _ = term.master.WriteString("\x1b]11;rgb:0000/0000/0000\x1b\\")
			}
			if bytes.Contains(chunk, []byte("\x1b[6n")) {
				_, _ = term.master.WriteString("\x1b[1;1R")
			}
			term.mu.Lock()
			term.screen.Write(chunk)
			term.mu.Unlock()
			select {
			case term.seen <- struct{}{}:
			default:
			}
		}
		if err != nil {
			return
		}
	}
}

// since returns what was drawn after the first from bytes.
func (term *terminal) since(from int) string {
	term.mu.Lock()
	defer term.mu.Unlock()
	return term.screen.String()[min(from, term.screen.Len()):]
}

func (term *terminal) drawn() int {
	term.mu.Lock()
	defer term.mu.Unlock()
	return term.screen.Len()
}

// waitFor waits until the UI has drawn want after the first from bytes.
// The guard only stops a broken build from hanging the suite.
func (term *terminal) waitFor(t *testing.T, from int, want string) {
	t.Helper()
	guard := time.After(30 * time.Second)
	for !strings.Contains(term.since(from), want) {
		select {
		case <-term.seen:
		case <-guard:
			t.Fatalf("the UI never drew %q; it drew:\n%q", want, term.since(0))
		}
	}
}

// startUI runs the chatlens UI on s as viewer, on a terminal, and returns
// once it has drawn its conversation list (so it has the store open).
func startUI(t *testing.T, s sandbox, viewer, listed string) (*terminal, *exec.Cmd) {
	t.Helper()
	return startUIWith(t, s, listed, "--as", viewer)
}

// startUIWith is startUI with the UI's flags given.
func startUIWith(t *testing.T, s sandbox, listed string, flags ...string) (*terminal, *exec.Cmd) {
	t.Helper()
	return startUIEnv(t, s, nil, listed, flags...)
}

// startUIEnv is startUIWith with extra environment.
func startUIEnv(t *testing.T, s sandbox, env []string, listed string, flags ...string) (*terminal, *exec.Cmd) {
	t.Helper()
	term, tty := openTerminal(t)
	args := append([]string{"--data", s.data, "--audit-log", s.audit, "--theme", "dark"}, flags...)
	cmd := exec.Command(chatlensBinary(t), args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
	cmd.Env = append(append(os.Environ(), "TERM=xterm-256color"), env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	tty.Close()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	term.waitFor(t, 0, listed)
	return term, cmd
}

// runProcess runs a chatlens command as its own process.
func runProcess(t *testing.T, s sandbox, args ...string) result {
	t.Helper()
	full := append([]string{args[0], "--data", s.data, "--audit-log", s.audit}, args[1:]...)
	cmd := exec.Command(chatlensBinary(t), full...)
	var out, errs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errs
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return result{code, out.String(), errs.String()}
}

// A UI left open on the embedded store does not lock other processes
// out: a dump and a revoke run from another terminal succeed while it is
// open, and the UI, reading the conversation afterwards, shows the revoke
// the other process made.
func TestOpenUISharesTheStore(t *testing.T) {
	t.Parallel()
	s := seeded(t)
	cid := demo.ShowcaseSingleID
	st := s.stored(t)
	seq, sender := newestPlain(t, st, cid) // on screen when the chat opens
	_ = st.Close(t.Context())

	term, ui := startUI(t, s, "alice", "Bob")

	r := runProcess(t, s, "dump", "--conversation", cid, "--as", "alice", "--format", "json", "--to", fmt.Sprint(seq))
	if r.code != 0 || strings.Count(r.stdout, "\n") == 0 {
		t.Fatalf("dump while the UI is open: exit %d: %s", r.code, r.stderr)
	}
	r = runProcess(t, s, "revoke", "--conversation", cid, "--seq", fmt.Sprint(seq), "--by", sender)
	if r.code != 0 {
		t.Fatalf("revoke while the UI is open: exit %d: %s", r.code, r.stderr)
	}
	if ui.ProcessState != nil {
		t.Fatalf("the UI exited: %v", ui.ProcessState)
	}

	for _, key := range []struct{ send, drawn string }{
		// The list as alice's app orders it: pinned, then newest first.
		{"j", "▸ @ 王芳"}, {"j", "▸ @ Bob Müller"}, {"\r", "revoked by"}} {
		from := term.drawn()
		_, _ = term.master.WriteString(key.send)
		term.waitFor(t, from, key.drawn)
	}
}

// newestPlain is the newest message of cid nobody revoked or deleted,
// and its sender.
func newestPlain(t *testing.T, st *store.Store, cid string) (int64, string) {
	t.Helper()
	var seq int64
	var sender string
	for n, s := range slotsOf(t, st, cid, 150) {
		if n > seq && !s.IsHole() && s.Slot.Revoke == nil && len(s.Slot.DelList) == 0 && s.Slot.Msg.MsgFrom == bucket.MsgFromUser {
			seq, sender = n, s.Slot.Msg.SendID
		}
	}
	if seq == 0 {
		t.Fatalf("no plain message in %s", cid)
	}
	return seq, sender
}
