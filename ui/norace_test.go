//go:build !race

package ui

// raceDetector is true under -race (see race_test.go).
const raceDetector = false
