package mongotest

import (
	"os"
	"runtime/debug"
	"sync"
)

// lessGC runs once per process, on the first Start.
var lessGC sync.Once

// collectLessOften raises the collector's target to 400% unless GOGC is set.
// The in-process FerretDB decodes every stored document from JSON on every
// read, so a test binary running it spent about a third of its CPU
// collecting that garbage; a few tens of MB more heap cut it by a quarter.
func collectLessOften() {
	lessGC.Do(func() {
		if os.Getenv("GOGC") == "" {
			debug.SetGCPercent(400)
		}
	})
}
