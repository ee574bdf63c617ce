package verify

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"syscall"
	"time"
)

// PublicRegistries are the registries verification contacts without being
// told to: a lock file naming any other host is not checked unless the
// operator allows that host (a --registry override or the allow list).
var PublicRegistries = []string{"registry.opentofu.org", "registry.terraform.io"}

// errClass is why a registry request failed, as a person reads it. The
// transport's own words (addresses, resolvers, TLS details) never reach a
// comment: they would tell a pull request's author what is listening where.
type errClass int

const (
	classUnreachable errClass = iota + 1
	classTimeout
	classForbidden // an address planpr may not contact
	classStatus
	classBadAnswer
	classTooLarge
	classBudget
	classQuota
)

var classSentence = map[errClass]string{
	classUnreachable: "the registry could not be reached",
	classTimeout:     "the registry did not answer in time",
	classForbidden:   "the registry's address is not one planpr may contact",
	classStatus:      "the registry refused the request",
	classBadAnswer:   "the registry's answer is not what the provider registry protocol says",
	classTooLarge:    "the registry's answer is larger than planpr reads",
	classBudget:      "this review's budget of registry requests is spent",
	classQuota:       "this installation's hourly budget of registry requests is spent",
}

// requestError is a failed registry request: the class goes in the
// comment, the detail only in the debug log.
type requestError struct {
	class  errClass
	status int
	detail string
}

func (e *requestError) Error() string {
	s := classSentence[e.class]
	if e.status != 0 {
		s += fmt.Sprintf(" (HTTP %d)", e.status)
	}
	return s
}

// errForbiddenAddress is what the dialer answers for an address outside
// what planpr may contact.
var errForbiddenAddress = errors.New("address not allowed")

// forbiddenAddress reports whether ip is one a registry found through a
// lock file may not be at: loopback, private, link-local, unspecified,
// multicast, shared (CGNAT) and the IPv4-mapped forms of them.
func forbiddenAddress(ip netip.Addr) bool {
	ip = ip.Unmap()
	return !ip.IsValid() || ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast() ||
		ip.IsInterfaceLocalMulticast() || ip.IsMulticast() || ip.IsUnspecified() || sharedAddressSpace.Contains(ip) ||
		ip.Is4() && ip.As4()[0] == 0
}

var sharedAddressSpace = netip.MustParsePrefix("100.64.0.0/10")

// egress is the one HTTP client of registry verification: it dials only
// public addresses (checked on the address it connects to, after DNS, so a
// name that resolves to 127.0.0.1 is refused too) except for hosts the
// operator configured, and follows redirects only to https.
type egress struct {
	trusted map[string]bool // host[:port] the operator named: may be private
	client  *http.Client
}

func newEgress(trusted map[string]bool, requestTimeout time.Duration, roots *x509.CertPool) *egress {
	e := &egress{trusted: trusted}
	guarded := &net.Dialer{Timeout: 10 * time.Second, Control: func(network, address string, _ syscall.RawConn) error {
		ap, err := netip.ParseAddrPort(address)
		if err != nil || forbiddenAddress(ap.Addr()) {
			return errForbiddenAddress
		}
		return nil
	}}
	open := &net.Dialer{Timeout: 10 * time.Second}
	transport := &http.Transport{
		Proxy: nil, // a proxy would dial for us, past the address check
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			if e.trusted[strings.ToLower(addr)] || e.trusted[strings.ToLower(hostOnly(addr))] {
				return open.DialContext(ctx, network, addr)
			}
			return guarded.DialContext(ctx, network, addr)
		},
		TLSHandshakeTimeout:   10 * time.Second,
		ResponseHeaderTimeout: requestTimeout,
		MaxIdleConnsPerHost:   4,
		IdleConnTimeout:       30 * time.Second,
		ForceAttemptHTTP2:     true,
	}
	if roots != nil {
		transport.TLSClientConfig = &tls.Config{RootCAs: roots}
	}
	e.client = &http.Client{Transport: transport, Timeout: requestTimeout, CheckRedirect: e.checkRedirect}
	return e
}

func hostOnly(hostport string) string {
	h, _, err := net.SplitHostPort(hostport)
	if err != nil {
		return hostport
	}
	return h
}

// noRedirects marks a request whose answer must come from the URL asked:
// the protocol's JSON documents (discovery, versions, download) are
// answered where they are asked; files (checksums, packages) may be
// redirected to where they are stored.
type noRedirects struct{}

func (e *egress) checkRedirect(req *http.Request, via []*http.Request) error {
	if req.Context().Value(noRedirects{}) != nil {
		return &requestError{class: classBadAnswer, detail: "redirected: " + req.URL.Redacted()}
	}
	if len(via) >= 5 {
		return &requestError{class: classBadAnswer, detail: "more than 5 redirects"}
	}
	if req.URL.Scheme != "https" && !e.trusted[strings.ToLower(req.URL.Host)] {
		return &requestError{class: classForbidden, detail: "redirect to " + req.URL.Scheme + ": " + req.URL.Redacted()}
	}
	return nil
}

// classify turns a transport error into its class, keeping the detail for
// the debug log.
func classify(err error) *requestError {
	var re *requestError
	if errors.As(err, &re) {
		return re
	}
	detail := err.Error()
	switch {
	case errors.Is(err, errForbiddenAddress):
		return &requestError{class: classForbidden, detail: detail}
	case errors.Is(err, context.DeadlineExceeded), isTimeout(err):
		return &requestError{class: classTimeout, detail: detail}
	}
	return &requestError{class: classUnreachable, detail: detail}
}

func isTimeout(err error) bool {
	var ue *url.Error
	if errors.As(err, &ue) && ue.Timeout() {
		return true
	}
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}
