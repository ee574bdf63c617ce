// Package publishtest holds a sink for tests: it records what a runner
// would publish, so that tests can compare runners by their reports.
package publishtest

import (
	"context"
	"sync"

	"github.com/planpr/planpr/bot/publish"
)

// Recorder is a publish.Sink that keeps every publication, in order.
type Recorder struct {
	mu   sync.Mutex
	pubs []publish.Publication
}

func (r *Recorder) Publish(_ context.Context, pub publish.Publication) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.pubs = append(r.pubs, pub)
	return nil
}

// Publications are the publications so far.
func (r *Recorder) Publications() []publish.Publication {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]publish.Publication(nil), r.pubs...)
}
