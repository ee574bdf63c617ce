package mapping

import (
	"errors"
	"runtime/debug"
)

// ErrFileChanged is what Guard returns when a mapped file's memory faults.
var ErrFileChanged = errors.New("the file changed while planpr read it (was it cut short?)")

// Guard runs f, which reads a mapped file — the reader itself, or a
// goroutine handed values borrowed from it — on the calling goroutine.
// Memory that the file no longer has (cut short while mapped) faults:
// Guard makes that ErrFileChanged rather than a crash.
func Guard(f func()) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			if _, fault := r.(interface{ Addr() uintptr }); !fault {
				panic(r)
			}
			err = ErrFileChanged
		}
	}()
	f()
	return nil
}
