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
	i, bucket int32 // bucket: its bucket's number
	change    tofujson.Change
	keys      []string
}

type queued struct {
	i, bucket int32           // its place among the changes added; its bucket's number
	change    tofujson.Change // values raw: a copy owns them
	keys      []string
	prev      previous // the bucket's change before it, when hasPrev
	hasPrev   bool     // (by value: a pointer would cost an allocation a change)
}

// NewQueue starts a queue.
func NewQueue[B comparable]() *Queue[B] {
	w := &placer{kept: map[int32]keptRead{}}
	return &Queue[B]{w: beside.StartHere(w.place, (&placer{}).place), last: map[B]previous{}}
}

// A placer places changes one at a time. The worker's keeps what it read
// of each bucket's last change (see compared) for the next change of the
// bucket, which is compared with it: each change is read once, not twice.
type placer struct {
	kept map[int32]keptRead // by bucket; nil: nothing kept
	free []*compared
}

// keptRead is what a placer read of a bucket's last change, the i-th.
type keptRead struct {
	i    int32
	read *compared
}

// maxKept bounds what a placer keeps: one change per bucket, most plans
// a few dozen.
const maxKept = 256

func (pl *placer) place(q queued) (Placed, error) {
	c := pl.get()
	read := c.of(&q.change, q.keys)
	alike, strictly := false, false
	if p := pl.previous(q, read); p != nil {
		alike, strictly = follows(c, p)
		pl.put(p)
	}
	if read && pl.kept != nil && len(pl.kept) < maxKept {
		pl.kept[q.bucket] = keptRead{q.i, c}
	} else {
		pl.put(c)
	}
	if alike {
		return Placed{Follows: true, Strictly: strictly}, nil
	}
	return Placed{Shape: Of(&q.change, q.keys)}, nil
}

// previous is what was read of q's previous change, for comparing q with
// (wanted): kept, when it was the last of the bucket placed here, else
// read now; nil when there is none or it cannot be compared.
func (pl *placer) previous(q queued, wanted bool) *compared {
	kept, ok := pl.kept[q.bucket]
	delete(pl.kept, q.bucket)
	switch {
	case ok && wanted && q.hasPrev && kept.i == q.prev.i:
		return kept.read
	case ok: // the change after it was placed on the other goroutine
		pl.put(kept.read)
	}
	if !wanted || !q.hasPrev {
		return nil
	}
	p := pl.get()
	if !p.of(&q.prev.change, q.prev.keys) {
		pl.put(p)
		return nil
	}
	return p
}

func (pl *placer) get() *compared {
	if pl.kept == nil {
		return compareds.Get().(*compared)
	}
	if n := len(pl.free); n > 0 {
		c := pl.free[n-1]
		pl.free = pl.free[:n-1]
		return c
	}
	return new(compared)
}

func (pl *placer) put(c *compared) {
	if pl.kept == nil {
		compareds.Put(c)
		return
	}
	pl.free = append(pl.free, c)
}

// Add shapes a change whose instance keys are keys (see Of), in bucket,
// or queues it; neither its raw values nor keys may change until Wait
// returns.
func (q *Queue[B]) Add(rc *tofujson.ResourceChange, keys []string, bucket B) {
	i := int32(len(q.prevs))
	item := queued{i: i, change: rc.Change, keys: keys}
	p, ok := q.last[bucket]
	if ok {
		item.prev, item.hasPrev = p, true
		q.prevs = append(q.prevs, p.i)
	} else {
		p.bucket = int32(len(q.last))
		q.prevs = append(q.prevs, -1)
	}
	item.bucket = p.bucket
	q.last[bucket] = previous{i, p.bucket, rc.Change, keys}
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
