//go:build !unix

package main

import "os/exec"

// inOwnGroup leaves cmd as it is: without process groups, the command's
// context kills the command itself.
func inOwnGroup(*exec.Cmd) {}

// endGroup kills cmd.
func endGroup(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	return cmd.Process.Kill()
}
