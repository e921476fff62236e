//go:build !linux

package embedded

// pageShedder sheds mapped file pages on Linux only; elsewhere it does
// nothing.
type pageShedder struct{}

func (*pageShedder) touch(string, ...uintptr) {}

func (*pageShedder) touchSparse(string, ...uintptr) {}
