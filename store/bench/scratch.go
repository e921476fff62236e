package bench

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// scratchPrefix names the embedded bench's scratch directories; ownerFile,
// inside one, holds the process ID of the bench that made it.
const (
	scratchPrefix = "chatlens-bench-"
	ownerFile     = "owner.pid"
)

// newScratchDir makes a scratch directory under tmp ("" = the system's)
// owned by this process, after removing the ones a killed bench (SIGKILL,
// a power cut) left behind: gigabytes no one else would remove.
func newScratchDir(tmp string) (string, error) {
	removeAbandoned(tmp)
	dir, err := os.MkdirTemp(tmp, scratchPrefix)
	if err != nil {
		return "", err
	}
	pid := []byte(strconv.Itoa(os.Getpid()))
	if err := os.WriteFile(filepath.Join(dir, ownerFile), pid, 0o600); err != nil {
		_ = os.RemoveAll(dir)
		return "", err
	}
	return dir, nil
}

// removeAbandoned removes the scratch directories under tmp whose owner
// process has ended. One without an owner file, or whose owner may still
// run (or cannot be asked), is left alone.
func removeAbandoned(tmp string) {
	if tmp == "" {
		tmp = os.TempDir()
	}
	dirs, _ := filepath.Glob(filepath.Join(tmp, scratchPrefix+"*"))
	for _, dir := range dirs {
		b, err := os.ReadFile(filepath.Join(dir, ownerFile))
		if err != nil {
			continue
		}
		pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
		if err == nil && pid > 0 && pid != os.Getpid() && ended(pid) {
			_ = os.RemoveAll(dir)
		}
	}
}

// ended tells whether no process has the ID pid.
func ended(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false // Windows: cannot tell, keep the directory
	}
	err = p.Signal(syscall.Signal(0))
	return errors.Is(err, os.ErrProcessDone) || errors.Is(err, syscall.ESRCH)
}
