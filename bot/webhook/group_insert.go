package webhook

import (
	"context"
	"sync"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
)

// groupInsert commits deliveries together: the first to arrive inserts,
// in one transaction, every delivery that arrived while the one before
// was being written (group commit). A burst costs a few transactions, not
// one each, and each delivery is still answered only once it is
// committed.
type groupInsert struct {
	mu      sync.Mutex
	pending []*insertReq
	running bool
}

type insertReq struct {
	params river.InsertManyParams
	res    *rivertype.JobInsertResult
	err    error
	done   chan struct{}
}

// maxGroup bounds one transaction's deliveries.
const maxGroup = 256

// insert commits one job, with the others waiting.
func (g *groupInsert) insert(ctx context.Context, client riverClient, args river.JobArgs, opts *river.InsertOpts) (*rivertype.JobInsertResult, error) {
	req := &insertReq{params: river.InsertManyParams{Args: args, InsertOpts: opts}, done: make(chan struct{})}
	g.mu.Lock()
	g.pending = append(g.pending, req)
	if g.running {
		g.mu.Unlock()
		select {
		case <-req.done:
			return req.res, req.err
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	g.running = true
	for {
		batch := g.pending[:min(len(g.pending), maxGroup)]
		g.pending = g.pending[len(batch):]
		g.mu.Unlock()
		g.commit(client, batch)
		g.mu.Lock()
		if len(g.pending) == 0 {
			g.running = false
			g.mu.Unlock()
			break
		}
	}
	return req.res, req.err
}

// commit writes a batch in one transaction; should that fail, each
// delivery alone, so that one bad delivery does not fail the others. The
// batch belongs to many requests: none's context ends it.
func (g *groupInsert) commit(client riverClient, batch []*insertReq) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	params := make([]river.InsertManyParams, len(batch))
	for i, r := range batch {
		params[i] = r.params
	}
	results, err := client.InsertMany(ctx, params)
	if err == nil && len(results) == len(batch) {
		for i, r := range batch {
			r.res = results[i]
			close(r.done)
		}
		return
	}
	for _, r := range batch {
		r.res, r.err = client.Insert(ctx, r.params.Args, r.params.InsertOpts)
		close(r.done)
	}
}
