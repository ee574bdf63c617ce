//go:build linux

package mapping

import (
	"os"
	"sync"
	"syscall"
)

// Map maps f, a regular file, read-only; ok is false when it cannot.
func Map(f *os.File) (m []byte, ok bool) {
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() || st.Size() == 0 || int64(int(st.Size())) != st.Size() {
		return nil, false
	}
	m, err = syscall.Mmap(int(f.Fd()), 0, int(st.Size()), syscall.PROT_READ, syscall.MAP_SHARED)
	return m, err == nil
}

// Unmap unmaps m, which nothing reads any more, once the pages of it
// given back before are (see Drop).
func Unmap(m []byte) { unmapper() <- unmapping{m, true} }

// Drop gives back the pages of m: read again, they come from the
// file (or the page cache) anew.
func Drop(m []byte) {
	if len(m) > 0 {
		unmapper() <- unmapping{m, false}
	}
}

// unmapping is a range given back, or a mapping undone.
type unmapping struct {
	m     []byte
	whole bool
}

// unmapper gives pages back and undoes mappings, in the order asked, on
// a goroutine of its own: each call empties page tables and interrupts
// the other cores to forget them — some 0.3 ms per 4 MB, time the reading
// goroutine, which gives back as it reads, would otherwise spend.
var unmapper = sync.OnceValue(func() chan<- unmapping {
	ch := make(chan unmapping, 64)
	go func() {
		for u := range ch {
			if u.whole {
				syscall.Munmap(u.m)
			} else {
				syscall.Madvise(u.m, syscall.MADV_DONTNEED)
			}
		}
	}()
	return ch
})
