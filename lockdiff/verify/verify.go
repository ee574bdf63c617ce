package verify

import (
	"context"
	"crypto/x509"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/planpr/planpr/lockdiff"
)

// Defaults of a Verifier's budgets: what one review may ask of registries.
const (
	DefaultMaxRequests       = 60
	DefaultRequesterRequests = 1000
	DefaultVerifyTimeout     = 30 * time.Second
	DefaultRequestTimeout    = 10 * time.Second
	DefaultMaxPackage        = 512 << 20
)

// Verifier checks lock files' new hashes against the registries' signed
// checksums (the provider registry protocol, which OpenTofu's and
// Terraform's registries both speak). It contacts only the public
// registries, the hosts of Registries and the hosts of AllowHosts; every
// request of one Verify call counts against MaxRequests and Timeout, so a
// pull request's lock file cannot make planpr ask anything of anyone, nor
// hold it for long.
type Verifier struct {
	// Registries maps a registry host to its providers.v1 base URL,
	// instead of service discovery (mirrors, private registries, tests).
	// The operator names these: they may be private addresses.
	Registries map[string]string
	// AllowHosts are registry hosts besides the public ones whose
	// providers are verified through service discovery; they too may be
	// private addresses.
	AllowHosts []string
	// CacheDir keeps what registries' signatures proved, by registry,
	// provider and version: a second verification asks nothing. "" keeps
	// nothing. A directory others may write is not used.
	CacheDir  string
	Platforms []string // wanted platforms (default lockdiff.DefaultPlatforms)
	// Full downloads each platform's package to check h1: hashes too.
	Full bool

	MaxRequests int // requests one Verify call may make (default DefaultMaxRequests)
	// RequesterRequests bounds the requests of one requester (see
	// WithRequester: the App's installations) in an hour (default
	// DefaultRequesterRequests).
	RequesterRequests int
	Timeout           time.Duration // how long one Verify call may take (default DefaultVerifyTimeout)
	RequestTimeout    time.Duration // one request (default DefaultRequestTimeout)
	MaxPackage        int64         // Full: the largest package downloaded (default DefaultMaxPackage)
	RootCAs           *x509.CertPool
	// Logger receives, at debug level, what the transport said of a
	// failed request: it never goes in a comment.
	Logger *slog.Logger

	requests atomic.Int64
	once     sync.Once
	net      *egress
	cache    *answerCache
	quota    requesterQuota
	mu       sync.Mutex
	bases    map[string]string
}

// Requests counts the HTTP requests made so far.
func (v *Verifier) Requests() int64 { return v.requests.Load() }

func (v *Verifier) init() {
	v.once.Do(func() {
		trusted := map[string]bool{}
		for host, base := range v.Registries {
			trusted[strings.ToLower(host)] = true
			if u, err := parseHTTPURL(base); err == nil {
				trusted[strings.ToLower(u.Host)] = true
			}
		}
		for _, h := range v.AllowHosts {
			trusted[strings.ToLower(h)] = true
		}
		if v.Logger == nil {
			v.Logger = slog.New(slog.DiscardHandler)
		}
		v.net = newEgress(trusted, cmpPositive(v.RequestTimeout, DefaultRequestTimeout), v.RootCAs)
		v.cache = openAnswerCache(v.CacheDir, v.Logger)
	})
}

func cmpPositive[T int | int64 | time.Duration](v, def T) T {
	if v <= 0 {
		return def
	}
	return v
}

// allowed reports whether a lock file's registry host may be contacted.
func (v *Verifier) allowed(host string) bool {
	host = strings.ToLower(host)
	if slices.Contains(PublicRegistries, host) {
		return true
	}
	if _, ok := v.Registries[host]; ok {
		return true
	}
	return slices.ContainsFunc(v.AllowHosts, func(h string) bool { return strings.EqualFold(h, host) })
}

// Verify checks every provider version a diff adds or changes, sets its
// Verification, and adds its findings: alerts for hashes the registry did
// not sign, a warning naming what could not be checked (never an error:
// the review goes on, within the Verifier's budgets).
func (v *Verifier) Verify(ctx context.Context, files []*lockdiff.FileDiff) {
	v.init()
	ctx, cancel := context.WithTimeout(ctx, cmpPositive(v.Timeout, DefaultVerifyTimeout))
	defer cancel()
	run := &verifyRun{v: v, left: cmpPositive(v.MaxRequests, DefaultMaxRequests)}
	done := map[string]*answer{}
	for _, fd := range files {
		// What could not be checked for one reason is said once for all
		// the providers it affects, in the order they come.
		var reasons []string
		unchecked := map[string][]string{}
		for _, d := range fd.Providers {
			if d.After == nil || d.Change == lockdiff.Removed || d.Change == lockdiff.Unchanged || d.Change == lockdiff.Changed && len(d.HashesAdded) == 0 {
				continue
			}
			var ver *lockdiff.Verification
			if !v.allowed(d.Address.Host) {
				reason := fmt.Sprintf("planpr contacts only %s and the registries its operator allows (`--registry`, `PLANPR_VERIFY_HOSTS`), and %s is not one of them",
					strings.Join(PublicRegistries, " and "), d.Address.Host)
				ver = &lockdiff.Verification{Status: "unchecked", Reason: reason, Message: fmt.Sprintf("%s %s is not checked: %s.", d.Address, d.After.RawVersion, reason)}
			} else {
				key := d.Address.String() + " " + d.After.RawVersion
				ans, ok := done[key]
				if !ok {
					ans = run.fetch(ctx, d.Address, d.After.RawVersion)
					done[key] = ans
				}
				ver = run.check(ctx, ans, d)
			}
			d.Verification = ver
			if ver.Reason != "" {
				if _, ok := unchecked[ver.Reason]; !ok {
					reasons = append(reasons, ver.Reason)
				}
				unchecked[ver.Reason] = append(unchecked[ver.Reason], fmt.Sprintf("%s %s", d.Address.Short(), d.After.RawVersion))
				continue
			}
			if ver.Status == "verified" {
				vouched(d)
			}
			sev := lockdiff.Info
			switch ver.Status {
			case "alert":
				sev = lockdiff.Alert
			case "unchecked":
				sev = lockdiff.Warning // visible: never a silent pass
			}
			d.Findings = append(d.Findings, lockdiff.Finding{Kind: "verify-" + ver.Status, Severity: sev, Message: ver.Message})
			if len(ver.Missing) > 0 && ver.Status != "alert" {
				d.Findings = append(d.Findings, lockdiff.Finding{Kind: "platforms-missing", Severity: lockdiff.Warning, Message: fmt.Sprintf(
					"The lock for %s %s has no hashes for %s: `tofu init` there will fail to verify the package; run %s and commit the result.",
					d.Address, d.After.RawVersion, strings.Join(ver.Missing, ", "), lockdiff.LockCommand(cmpPlatforms(v.Platforms), d.Address))})
			}
		}
		for _, reason := range reasons {
			names := unchecked[reason]
			fd.Findings = append(fd.Findings, lockdiff.Finding{Kind: "verify-unchecked", Severity: lockdiff.Warning, Message: fmt.Sprintf(
				"Not checked against the registry (%s): %s; %s.", strings.Join(names, ", "), reason, sayNotChecked(len(names)))})
		}
	}
}

// vouched makes the alerts of hashes added to an unchanged version info:
// the registry vouched for every hash of the lock.
func vouched(d *lockdiff.ProviderDiff) {
	for i, f := range d.Findings {
		if f.Severity == lockdiff.Alert && slices.Contains(lockdiff.HashesAddedKinds, f.Kind) {
			d.Findings[i].Severity = lockdiff.Info
			d.Findings[i].Message = strings.Replace(f.Message, lockdiff.UnverifiedAddition, "The registry vouches for every hash of this lock (verified below).", 1)
		}
	}
}

func sayNotChecked(n int) string {
	if n == 1 {
		return "its hashes are as the pull request wrote them"
	}
	return "their hashes are as the pull request wrote them"
}

// verifyRun is one Verify call: its request budget.
type verifyRun struct {
	v    *Verifier
	left int
	down map[string]*requestError // registry hosts that did not answer
}

// check compares a lock's hashes with what the registry's signature
// proved. A hash the review cannot check leaves the provider unchecked,
// never verified; a hash added to an unchanged version that the registry
// does not vouch for is an alert — OpenTofu accepts a package matching any
// hash of the lock, so such a hash lets a tampered package in.
func (r *verifyRun) check(ctx context.Context, a *answer, d *lockdiff.ProviderDiff) *lockdiff.Verification {
	name := fmt.Sprintf("%s %s", d.Address, d.After.RawVersion)
	switch {
	case a.err != nil:
		r.v.Logger.Debug("registry verification failed", "provider", name, "reason", a.err.Error(), "detail", a.err.detail)
		return &lockdiff.Verification{Status: "unchecked", Reason: a.err.Error(), Message: fmt.Sprintf("%s is not checked: %s.", name, a.err)}
	case a.Unknown:
		return &lockdiff.Verification{Status: "alert", Message: fmt.Sprintf("The registry does not know %s: no published release has these hashes.", name)}
	case a.alert != "":
		return &lockdiff.Verification{Status: "alert", Message: fmt.Sprintf("%s: %s.", name, a.alert)}
	}
	ver := &lockdiff.Verification{SignedBy: a.KeyID, KeyOwner: a.KeyOwner}
	var alerts, notChecked []string
	covered := map[string]bool{}
	addedToSameVersion := func(h string) bool { return d.Change == lockdiff.Changed && slices.Contains(d.HashesAdded, h) }
	zh, h1, h1Matched := 0, 0, 0
	var h1Unknown []string
	registryH1 := map[string]string{}
	for p, hs := range a.Packages {
		registryH1[hs[1]] = p
	}
	for _, h := range d.After.Hashes {
		switch {
		case strings.HasPrefix(h, "zh:"):
			zh++
			file, ok := a.Sums[strings.TrimPrefix(h, "zh:")]
			if !ok {
				alerts = append(alerts, fmt.Sprintf("`%s` is not a checksum the registry signed", short(h)))
				continue
			}
			if p := platformOf(file); p != "" {
				covered[p] = true
			}
		case strings.HasPrefix(h, "h1:"):
			h1++
			if p, ok := registryH1[h]; ok {
				covered[p] = true
				h1Matched++
			} else {
				h1Unknown = append(h1Unknown, h)
			}
		default:
			notChecked = append(notChecked, fmt.Sprintf("`%s` is of a scheme planpr does not check", short(h)))
		}
	}
	h1How := "the packages the registry publishes"
	if len(h1Unknown) > 0 && len(a.Packages) > 0 {
		for _, h := range h1Unknown {
			alerts = append(alerts, fmt.Sprintf("`%s` is not the h1: hash of any package the registry publishes", short(h)))
		}
		h1Unknown = nil
	}
	if len(h1Unknown) > 0 && r.v.Full {
		computed, problem := r.hashPackages(ctx, a, covered)
		if problem != "" {
			notChecked = append(notChecked, problem)
		} else {
			h1How = "the packages downloaded and checked against the signed checksums"
			for _, h := range h1Unknown {
				if computed[h] {
					h1Matched++
				} else {
					alerts = append(alerts, fmt.Sprintf("`%s` is not the h1: hash of any package the registry signed", short(h)))
				}
			}
			h1Unknown = nil
		}
	}
	for _, h := range h1Unknown {
		if addedToSameVersion(h) {
			alerts = append(alerts, fmt.Sprintf("`%s` was added to a version the lock already had, and the registry does not vouch for it (it publishes no h1: hashes; `--verify=full` downloads the packages to check)", short(h)))
		} else {
			notChecked = append(notChecked, fmt.Sprintf("`%s` (the registry publishes no h1: hashes; `--verify=full` downloads the packages to check them)", short(h)))
		}
	}
	for p := range covered {
		ver.Platforms = append(ver.Platforms, p)
	}
	slices.Sort(ver.Platforms)
	for _, p := range cmpPlatforms(r.v.Platforms) {
		if !covered[p] {
			ver.Missing = append(ver.Missing, p)
		}
	}
	// What was checked, and how: said the same whether or not it was all.
	var checked []string
	if zh > 0 {
		checked = append(checked, fmt.Sprintf("%s in the SHA256SUMS signed by %s", count(zh, "`zh:` hash is", "`zh:` hashes are"), a.signer()))
	}
	if h1Matched > 0 {
		checked = append(checked, fmt.Sprintf("%s %s", count(h1Matched, "`h1:` hash matches", "`h1:` hashes match"), h1How))
	}
	switch {
	case len(alerts) > 0:
		ver.Status = "alert"
		ver.Message = fmt.Sprintf("%s: %s.", name, strings.Join(alerts, "; "))
	case len(notChecked) > 0 || len(checked) == 0:
		ver.Status = "unchecked"
		if len(checked) == 0 {
			checked = []string{"no hash could be checked"}
		}
		ver.Message = fmt.Sprintf("%s is not verified: %s; not checked: %s.", name, strings.Join(checked, ", "), strings.Join(notChecked, "; "))
	default:
		ver.Status = "verified"
		ver.Message = fmt.Sprintf("✓ %s: every hash checked — %s (platforms %s).", name, strings.Join(checked, "; "), strings.Join(ver.Platforms, ", "))
	}
	return ver
}

// count says n things, singular or plural.
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

func cmpPlatforms(p []string) []string {
	if len(p) == 0 {
		return lockdiff.DefaultPlatforms
	}
	return p
}

func short(h string) string {
	if len(h) > 20 {
		return h[:20] + "…"
	}
	return h
}
