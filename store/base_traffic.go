package store

// Traffic is what a backend has asked of its server and read back since it
// was opened: the figures `--stats` prints.
type Traffic struct {
	// Requests are the requests sent: commands on the wire (a find's
	// getMore is one more) on MongoDB, transactions on the embedded store.
	Requests int64
	// BytesRead are the bytes of the answers: the replies on MongoDB, the
	// stored bytes handed out (a cut bucket's slots, not the whole
	// bucket) on the embedded store.
	BytesRead int64
}

// Metered is implemented by backends that count their own traffic, reads
// made through Store.Backend() included.
type Metered interface {
	Traffic() Traffic
}

// Traffic is the backend's traffic so far; ok false when the backend does
// not count it.
func (s *base) Traffic() (t Traffic, ok bool) { return s.backend.Traffic() }
