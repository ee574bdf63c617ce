package verify

import (
	"context"
	"sync"
	"time"
)

// requesterKey carries who a verification is for (an App's installation)
// in its context, for the Verifier's per-requester budget.
type requesterKey struct{}

// WithRequester marks ctx as a verification for requester: its requests
// count against the Verifier's RequesterRequests.
func WithRequester(ctx context.Context, requester string) context.Context {
	return context.WithValue(ctx, requesterKey{}, requester)
}

// requesterQuota counts the registry requests of each requester in the
// current hour. It forgets everyone at the end of the hour, so it holds at
// most one hour's requesters.
type requesterQuota struct {
	mu      sync.Mutex
	started time.Time
	used    map[string]int
}

// take counts one request of requester's, or reports that its hour's
// allowance is spent.
func (q *requesterQuota) take(requester string, allowance int) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	if now := time.Now(); now.Sub(q.started) >= time.Hour {
		q.started, q.used = now, map[string]int{}
	}
	if q.used[requester] >= allowance {
		return false
	}
	q.used[requester]++
	return true
}
