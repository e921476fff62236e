//go:build unix

package main

import (
	"os/exec"
	"syscall"
)

// inOwnGroup starts cmd in a process group of its own, ended whole when
// its context is done: a shell's children with it.
func inOwnGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return endGroup(cmd) }
}

// endGroup kills cmd's process group.
func endGroup(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
}
