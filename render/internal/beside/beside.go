// Package beside does a read's per-item work on a goroutine beside it:
// the reading goroutine hands each item over and reads on, and does an
// item itself when the other is behind, so that both cores work and
// neither waits. Items may borrow a mapped plan's memory: a fault while
// the goroutine reads it is an error, not a crash.
package beside

import (
	"github.com/planpr/planpr/render/internal/chunks"
)

// A Worker does items with do, on its goroutine or on the one adding them.
type Worker[T, R any] struct {
	do     func(T) (R, error) // on the worker's goroutine
	here   func(T) (R, error) // on the adding one
	work   chan job[T]
	done   chan struct{}
	added  int
	ours   []job[R]            // done by the adding goroutine
	theirs chunks.List[job[R]] // done by the worker's, read once it is done
	err    error               // the worker goroutine's: a fault, or do's first error
}

// job is an item, or what was made of it, and its place among those added.
type job[T any] struct {
	i    int
	item T
}

// Start starts a worker.
func Start[T, R any](do func(T) (R, error)) *Worker[T, R] { return StartHere(do, do) }

// StartHere starts a worker that does items with do on its goroutine and
// with here on the adding one: do may keep what it made of one item for
// the next, which here, on another goroutine, must not touch.
func StartHere[T, R any](do, here func(T) (R, error)) *Worker[T, R] {
	w := &Worker[T, R]{do: do, here: here, work: make(chan job[T], 64), done: make(chan struct{})}
	go w.run()
	return w
}

func (w *Worker[T, R]) run() {
	defer close(w.done)
	for j := range w.work {
		if w.err != nil {
			continue // the read fails: the rest is not looked at
		}
		r, err := w.do(j.item)
		if err != nil {
			w.err = err
			continue
		}
		w.theirs.Add(job[R]{j.i, r})
	}
}

// Add hands item to the worker's goroutine or, when it is behind, does
// it here and returns do's error. What item borrows must stay until Wait
// returns.
func (w *Worker[T, R]) Add(item T) error {
	i := w.added
	w.added++
	select {
	case w.work <- job[T]{i, item}:
		return nil
	default:
	}
	r, err := w.here(item)
	w.ours = append(w.ours, job[R]{i, r})
	return err
}

// Wait returns what was made of every item, in the order added, or the
// worker goroutine's error (tofujson.ErrFileChanged for a fault). It is
// called once, after the last Add.
func (w *Worker[T, R]) Wait() ([]R, error) {
	close(w.work)
	<-w.done
	out := make([]R, w.added)
	for _, j := range w.ours {
		out[j.i] = j.item
	}
	for i := range w.theirs.Len() {
		j := w.theirs.At(i)
		out[j.i] = j.item
	}
	return out, w.err
}
