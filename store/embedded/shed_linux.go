package embedded

import (
	"bufio"
	"bytes"
	"os"
	"strconv"
	"sync"
	"syscall"
)

// pageShedder keeps the store file's pages mapped into this process from
// growing by more than shedAbove. bbolt reads through a shared read-only
// mapping of the whole file, and the kernel maps neighbouring cached pages
// on every fault (fault-around), so one walk over a conversation's keys,
// or a seed that rewrites every bucket it appends to, leaves most of the
// file resident in this process: hundreds of MiB of VmHWM for pages it
// will not touch again. Dropping them (madvise MADV_DONTNEED) only unmaps
// them: the data stays in the page cache, and a later read maps it back.
type pageShedder struct {
	mu      sync.Mutex
	touched int64 // bytes of the file mapped (estimated) since the last shed
	// windows are the fault-around windows (address / faultAround) that
	// touch counted since the last shed: a read touching them again maps
	// nothing new, so it adds nothing. Counting bytes read instead (a
	// bucket's 80 KB, a fault per transaction) shed a store smaller than
	// the bound over and over: a bench's writes of a 100,000-message store
	// counted past 96 MiB, and every read after faulted its pages in again.
	// A remap (or a shared handle's new mapping) may put the file anywhere,
	// the same addresses too: either way what it maps was touched, and so
	// counted, since the last shed.
	windows map[uintptr]struct{}
	sheds   int // how many times it shed, for tests
}

// shedAbove is how many bytes of the file may be touched between two
// sheds: above a 100,000-message store's file (80 MiB), so one bench phase
// over such a store rarely loses pages it reads again.
const shedAbove = 96 << 20

// touch records that the bytes at addrs (pointers into the file's mapping,
// from values a transaction of path's handle returned, called inside it)
// were read: a fault's worth for each fault-around window not touched
// since the last shed. Every shedAbove bytes so counted, it sheds path's
// mappings unless the process maps little of any file (statm). Counting
// costs a map lookup per window: looking at how much of this one file is
// mapped (smaps) walks the page tables and took milliseconds, enough to
// slow the bench's random reads by a third. Call it while a transaction
// of path's handle is open: bbolt remaps the file only when no read is
// open, and only in the writer, so the mappings found stay the ones
// madvised.
func (s *pageShedder) touch(path string, addrs ...uintptr) {
	s.touchUpTo(path, shedAbove, addrs...)
}

// sparseShedAbove is shedAbove for reads that pick a little out of each
// of thousands of buckets spread over the file (a conversation list's
// newest slots): each fault maps a window of pages of which one slot is
// read, and no read is likely to come back to them soon.
const sparseShedAbove = 24 << 20

// touchSparse is touch for such reads: it sheds every sparseShedAbove.
func (s *pageShedder) touchSparse(path string, addrs ...uintptr) {
	s.touchUpTo(path, sparseShedAbove, addrs...)
}

// touchUpTo is touch, shedding every bound bytes.
func (s *pageShedder) touchUpTo(path string, bound int64, addrs ...uintptr) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.windows == nil {
		s.windows = make(map[uintptr]struct{})
	}
	for _, a := range addrs {
		w := a / faultAround
		if _, ok := s.windows[w]; !ok {
			s.windows[w] = struct{}{}
			s.touched += faultAround
		}
	}
	s.shedIfDue(path, bound)
}

// shedIfDue sheds path's mappings every bound bytes touched; s.mu held.
func (s *pageShedder) shedIfDue(path string, bound int64) {
	if s.touched < bound {
		return
	}
	s.touched = 0
	clear(s.windows)
	if residentFileBytes() > bound {
		s.sheds++
		shedMappings(path)
	}
}

// shedMappings drops the resident pages of every mapping of path's file
// (matched by device and inode in /proc/self/maps, so a renamed path still
// matches).
func shedMappings(path string) {
	fi, err := os.Stat(path)
	if err != nil {
		return
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return
	}
	m, err := os.Open("/proc/self/maps")
	if err != nil {
		return
	}
	defer m.Close()
	inode := strconv.FormatUint(st.Ino, 10)
	sc := bufio.NewScanner(m)
	for sc.Scan() {
		// start-end perms offset dev inode path
		f := bytes.Fields(sc.Bytes())
		if len(f) < 6 || string(f[4]) != inode || !sameDevice(f[3], uint64(st.Dev)) {
			continue
		}
		lo, hi, ok := bytes.Cut(f[0], []byte{'-'})
		if !ok {
			continue
		}
		start, err1 := strconv.ParseUint(string(lo), 16, 64)
		end, err2 := strconv.ParseUint(string(hi), 16, 64)
		if err1 != nil || err2 != nil || end <= start {
			continue
		}
		_, _, _ = syscall.Syscall(syscall.SYS_MADVISE, uintptr(start), uintptr(end-start), syscall.MADV_DONTNEED)
	}
}

// residentFileBytes is RssFile of this process (statm's third field counts
// file and shared memory pages), 0 when unknown.
func residentFileBytes() int64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	f := bytes.Fields(b)
	if len(f) < 3 {
		return 0
	}
	pages, _ := strconv.ParseInt(string(f[2]), 10, 64)
	return pages * int64(os.Getpagesize())
}

// sameDevice compares a maps device field ("major:minor" in hex) with dev.
func sameDevice(field []byte, dev uint64) bool {
	maj, mnr, ok := bytes.Cut(field, []byte{':'})
	if !ok {
		return false
	}
	a, err1 := strconv.ParseUint(string(maj), 16, 64)
	b, err2 := strconv.ParseUint(string(mnr), 16, 64)
	// Linux's encoding of dev_t (new_encode_dev's inverse).
	wantMaj := (dev >> 8) & 0xfff
	wantMin := (dev & 0xff) | ((dev >> 12) & 0xfff00)
	return err1 == nil && err2 == nil && a == wantMaj && b == wantMin
}
