package main

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/netip"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/planpr/planpr/bot/publish"
	"github.com/planpr/planpr/bot/setup"
	"github.com/planpr/planpr/lockdiff"
	"github.com/planpr/planpr/lockdiff/verify"
	"github.com/planpr/planpr/render/report"
)

// serveConfig is `planpr serve`'s environment, read and checked once,
// before anything starts: every bad variable is named, with what it
// accepts, in one error.
type serveConfig struct {
	DataDir     string
	Listen      string
	DatabaseURL string
	Workers     int
	MaxAttempts int
	Redeliver   time.Duration // 0: the default; negative: never
	Verify      *verify.Verifier
	Platforms   []string // PLANPR_PLATFORMS
	// MetricsListen is PLANPR_METRICS_LISTEN: /metrics on its own address.
	MetricsListen string
	FailOn        report.FailOn
	CommentMode   publish.CommentMode
	// Creds are the App's, from PLANPR_* or the data directory; HaveApp
	// is false when neither has them and /setup is served first.
	Creds   setup.AppCredentials
	HaveApp bool
	// TrustedProxies is PLANPR_TRUSTED_PROXIES: the proxies whose
	// X-Forwarded-For /setup believes.
	TrustedProxies []netip.Prefix
}

// envReader reads variables, keeping a problem for each bad one.
type envReader struct {
	getenv   func(string) string
	problems []string
}

func (r *envReader) bad(name, value, want string) {
	r.problems = append(r.problems, fmt.Sprintf("%s=%q: %s", name, value, want))
}

// intIn reads a whole number from lo to hi, def when unset.
func (r *envReader) intIn(name string, def, lo, hi int) int {
	v := strings.TrimSpace(r.getenv(name))
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < lo || n > hi {
		r.bad(name, v, fmt.Sprintf("want a whole number from %d to %d", lo, hi))
		return def
	}
	return n
}

// address checks a listening address: HOST:PORT or :PORT, a port from 0
// to 65535 and a host that resolves, as net.Listen will want it.
func (r *envReader) address(name, v, example string) {
	if _, port, err := net.SplitHostPort(v); err != nil || port == "" {
		r.bad(name, v, "want HOST:PORT or :PORT, such as "+example)
		return
	}
	if _, err := net.ResolveTCPAddr("tcp", v); err != nil {
		r.bad(name, v, fmt.Sprintf("not an address planpr can listen on (%v): want HOST:PORT or :PORT, such as %s", errors.Unwrap(err), example))
	}
}

// url checks an http(s) URL, when the variable is set.
func (r *envReader) url(name, example string) {
	v := strings.TrimSpace(r.getenv(name))
	if v == "" {
		return
	}
	u, err := url.Parse(v)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		r.bad(name, redactedURL(v), "want an http(s) URL, such as "+example)
	}
}

func (r *envReader) err() error {
	if len(r.problems) == 0 {
		return nil
	}
	return errors.New("planpr serve is misconfigured:\n  " + strings.Join(r.problems, "\n  ") + "\nsee 'planpr serve --help'")
}

// readServeConfig reads and checks serve's variables.
func readServeConfig(getenv func(string) string) (*serveConfig, error) {
	r := &envReader{getenv: getenv}
	c := &serveConfig{
		DataDir:     cmp.Or(getenv("PLANPR_DATA_DIR"), "planpr-data"),
		Listen:      cmp.Or(getenv("PLANPR_LISTEN"), ":8080"),
		DatabaseURL: getenv("PLANPR_DATABASE_URL"),
		Workers:     r.intIn("PLANPR_WORKERS", 4, 1, 256),
		MaxAttempts: r.intIn("PLANPR_MAX_ATTEMPTS", 8, 1, 100),
	}
	if u := c.DatabaseURL; u != "" && !strings.HasPrefix(u, "postgres://") && !strings.HasPrefix(u, "postgresql://") {
		r.bad("PLANPR_DATABASE_URL", redactedScheme(u), "want a postgres:// URL — postgres://USER@HOST:5432/DB, the password after USER: or in PGPASSWORD (only PostgreSQL is supported)")
	}
	var err error
	switch m := getenv("PLANPR_COMMENT_MODE"); m {
	case "", "update", "changes-only":
		c.CommentMode = publish.CommentMode(cmp.Or(m, "update"))
	default:
		r.bad("PLANPR_COMMENT_MODE", m, "want update or changes-only")
	}
	if c.Redeliver, err = redeliverEvery(getenv("PLANPR_REDELIVER_EVERY")); err != nil {
		r.problems = append(r.problems, err.Error())
	}
	if c.Verify, err = serveVerifier(getenv, c.DataDir); err != nil {
		r.problems = append(r.problems, err.Error())
	}
	r.address("PLANPR_LISTEN", c.Listen, ":8080")
	if c.MetricsListen = getenv("PLANPR_METRICS_LISTEN"); c.MetricsListen != "" {
		r.address("PLANPR_METRICS_LISTEN", c.MetricsListen, ":9090")
	}
	for name, example := range map[string]string{"GITHUB_API_URL": "https://HOST/api/v3", "GITHUB_GRAPHQL_URL": "https://HOST/api/graphql",
		"GITHUB_SERVER_URL": "https://HOST", "PLANPR_PUBLIC_URL": "https://planpr.example.com"} {
		r.url(name, example)
	}
	if c.FailOn, err = report.ParseFailOn(getenv("PLANPR_FAIL_ON")); err != nil {
		r.problems = append(r.problems, "PLANPR_FAIL_ON: "+err.Error())
	}
	if c.Platforms, err = lockdiff.ParsePlatforms(getenv("PLANPR_PLATFORMS")); err != nil {
		r.problems = append(r.problems, "PLANPR_PLATFORMS: "+err.Error())
	} else if c.Verify != nil {
		c.Verify.Platforms = c.Platforms
	}
	if c.TrustedProxies, err = setup.ParseTrustedProxies(getenv("PLANPR_TRUSTED_PROXIES")); err != nil {
		r.bad("PLANPR_TRUSTED_PROXIES", getenv("PLANPR_TRUSTED_PROXIES"), err.Error())
	}
	if problem := dataDirProblem(c.DataDir); problem != "" {
		r.bad("PLANPR_DATA_DIR", c.DataDir, problem)
	} else if c.Creds, c.HaveApp, err = appCredentials(getenv, c.DataDir); err != nil {
		r.problems = append(r.problems, err.Error())
	}
	return c, r.err()
}

// dataDirProblem says why planpr could not write its data directory (the
// SQLite queue, the App's credentials after /setup, the verification
// cache), or "". A directory not made yet is judged by the nearest one
// that exists, where it would be made; nothing is left behind.
func dataDirProblem(dir string) string {
	at := filepath.Clean(dir)
	for {
		info, err := os.Stat(at)
		if err == nil {
			if !info.IsDir() {
				return fmt.Sprintf("%s is not a directory: point PLANPR_DATA_DIR at a directory planpr may write", at)
			}
			break
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return fmt.Sprintf("cannot be read (%v)", err)
		}
		parent := filepath.Dir(at)
		if parent == at {
			return "no part of it exists"
		}
		at = parent
	}
	f, err := os.CreateTemp(at, ".planpr-write-check-*")
	if err != nil {
		return fmt.Sprintf("planpr cannot write in %s (%v): make it writable by planpr's user, or mount a volume there", at, errors.Unwrap(err))
	}
	f.Close()
	os.Remove(f.Name())
	return ""
}

// redactedScheme shows a URL's scheme only: the rest may hold a password.
func redactedScheme(u string) string {
	if scheme, _, ok := strings.Cut(u, "://"); ok {
		return scheme + "://…"
	}
	return "…"
}
