package webhook

import "sync"

// tenantSlots counts the jobs each tenant (an installation) has running in
// this process.
type tenantSlots struct {
	mu      sync.Mutex
	running map[string]int
}

// tenantShare is how many workers one tenant may hold: half, rounded up,
// and at least one.
func tenantShare(workers int) int { return max(1, (workers+1)/2) }

// acquire takes one of tenant's limit slots, or reports that it has none
// left.
func (t *tenantSlots) acquire(tenant string, limit int) (release func(), ok bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.running == nil {
		t.running = map[string]int{}
	}
	if t.running[tenant] >= limit {
		return nil, false
	}
	t.running[tenant]++
	return func() {
		t.mu.Lock()
		defer t.mu.Unlock()
		if t.running[tenant]--; t.running[tenant] <= 0 {
			delete(t.running, tenant)
		}
	}, true
}
