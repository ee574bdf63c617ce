package shape

import (
	"github.com/planpr/planpr/render/internal/beside"
	"github.com/planpr/planpr/render/tofujson"
)

// A Queue works out changes' shapes beside the read, in the order they
// come (see package beside). Changes come in buckets, those that can only
// be alike one another (one resource, one action): each change is
// compared with the one before it in its bucket (see Follows), and hashed
// (see Of) when that cannot tell.
type Queue[B comparable] struct {
	w     *beside.Worker[queued, Placed]
	last  map[B]previous
	prevs []int32 // each change's previous in its bucket, or -1
}

// Placed is a change's shape as a Queue works it out.
type Placed struct {
	// Shape is Of's, but for a change that Follows: its Loose is that of
	// the previous change in its bucket, and its Strict is not worked out.
	Shape
	// Follows says that the change is alike the previous change of its
	// bucket at the loose strength; Strictly, that it is strictly too.
	Follows, Strictly bool
}

// previous is the last change added to a bucket, and its place.
type previous struct {
	i      int32
	change tofujson.Change
	keys   []string
}

type queued struct {
	change  tofujson.Change // values raw: a copy owns them
	keys    []string
	prev    previous // the bucket's change before it, when hasPrev
	hasPrev bool     // (by value: a pointer would cost an allocation a change)
}

// NewQueue starts a queue.
func NewQueue[B comparable]() *Queue[B] {
	return &Queue[B]{w: beside.Start(place), last: map[B]previous{}}
}

func place(q queued) (Placed, error) {
	if q.hasPrev {
		if alike, strictly := Follows(&q.change, &q.prev.change, q.keys, q.prev.keys); alike {
			return Placed{Follows: true, Strictly: strictly}, nil
		}
	}
	return Placed{Shape: Of(&q.change, q.keys)}, nil
}

// Add shapes a change whose instance keys are keys (see Of), in bucket,
// or queues it; neither its raw values nor keys may change until Wait
// returns.
func (q *Queue[B]) Add(rc *tofujson.ResourceChange, keys []string, bucket B) {
	item := queued{change: rc.Change, keys: keys}
	i := int32(len(q.prevs))
	if p, ok := q.last[bucket]; ok {
		item.prev, item.hasPrev = p, true
		q.prevs = append(q.prevs, p.i)
	} else {
		q.prevs = append(q.prevs, -1)
	}
	q.last[bucket] = previous{i, rc.Change, keys}
	q.w.Add(item) // shaping fails on no change
}

// Wait returns every change's shape, in the order added, or
// tofujson.ErrFileChanged. It is called once.
func (q *Queue[B]) Wait() ([]Placed, error) {
	out, err := q.w.Wait()
	for i, p := range q.prevs {
		if out[i].Follows {
			out[i].Loose = out[p].Loose
		}
	}
	return out, err
}
