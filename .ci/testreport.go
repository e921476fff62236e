// Command testreport reads `go test -json` on stdin and prints what plain
// `go test` prints (each package's ok or FAIL line, build errors, the whole
// output of every failed test), then every skipped test with its reason,
// which plain `go test` leaves out. It exits 1 when a test or a package
// failed, or when it read no test events at all.
//
//	go test -json ./... | go run .ci/testreport.go
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
)

type event struct {
	Action     string
	Package    string
	ImportPath string // build-output, build-fail
	Test       string
	Output     string
	Elapsed    float64 // seconds, on pass and fail
}

// slowest is how many of the slowest top-level tests are listed: where the
// time of `go test ./...` goes.
const slowest = 12

func main() {
	type key struct{ pkg, test string }
	held := map[key][]string{} // output of each test (and each package, test "") still running
	var skips []string
	type timed struct {
		name    string
		seconds float64
	}
	var times []timed
	events, failed := 0, false
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 64<<20)
	for in.Scan() {
		var e event
		if err := json.Unmarshal(in.Bytes(), &e); err != nil {
			fmt.Println(in.Text()) // not an event: pass it on
			continue
		}
		events++
		k := key{e.Package, e.Test}
		switch e.Action {
		case "build-output":
			fmt.Print(e.Output)
		case "build-fail":
			failed = true
		case "output":
			held[k] = append(held[k], e.Output)
		case "fail":
			failed = true
			if e.Test == "" { // a crash or a timeout: what its tests said before it
				for t, lines := range held {
					if t.pkg == e.Package && t.test != "" {
						printRun(lines)
						delete(held, t)
					}
				}
			}
			printRun(held[k])
			delete(held, k)
		case "pass", "skip":
			if e.Action == "pass" && e.Test != "" && !strings.Contains(e.Test, "/") {
				times = append(times, timed{e.Package + " " + e.Test, e.Elapsed})
			}
			if e.Test == "" { // the package's own summary: ok, "no test files"
				for _, line := range held[k] {
					if strings.HasPrefix(line, "ok") || strings.HasPrefix(line, "?") {
						fmt.Print(line)
					}
				}
			} else if e.Action == "skip" {
				var why []string
				for _, line := range held[k] {
					if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "=== ") && !strings.HasPrefix(line, "--- ") {
						why = append(why, line)
					}
				}
				skips = append(skips, fmt.Sprintf("%s %s: %s", e.Package, e.Test, strings.Join(why, " / ")))
			}
			delete(held, k)
		}
	}
	if err := in.Err(); err != nil {
		fmt.Fprintln(os.Stderr, "testreport:", err)
		os.Exit(1)
	}
	sort.Slice(times, func(i, j int) bool { return times[i].seconds > times[j].seconds })
	fmt.Printf("slowest tests (parallel ones overlap):\n")
	for _, t := range times[:min(slowest, len(times))] {
		fmt.Printf("  %7.1fs %s\n", t.seconds, t.name)
	}
	fmt.Printf("%d skipped:\n", len(skips))
	for _, s := range skips {
		fmt.Println("  SKIP", s)
	}
	if events == 0 {
		fmt.Fprintln(os.Stderr, "testreport: no test events on stdin")
		os.Exit(1)
	}
	if failed {
		os.Exit(1)
	}
}

// printRun prints a test's output as plain `go test` does, without the
// lines -json adds (=== RUN, PAUSE, CONT).
func printRun(lines []string) {
	for _, line := range lines {
		if !strings.HasPrefix(line, "=== ") {
			fmt.Print(line)
		}
	}
}
