//go:build unix

package webhook

import (
	"os"
	"syscall"
)

// lockFile holds an exclusive lock on path until the returned func: a
// second process fails at once rather than sharing the SQLite queue. The
// lock goes with the process, however it ends.
func lockFile(path string) (func(), error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		return nil, err
	}
	return func() { f.Close() }, nil
}
