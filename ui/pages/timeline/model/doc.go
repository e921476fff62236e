// Package model is the timeline's data half, without Bubble Tea and without
// I/O: what is known of the open conversation's buckets, the rows they make
// for the viewer, where the cursor is, what a key does to it, and what must
// be read next.
//
// Keys go in with Press and replies with Land; both return the reads the
// model wants, which the page runs and lands in any order. A key that needs
// a row not read yet waits in the model's queue, and so does every key
// pressed after it, so a burst of keys means exactly what its presses mean
// one by one, whenever and in whatever order the reads land.
package model

// The types behind the one queue, each to its job: Model takes the keys
// and the replies; planner (ask.go, trim.go) decides what to read next and
// what to let go of; Rows (view.go) answers what the rows read are, for
// drawing; Know takes what the page read elsewhere; Compare (compare.go)
// is the compare view's second side and the differences scanned;
// searching (search.go) the search's hits, read a step at a time, which
// n, N and the landing of / wait on; jumps.go and grow.go the keys typed
// at ':' and follow's new messages.
