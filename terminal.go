package main

import (
	"os"
	"runtime"

	"github.com/charmbracelet/x/term"
)

// needTerminal refuses to start the UI where there is no terminal to draw
// on and read keys from (a script, cron, a CI job), before the store is
// opened or seeded: Bubble Tea reads keys from standard input when it is a
// terminal, else from the controlling terminal, /dev/tty.
func needTerminal(stdin *os.File) error {
	if term.IsTerminal(stdin.Fd()) || runtime.GOOS == "windows" {
		return nil // (Windows: Bubble Tea opens the console, CONIN$, itself)
	}
	tty, err := os.Open("/dev/tty")
	if err != nil {
		return usagef("the UI needs a terminal, and this process has none; for scripts, chatlens dump and chatlens conversations print to standard output")
	}
	return tty.Close()
}
