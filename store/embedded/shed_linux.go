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
	touched int64 // bytes of the file touched (estimated) since the last look
	looked  int64 // the process's resident file bytes at the last smaps look
}

// shedAbove is the size of the file's resident mapped pages that triggers a
// shed: above a 100,000-message store's file (80 MiB), so reading one of
// those never sheds pages it will read again. lookEvery is how many bytes
// touched pass between two looks at that size: a look reads statm (cheap)
// and, only when every file the process maps is over shedAbove, smaps,
// which walks the page tables of every mapping (milliseconds).
const (
	shedAbove = 96 << 20
	lookEvery = 32 << 20
)

// tick records that about n bytes of the file were touched (a value read or
// written, a key walked: its fault maps 64 KiB around it); every lookEvery
// bytes it looks at how much of path's mappings is resident and, over
// shedAbove, sheds them. Only this file's pages count, so another file the
// process maps (the bench's second store) does not make this one shed.
// Call it while a transaction of path's handle is open: bbolt remaps the
// file only when no read is open, and only in the writer, so the mappings
// found stay the ones madvised.
func (s *pageShedder) tick(path string, n int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.touched += n; s.touched < lookEvery {
		return
	}
	s.touched = 0
	// smaps only when the process's file pages are over the bound and grew
	// since the last look: a reader whose pages are all mapped already (a
	// store under the bound beside a bigger file) never pays for it.
	r := residentFileBytes()
	if r <= shedAbove || r-s.looked < lookEvery {
		return
	}
	s.looked = r
	if eachMapping(path, nil) > shedAbove {
		eachMapping(path, shed)
		s.looked = residentFileBytes()
	}
}

// shed drops the resident pages of one mapping.
func shed(start, end uint64) {
	_, _, _ = syscall.Syscall(syscall.SYS_MADVISE, uintptr(start), uintptr(end-start), syscall.MADV_DONTNEED)
}

// eachMapping calls fn (when not nil) with the address range of every
// mapping of path's file (matched by device and inode, so a renamed path
// still matches) and returns their resident bytes (smaps' Rss).
func eachMapping(path string, fn func(start, end uint64)) int64 {
	fi, err := os.Stat(path)
	if err != nil {
		return 0
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0
	}
	m, err := os.Open("/proc/self/smaps")
	if err != nil {
		return 0
	}
	defer m.Close()
	inode := strconv.FormatUint(st.Ino, 10)
	var resident int64
	in := false // inside the block of a mapping of the file
	sc := bufio.NewScanner(m)
	for sc.Scan() {
		f := bytes.Fields(sc.Bytes())
		if len(f) == 0 {
			continue
		}
		lo, hi, isRange := bytes.Cut(f[0], []byte{'-'})
		if isRange && len(f) >= 5 { // start-end perms offset dev inode [path]
			in = string(f[4]) == inode && sameDevice(f[3], uint64(st.Dev))
			if !in || fn == nil {
				continue
			}
			start, err1 := strconv.ParseUint(string(lo), 16, 64)
			end, err2 := strconv.ParseUint(string(hi), 16, 64)
			if err1 == nil && err2 == nil && end > start {
				fn(start, end)
			}
			continue
		}
		if in && string(f[0]) == "Rss:" && len(f) >= 2 {
			kb, _ := strconv.ParseInt(string(f[1]), 10, 64)
			resident += kb << 10
		}
	}
	return resident
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
