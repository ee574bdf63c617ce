//go:build linux

package mapping

import (
	"os"
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

// Unmap unmaps m.
func Unmap(m []byte) { syscall.Munmap(m) }

// Drop gives back the pages of m: read again, they come from the
// file (or the page cache) anew.
func Drop(m []byte) {
	if len(m) > 0 {
		syscall.Madvise(m, syscall.MADV_DONTNEED)
	}
}
