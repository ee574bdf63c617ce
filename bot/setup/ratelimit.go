package setup

import (
	"net"
	"net/http"
	"sync"
	"time"
)

// clientLimiter allows each client a number of requests per window. It
// forgets every client at the end of each window, so it holds at most the
// clients of one window, and those are capped: past maxClients new
// clients are refused until the window ends rather than growing it.
type clientLimiter struct {
	mu      sync.Mutex
	per     int
	window  time.Duration
	started time.Time
	counts  map[string]int
}

const maxClients = 10000

func newClientLimiter(per int, window time.Duration) *clientLimiter {
	return &clientLimiter{per: per, window: window, counts: map[string]int{}}
}

// allow counts a request of client and reports whether it is within its
// allowance.
func (l *clientLimiter) allow(client string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := time.Now()
	if now.Sub(l.started) >= l.window {
		l.started, l.counts = now, map[string]int{}
	}
	n, known := l.counts[client]
	if !known && len(l.counts) >= maxClients || n >= l.per {
		return false
	}
	l.counts[client] = n + 1
	return true
}

// clientAddr is the address a request came from (the proxy's, behind
// one: forwarded headers are anyone's to write).
func clientAddr(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}
