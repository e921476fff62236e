//go:build !race

package uitest

// RaceDetector is true under -race (see race.go).
const RaceDetector = false
