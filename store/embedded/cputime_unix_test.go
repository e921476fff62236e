//go:build unix

package embedded

import "syscall"

// processCPU is the CPU time this process has used, in nanoseconds: a
// benchmark figure that other processes on a busy machine do not inflate.
func processCPU() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
