package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"github.com/golang-jwt/jwt/v4"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/planpr/planpr/bot/app"
	"github.com/planpr/planpr/bot/setup"
	webhooks "github.com/planpr/planpr/bot/webhook"
	"github.com/planpr/planpr/lockdiff/verify"
)

const serveUsage = `Usage: planpr serve

Runs the GitHub App webhook server. Configuration comes from the environment:
  PLANPR_APP_ID           the App's id
  PLANPR_PRIVATE_KEY      the App's private key: PEM text, or the path of a PEM file
  PLANPR_WEBHOOK_SECRET   the webhook secret deliveries are signed with
  PLANPR_DATA_DIR         planpr's data directory (default ./planpr-data): the queue
                          (SQLite) and the App's credentials once /setup created it
  PLANPR_DATABASE_URL     postgres://… : keep the queue in PostgreSQL instead, shared
                          by any number of replicas
  PLANPR_LISTEN           address to listen on (default :8080)
  PLANPR_WORKERS          jobs worked at once by this process (default 4)
  PLANPR_MAX_ATTEMPTS     tries of a failing job before it is kept as failed (default 8)
  PLANPR_REDELIVER_EVERY  how often missed deliveries are looked for and redelivered
                          (default 5m; 0 or off: never)
  PLANPR_VERIFY           check lock files' new hashes against the registries' signed
                          checksums: on (default), full (h1: too) or off
  PLANPR_REGISTRY         HOST=URL overrides of registry discovery, comma-separated
  PLANPR_COMMENT_MODE     update (default) or changes-only: a plan with no change, failure
                          or lock file to show keeps no comment
  PLANPR_VERIFY_HOSTS     registry hosts besides the two public ones that verification may
                          contact (comma-separated); lock files naming others are not checked
  PLANPR_METRICS_LISTEN   serve /metrics (with the Go runtime's and the process's) on its own
                          address, such as :9090, and not beside the public webhook
  PLANPR_FAIL_ON          what fails planpr's check runs: errored, lock-alert, destroy, replace,
                          drift (comma-separated; default errored,lock-alert); a repository's
                          .github/planpr.yml (fail_on:) on its default branch overrides it
  PLANPR_PLATFORMS        the platforms (OS_ARCH, comma-separated) your teams and CI run on:
                          every provider a lock change touches must have hashes for each
  GITHUB_API_URL          https://api.github.com, or https://HOST/api/v3 (GitHub Enterprise)
Serves POST /webhook, GET /healthz and GET /metrics; logs JSON to stderr.
Every verified delivery is kept in the queue before it is answered; River's
migrations run at start ('planpr migrate' runs them alone); 'planpr jobs'
lists the failed jobs.

With no PLANPR_APP_ID and no App in the data directory, it serves GET /setup:
a page that creates the GitHub App through GitHub's manifest flow, keeps its
credentials in the data directory and starts serving it, in the same process.
  PLANPR_PUBLIC_URL       the URL GitHub reaches planpr at (default: the one
                          /setup is opened at, as the proxy in front tells it)
  PLANPR_GITHUB_ORG       create the App in this organisation (or /setup?org=NAME)
  PLANPR_APP_NAME         the App's name (default planpr; names are unique on GitHub)
  PLANPR_SETUP_TOKEN      if set, /setup asks for ?token=THIS (never rate-limited)
  PLANPR_TRUSTED_PROXIES  the proxies in front (addresses or CIDR ranges): /setup limits
                          pages by the client X-Forwarded-For names, not by the proxy
  GITHUB_SERVER_URL       https://github.com, or https://HOST (GitHub Enterprise)
`

// runServe is `planpr serve`: the GitHub App webhook server.
func runServe(args []string, stderr io.Writer) error {
	if len(args) > 0 {
		if isHelp(args[0]) {
			fmt.Fprint(stderr, serveUsage)
			return nil
		}
		return &usageError{"serve takes no arguments: it is configured by PLANPR_* variables; see 'planpr serve --help'"}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return serve(ctx, os.Getenv, stderr)
}

// serve runs the App until ctx ends: with its credentials from the
// environment or the data directory, or else first its setup.
func serve(ctx context.Context, getenv func(string) string, stderr io.Writer) error {
	log := slog.New(slog.NewJSONHandler(stderr, nil))
	cfg, err := readServeConfig(getenv)
	if err != nil {
		return err
	}
	dataDir, creds, ok := cfg.DataDir, cfg.Creds, cfg.HaveApp
	ln, err := net.Listen("tcp", cfg.Listen)
	if err != nil {
		return fmt.Errorf("PLANPR_LISTEN=%q: %w (is another server on that port?)", cfg.Listen, err)
	}
	ln = webhooks.LimitListener(ln)
	front := &switchHandler{}
	httpSrv := webhooks.NewHTTPServer(front)
	errc := make(chan error, 1)
	if !ok {
		firstRun := setup.New(setup.Config{
			ServerURL: getenv("GITHUB_SERVER_URL"), APIURL: getenv("GITHUB_API_URL"), PublicURL: getenv("PLANPR_PUBLIC_URL"),
			Org: getenv("PLANPR_GITHUB_ORG"), AppName: getenv("PLANPR_APP_NAME"), Token: getenv("PLANPR_SETUP_TOKEN"),
			TrustedProxies: cfg.TrustedProxies, DataDir: dataDir, Logger: log,
		})
		front.set(firstRun.Handler())
		go func() { errc <- httpSrv.Serve(ln) }()
		log.Warn("no GitHub App yet: open /setup in a browser to create it", "addr", ln.Addr().String(), "data_dir", dataDir, "version", Version)
		select {
		case creds = <-firstRun.Done():
		case err := <-errc:
			return err
		case <-ctx.Done():
			shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			return httpSrv.Shutdown(shutdown)
		}
	}
	if cfg.Verify != nil {
		cfg.Verify.Logger = log
	}
	srv, err := app.NewServer(app.ServerConfig{Verifier: cfg.Verify, Platforms: cfg.Platforms, FailOn: cfg.FailOn,
		AppID: creds.ID, PrivateKey: []byte(creds.PrivateKey), WebhookSecret: []byte(creds.WebhookSecret),
		APIURL: getenv("GITHUB_API_URL"), GraphQLURL: getenv("GITHUB_GRAPHQL_URL"),
		DataDir: dataDir, DatabaseURL: cfg.DatabaseURL, MaxAttempts: cfg.MaxAttempts, Redeliver: cfg.Redeliver,
		Workers: cfg.Workers, Logger: log, Version: Version, CommentMode: cfg.CommentMode, SeparateMetrics: cfg.MetricsListen != "",
	})
	if err != nil {
		httpSrv.Close()
		return err
	}
	front.set(srv.Handler())
	if cfg.MetricsListen != "" {
		mln, err := net.Listen("tcp", cfg.MetricsListen)
		if err != nil {
			httpSrv.Close()
			return fmt.Errorf("PLANPR_METRICS_LISTEN: %w", err)
		}
		metricsSrv := &http.Server{Handler: srv.MetricsHandler(), ReadHeaderTimeout: 5 * time.Second}
		go metricsSrv.Serve(mln)
		defer metricsSrv.Close()
		log.Info("metrics listening", "addr", mln.Addr().String())
	}
	if ok { // not yet serving: setup did not run
		go func() { errc <- httpSrv.Serve(ln) }()
	}
	log.Info("planpr serve listening", "addr", ln.Addr().String(), "app_id", creds.ID, "version", Version)
	return srv.Serve(ctx, httpSrv, errc, 5*time.Second, 30*time.Second)
}

// serveVerifier is the lock-hash verification PLANPR_VERIFY (on by
// default, full, off) and PLANPR_REGISTRY (HOST=URL overrides) ask for,
// its answers cached in the data directory.
func serveVerifier(getenv func(string) string, dataDir string) (*verify.Verifier, error) {
	on, full, err := verify.ParseVerify(cmp.Or(getenv("PLANPR_VERIFY"), "on"))
	if err != nil {
		return nil, fmt.Errorf("PLANPR_VERIFY: %w", err)
	}
	if !on {
		return nil, nil
	}
	regs, err := verify.ParseRegistries(getenv("PLANPR_REGISTRY"))
	if err != nil {
		return nil, fmt.Errorf("PLANPR_REGISTRY: %w", err)
	}
	hosts, err := verify.ParseHosts(getenv("PLANPR_VERIFY_HOSTS"))
	if err != nil {
		return nil, fmt.Errorf("PLANPR_VERIFY_HOSTS: %w", err)
	}
	return &verify.Verifier{Registries: regs, AllowHosts: hosts, Full: full, CacheDir: filepath.Join(dataDir, "cache")}, nil
}

// redeliverEvery reads PLANPR_REDELIVER_EVERY: a duration, or 0/off for
// never (negative to the server).
func redeliverEvery(v string) (time.Duration, error) {
	switch v {
	case "":
		return 0, nil // the default
	case "0", "off", "never":
		return -1, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d < 10*time.Second {
		return 0, fmt.Errorf("PLANPR_REDELIVER_EVERY must be a duration of at least 10s (like 5m), or off; got %q", v)
	}
	return d, nil
}

// appCredentials are the App's, from PLANPR_* variables or else the data
// directory; ok is false when neither has them (setup is needed).
func appCredentials(getenv func(string) string, dataDir string) (setup.AppCredentials, bool, error) {
	var creds setup.AppCredentials
	if getenv("PLANPR_APP_ID") == "" {
		if getenv("PLANPR_PRIVATE_KEY") != "" || getenv("PLANPR_WEBHOOK_SECRET") != "" {
			return creds, false, errors.New("PLANPR_APP_ID is not set, but PLANPR_PRIVATE_KEY or PLANPR_WEBHOOK_SECRET is: set all three (the App's numeric id is on its settings page), or none to create the App at /setup")
		}
		return setup.LoadAppCredentials(dataDir)
	}
	id, err := strconv.ParseInt(getenv("PLANPR_APP_ID"), 10, 64)
	if err != nil || id <= 0 {
		return creds, false, errors.New("PLANPR_APP_ID must be the App's numeric id")
	}
	key := getenv("PLANPR_PRIVATE_KEY")
	var missing []string // every one, in one message
	if key == "" {
		missing = append(missing, "PLANPR_PRIVATE_KEY is not set: the App's private key, as PEM text or the path of the .pem file GitHub let you download")
	}
	if getenv("PLANPR_WEBHOOK_SECRET") == "" {
		missing = append(missing, "PLANPR_WEBHOOK_SECRET is not set: the App's webhook secret, which every delivery is checked against")
	}
	if len(missing) > 0 {
		return creds, false, errors.New(strings.Join(missing, "\n  "))
	}
	if !strings.Contains(key, "-----BEGIN") {
		b, err := os.ReadFile(key)
		if err != nil {
			return creds, false, fmt.Errorf("PLANPR_PRIVATE_KEY: not PEM text, and not a readable file: %w", err)
		}
		key = string(b)
	}
	// Checked before anything starts (the queue's migrations included):
	// a key that cannot sign would fail every delivery.
	if _, err := jwt.ParseRSAPrivateKeyFromPEM([]byte(key)); err != nil {
		return creds, false, fmt.Errorf("PLANPR_PRIVATE_KEY: not the App's RSA private key in PEM (%v): use the .pem file GitHub let you download", err)
	}
	return setup.AppCredentials{ID: id, PrivateKey: key, WebhookSecret: getenv("PLANPR_WEBHOOK_SECRET")}, true, nil
}

// switchHandler serves with the handler last set: the setup's, then the
// App's, on one listener, so that no delivery meets a closed port.
type switchHandler struct{ h atomic.Pointer[http.Handler] }

func (s *switchHandler) set(h http.Handler) { s.h.Store(&h) }

func (s *switchHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	(*s.h.Load()).ServeHTTP(w, r)
}
