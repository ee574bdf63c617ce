package review

import (
	"context"
	"errors"
	"sync/atomic"

	"github.com/planpr/planpr/render/tofujson"
)

// A changePipe visits a plan's changes on a goroutine of its own, in the
// order read, a batch at a time, so that what a review does with each
// change (its summary, counts, sensitive work, the comment's notes) is
// not the reading goroutine's: the read is the comment's longest path, and
// the other core has time while it goes on. It keeps a few batches at
// most, so that memory does not grow with the plan while the visits lag.
type changePipe struct {
	path   string
	visit  func(*tofujson.ResourceChange) error
	full   chan []tofujson.ResourceChange
	free   chan []tofujson.ResourceChange
	batch  []tofujson.ResourceChange
	done   chan struct{}
	failed atomic.Bool // err is set
	err    error
}

// pipeBatch is how many changes go over at once: a hand-over costs about
// what visiting a change does.
const pipeBatch = 32

func startChangePipe(path string, visit func(*tofujson.ResourceChange) error) *changePipe {
	p := &changePipe{path: path, visit: visit, full: make(chan []tofujson.ResourceChange, 4),
		free: make(chan []tofujson.ResourceChange, 6), done: make(chan struct{})}
	go p.run()
	return p
}

// add hands over a copy of rc (which the reader reuses) or, once the
// visits have failed, returns their error: the read stops there.
func (p *changePipe) add(rc *tofujson.ResourceChange) error {
	if p.failed.Load() {
		return p.err
	}
	if p.batch == nil {
		select {
		case b := <-p.free:
			p.batch = b[:0]
		default:
			p.batch = make([]tofujson.ResourceChange, 0, pipeBatch)
		}
	}
	if p.batch = append(p.batch, *rc); len(p.batch) == pipeBatch {
		p.full <- p.batch
		p.batch = nil
	}
	return nil
}

// close hands over the last changes, waits for every visit and returns
// the first error.
func (p *changePipe) close() error {
	if len(p.batch) > 0 {
		p.full <- p.batch
		p.batch = nil
	}
	close(p.full)
	<-p.done
	return p.err
}

// located is a visit's error as the read says it when it calls the
// visitor itself: at the end of the change, where the reader then is.
func (p *changePipe) located(err error, rc *tofujson.ResourceChange) error {
	var ie *tofujson.InputError
	if errors.As(err, &ie) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return tofujson.ErrorAt(p.path, rc.Span.End, err.Error())
}

func (p *changePipe) run() {
	defer close(p.done)
	for b := range p.full {
		for i := range b {
			if p.failed.Load() {
				break
			}
			if err := p.visit(&b[i]); err != nil {
				p.err = p.located(err, &b[i])
				p.failed.Store(true)
			}
		}
		select {
		case p.free <- b:
		default:
		}
	}
}
