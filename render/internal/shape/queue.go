package shape

import (
	"github.com/planpr/planpr/render/internal/beside"
	"github.com/planpr/planpr/render/tofujson"
)

// A Queue works out changes' shapes beside the read, in the order they
// come (see package beside).
type Queue struct{ w *beside.Worker[queued, Shape] }

type queued struct {
	change tofujson.Change // values raw: a copy owns them
	keys   []string
}

// NewQueue starts a queue.
func NewQueue() *Queue {
	return &Queue{beside.Start(func(q queued) (Shape, error) { return Of(&q.change, q.keys), nil })}
}

// Add shapes a change whose instance keys are keys (see Of), or queues
// it; neither its raw values nor keys may change until Wait returns.
func (q *Queue) Add(rc *tofujson.ResourceChange, keys []string) {
	q.w.Add(queued{rc.Change, keys}) // shaping fails on no change
}

// Wait returns every change's shape, in the order added, or
// tofujson.ErrFileChanged. It is called once.
func (q *Queue) Wait() ([]Shape, error) { return q.w.Wait() }
