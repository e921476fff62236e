package model

import (
	"flag"
	"os"
	"testing"
)

// TestMain runs the property tests over thousands of generated cases
// unless -rapid.checks says otherwise; fewer under the race detector,
// which slows each case about tenfold.
func TestMain(m *testing.M) {
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "rapid.checks" })
	if _, env := os.LookupEnv("RAPID_CHECKS"); !set && !env {
		checks := "5000"
		if raceOn {
			checks = "1000"
		}
		if err := flag.Set("rapid.checks", checks); err != nil {
			panic(err)
		}
	}
	os.Exit(m.Run())
}
