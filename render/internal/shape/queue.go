package shape

import "github.com/planpr/planpr/render/tofujson"

// A Queue works out changes' shapes on its own goroutine while the plan
// is read, in the order they come; when it falls behind, the reading
// goroutine shapes the next change itself rather than wait.
type Queue struct {
	work   chan queued
	done   chan []result
	shapes []Shape // each change's, those shaped by the reader so far
	err    error   // the goroutine's (see tofujson.Guard)
}

type queued struct {
	i      int             // the change's place among those added
	change tofujson.Change // values raw: a copy owns them
	keys   []string
}

type result struct {
	i     int
	shape Shape
}

// NewQueue starts a queue.
func NewQueue() *Queue {
	q := &Queue{work: make(chan queued, 32), done: make(chan []result, 1)}
	go func() {
		var shapes []result
		// Raw values may be borrowed from a mapped plan, which faults if
		// the file is cut short meanwhile: an error, then, not a crash.
		q.err = tofujson.Guard(func() {
			for w := range q.work {
				shapes = append(shapes, result{w.i, Of(&w.change, w.keys)})
			}
		})
		for range q.work { // what is still queued is not read: the read fails
		}
		q.done <- shapes
	}()
	return q
}

// Add shapes a change whose instance keys are keys (see Of), or queues
// it; neither its raw values nor keys may change until Wait returns.
func (q *Queue) Add(rc *tofujson.ResourceChange, keys []string) {
	i := len(q.shapes)
	q.shapes = append(q.shapes, Shape{})
	select {
	case q.work <- queued{i: i, change: rc.Change, keys: keys}:
	default:
		q.shapes[i] = Of(&rc.Change, keys)
	}
}

// Wait returns every change's shape, in the order added, or
// tofujson.ErrFileChanged. It is called once.
func (q *Queue) Wait() ([]Shape, error) {
	close(q.work)
	for _, d := range <-q.done {
		q.shapes[d.i] = d.shape
	}
	return q.shapes, q.err
}
