//go:build race

package uitest

// RaceDetector is true under -race, which slows bucket decoding about
// tenfold: long tests scale down so the suite stays in seconds.
const RaceDetector = true
