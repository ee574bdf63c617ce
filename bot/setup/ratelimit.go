package setup

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
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

// clientAddr is the address a request came from. Behind a trusted proxy
// (its address in trusted) it is the one that proxy says it forwarded
// for: the rightmost X-Forwarded-For entry no trusted proxy added. A
// forwarded header from anyone else is theirs to write, and ignored.
func clientAddr(r *http.Request, trusted []netip.Prefix) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	if addr, err := netip.ParseAddr(host); err != nil || !isTrusted(addr, trusted) {
		return host
	}
	var hops []string
	for _, h := range r.Header.Values("X-Forwarded-For") {
		for _, hop := range strings.Split(h, ",") {
			hops = append(hops, strings.TrimSpace(hop))
		}
	}
	for i := len(hops) - 1; i >= 0; i-- {
		addr, err := netip.ParseAddr(hops[i])
		if err != nil {
			return host // a hop the proxy would not write: the proxy's own address, as without it
		}
		if !isTrusted(addr, trusted) {
			return addr.String()
		}
	}
	return host
}

// isTrusted reports whether addr is one of the trusted proxies'.
func isTrusted(addr netip.Addr, trusted []netip.Prefix) bool {
	addr = addr.Unmap()
	for _, p := range trusted {
		if p.Contains(addr) {
			return true
		}
	}
	return false
}

// ParseTrustedProxies reads PLANPR_TRUSTED_PROXIES: addresses or CIDR
// ranges, separated by commas or spaces.
func ParseTrustedProxies(s string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '\n' }) {
		if p, err := netip.ParsePrefix(f); err == nil {
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(f)
		if err != nil {
			return nil, fmt.Errorf("%q is neither an address nor a CIDR range (10.0.0.0/8, 192.0.2.7)", f)
		}
		out = append(out, netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()))
	}
	return out, nil
}
