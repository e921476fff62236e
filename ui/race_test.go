//go:build race

package ui

// raceDetector is true under -race, which slows bucket decoding about
// tenfold: long tests scale down so the suite stays in seconds.
const raceDetector = true
