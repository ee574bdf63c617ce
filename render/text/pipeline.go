package text

import (
	"bufio"
	"errors"
	"io"
	"runtime"
	"sync"

	"github.com/planpr/planpr/render/review"

	"github.com/planpr/planpr/render/internal/diff"
	"github.com/planpr/planpr/render/tofujson"
)

// heldTextLimit bounds the text a pipeline renders ahead of its output:
// finished resources wait in memory while the first pass is still reading
// (and while the output takes what came before), and the workers pause
// once this much is waiting or being written.
var heldTextLimit = 16 << 20 // a variable so that tests can make it tiny

// textPipeline renders a plan's shown resource changes on every core while
// the first pass is still reading the plan. The pass hands over each
// change's Span as it meets it; workers read the change again on their own,
// values and all, diff and format it. Finished text is put back in
// document order and held until the plan's header has been written (the
// header needs the whole first pass), then streamed.
type textPipeline struct {
	path string
	o    review.PlanOptions
	f    tofujson.Text

	mu   sync.Mutex
	cond *sync.Cond
	wg   sync.WaitGroup

	spans    []tofujson.Span     // from the first pass, in document order
	readDone bool                // no more spans will come
	config   *review.ConfigIndex // needed without schemas; set after the first pass
	// maxAhead bounds how far workers run ahead of the oldest unfinished
	// change, so one huge resource cannot leave the rest piling up.
	maxAhead int

	next    int               // the next span to hand to a worker
	done    map[int]textBatch // finished out of order, by first index
	emitted int               // how many changes' texts went out in order
	held    []*Buf            // texts in order, waiting for the output
	heldLen int
	free    []*Buf    // written out, for workers to fill again
	out     io.Writer // set once the header is written
	writing bool      // some goroutine is writing held texts to out
	err     error
	stopped bool

	closeOnce sync.Once
}

// newTextPipeline starts the workers; they wait for spans.
func newTextPipeline(path string, o review.PlanOptions) (*textPipeline, error) {
	f, err := o.Files.Open(path) // the UTF-8 text the pass reads
	if err != nil {
		return nil, err
	}
	workers := max(1, runtime.GOMAXPROCS(0))
	p := &textPipeline{path: path, o: o, f: f, done: map[int]textBatch{}, maxAhead: 16 * workers}
	p.cond = sync.NewCond(&p.mu)
	for i := range workers {
		p.wg.Add(1)
		// The first pass needs a core of its own: sharing one, it finishes
		// later, and so does the header that the held texts wait for.
		// One worker waits for it to end (unless it is the only one).
		go p.work(i > 0 || workers == 1)
	}
	return p, nil
}

// add queues one shown change; the first pass calls it in document order.
func (p *textPipeline) add(span tofujson.Span) {
	p.mu.Lock()
	p.spans = append(p.spans, span)
	p.mu.Unlock()
	p.cond.Signal()
}

// read ends the first pass: every span is known, and so is the
// configuration that guides rendering without schemas.
func (p *textPipeline) read(config *review.ConfigIndex) {
	p.mu.Lock()
	p.readDone, p.config = true, config
	p.mu.Unlock()
	p.cond.Broadcast()
}

// ready reports whether workers may render: without schemas they need the
// configuration, which only the end of the first pass brings.
func (p *textPipeline) ready() bool { return p.o.Schemas != nil || p.readDone }

// batchSize is how many consecutive changes a worker takes at once: they
// are read from the file together, and the lock is taken less often.
const batchSize = 8

// take waits for changes to render: the spans from index first on and a
// buffer for their text, none when there is no more work. Workers that are
// not early start only once the first pass has ended.
func (p *textPipeline) take(early bool) (first int, spans []tofujson.Span, config *review.ConfigIndex, buf *Buf) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for {
		if p.stopped || p.err != nil {
			return 0, nil, nil, nil
		}
		first = p.next
		for p.ready() && (early || p.readDone) && p.next < len(p.spans) && p.next-first < batchSize && p.next < p.emitted+p.maxAhead &&
			p.heldLen < heldTextLimit {
			p.next++
		}
		if p.next > first {
			if n := len(p.free); n > 0 {
				buf = p.free[n-1]
				p.free = p.free[:n-1]
			} else {
				buf = new(Buf)
			}
			return first, p.spans[first:p.next], p.config, buf
		}
		if p.readDone && p.next >= len(p.spans) {
			return 0, nil, nil, nil
		}
		p.cond.Wait()
	}
}

// work renders changes until none are left.
func (p *textPipeline) work(early bool) {
	defer p.wg.Done()
	cr := tofujson.NewChangeReader(p.path, p.f)
	var rc tofujson.ResourceChange
	var nodes diff.Arena
	nodes.Follow(p.o.Flavor)
	for {
		first, spans, config, buf := p.take(early)
		if len(spans) == 0 {
			return
		}
		// Texts come out at most a quarter longer than their JSON (see
		// SizeHint): one growth for the batch rather than a few.
		buf.Grow(int(spans[len(spans)-1].End-spans[0].Start) * 5 / 4)
		var err error
		for _, span := range spans {
			if err = cr.Read(span, &rc); err != nil {
				break
			}
			if err = writeChangeText(buf, &rc, p.o, config, &nodes); err != nil {
				break
			}
		}
		p.finish(textBatch{first: first, n: len(spans), text: buf}, err)
	}
}

// textBatch is the text of n consecutive changes from index first on, as
// written out. Its buffer is reused once the text is written.
type textBatch struct {
	first, n int
	text     *Buf
}

// finish records a worker's batch, or the error that stopped it, and
// hands whatever is now in order to the output (see drain: this worker
// writes it, or the goroutine already writing does).
func (p *textPipeline) finish(batch textBatch, err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	defer p.cond.Broadcast()
	if err != nil {
		if p.err == nil {
			p.err = err
		}
		return
	}
	p.done[batch.first] = batch
	for {
		b, ok := p.done[p.emitted]
		if !ok {
			break
		}
		delete(p.done, p.emitted)
		p.emitted += b.n
		p.held = append(p.held, b.text)
		p.heldLen += b.text.Len()
	}
	p.drain()
}

// recycle keeps a written buffer for a later batch, unless enough are
// kept or it grew large for one huge resource; p.mu is held.
func (p *textPipeline) recycle(b *Buf) {
	if len(p.free) < 2*p.maxAhead/batchSize && b.Cap() <= maxRecycled {
		b.Reset()
		p.free = append(p.free, b)
	}
}

// maxRecycled is the largest buffer kept for reuse.
const maxRecycled = 1 << 20

// writeTo streams every change's text after what is held, and returns
// once all are written. What w holds is written first; the texts, some
// tens of KB each, then go straight to raw, w's own writer, rather than
// through w's buffer.
func (p *textPipeline) writeTo(w *bufio.Writer, raw io.Writer) error {
	if err := w.Flush(); err != nil {
		return err
	}
	p.mu.Lock()
	if p.stopped {
		p.mu.Unlock()
		return errors.New("render: the prepared plan was closed before it was written")
	}
	p.out = raw
	p.drain()
	p.mu.Unlock()
	p.wg.Wait()
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.err
}

// drain writes the held texts out, once the header is written, unless
// another goroutine is writing them: that one writes what is added
// meanwhile too. It writes without the lock (p.mu, held on entry and on
// return), so that the workers go on rendering and handing over text;
// what waits and what is being written count together against
// heldTextLimit.
func (p *textPipeline) drain() {
	for p.out != nil && !p.writing && len(p.held) > 0 && p.err == nil && !p.stopped {
		p.writing = true
		writing := p.held
		p.held = nil
		p.mu.Unlock()
		written := 0
		var err error
		for _, b := range writing {
			if err == nil {
				_, err = p.out.Write(b.Bytes())
			}
			written += b.Len()
		}
		p.mu.Lock()
		if err != nil && p.err == nil {
			p.err = err // the workers stop: nothing more can be written
		}
		p.writing = false
		p.heldLen -= written
		for _, b := range writing {
			p.recycle(b)
		}
		p.cond.Broadcast()
	}
}

// failed returns the first error a worker met so far.
func (p *textPipeline) failed() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.err
}

// stop ends the workers, writing nothing more; it is safe to call again.
func (p *textPipeline) stop() {
	p.mu.Lock()
	p.stopped = true
	p.held = nil
	p.mu.Unlock()
	p.cond.Broadcast()
	p.wg.Wait()
	p.closeOnce.Do(func() { p.f.Close() })
}
