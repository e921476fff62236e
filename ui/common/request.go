package common

// ReqID is the number of an async request. Every read and write runs in a
// tea.Cmd, off the UI goroutine, and one rule matches every reply to its
// request, whatever the command (list, buckets, members, window, jump,
// search, find, diff scan, follow, write, first viewer):
//
//   - whoever starts the command takes a fresh number from Common.NewReq and
//     stores it where it waits (the list, the timeline, the search...);
//   - the command puts the number in its reply;
//   - the handler compares the reply's number with the stored one and drops
//     the reply when they differ; a newer request simply stores a newer
//     number, so a late reply for something the user left never lands.
//
// Requests that share a fate may share a number: every bucket read of one
// view of the timeline carries the view's number, every step of one search
// or diff scan the scan's. Zero is never handed out, so a waiter that stores
// 0 waits for nothing. Only two replies carry no number, since nothing waits
// on them to change what is shown: the connection (there is only ever one)
// and a copy's report (each copy reports its own outcome).
type ReqID uint64

// NewReq is a request number no request has had (see ReqID). One counter
// for the whole program, so a reopened conversation, a new viewer or a new
// search never reuses a number. Only Update calls it, so it needs no lock.
func (e *Common) NewReq() ReqID {
	e.lastReq++
	return e.lastReq
}
