// Package webhook is planpr's intake of GitHub's webhook deliveries:
// bodies read within a budget, the signature checked before anything else,
// untrusted headers bounded; then each verified delivery kept in a durable
// queue (River, on SQLite or PostgreSQL) before it is answered, one job per
// delivery id, the newest delivery of a pull request superseding older
// ones, worked with retries and backoff, panics recovered, metrics kept,
// missed deliveries redelivered, a graceful shutdown. It knows nothing of
// plans: a Handler says what a delivery is worth and does the work.
package webhook

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/go-github/v60/github"
	"github.com/riverqueue/river"
	"golang.org/x/net/netutil"
)

// MaxBody is the largest delivery accepted, as GitHub caps payloads.
const MaxBody = 25 << 20

// Config configures the intake.
type Config struct {
	Secret  []byte // the webhook secret deliveries are signed with
	Workers int    // jobs worked at once by this process (default 4)
	Logger  *slog.Logger
	// Store says where the queue lives (SQLite in the data directory, or
	// PostgreSQL).
	Store StoreConfig
	// MaxAttempts bounds the tries of a failing job (default 8); a job
	// that runs out is kept, discarded, for `planpr jobs`.
	MaxAttempts int
	// RedeliverEvery is how often the App's recent deliveries are checked
	// for ones that failed to reach planpr (default 5 minutes; negative:
	// never). It needs a Handler that is a Redeliverer.
	RedeliverEvery time.Duration
	// IntakeBudget bounds the bytes of large deliveries being read at
	// once (default 64 MiB; small ones have a lane of their own), and
	// IntakeWait how long a delivery waits for room before a 503 (default
	// 10 s). Bodies are read before their signature can be checked, so
	// anyone can send them.
	IntakeBudget int64
	IntakeWait   time.Duration
	// IntakeGrace and IntakeMinRate pace a body: after the grace (default
	// 2 s) it must average IntakeMinRate bytes a second (default 64 KiB),
	// or it is cut off (408), so slow senders cannot hold the budget.
	IntakeGrace   time.Duration
	IntakeMinRate int64
	// JobTimeout bounds one job's work (default 5 minutes).
	JobTimeout time.Duration
	// RetryBase is the first retry's wait (default 1 s), doubled at each
	// attempt up to 10 minutes, with jitter.
	RetryBase time.Duration
	// SeparateMetrics leaves /metrics off the webhook's listener: it is
	// served by MetricsHandler on one of its own.
	SeparateMetrics bool
	// Gauges writes more metrics among the intake's own (Prometheus text,
	// with Metric).
	Gauges func(w io.Writer)
}

// Job is what a verified delivery asks for.
type Job struct {
	Key string // the deliveries of one key run one at a time, the newest superseding older ones waiting; "" for none
	// Tenant is whose delivery it is (an installation): one tenant's jobs
	// hold at most half the workers at once, so its backlog never keeps
	// another's waiting. "" for none.
	Tenant string
	Log    []any // attributes for every log line of the job
}

// Handler is what the intake serves.
type Handler interface {
	// Accept reads a verified delivery of an event: its job, or nil when
	// there is nothing to do. An error means a bad payload (400).
	Accept(event string, body []byte) (*Job, error)
	// Handle does a delivery's work, from its event and body as kept.
	Handle(ctx context.Context, event string, body []byte, log *slog.Logger) error
}

// Server is the intake.
type Server struct {
	cfg     Config
	h       Handler
	intake  *intake
	log     *slog.Logger
	store   *store
	client  riverClient
	inserts groupInsert // deliveries committed together
	keys    KeyedMutex
	tenants tenantSlots
	metrics *metrics

	closing     atomic.Bool
	started     atomic.Bool
	shutdown    sync.Once
	shutdownErr error
	stopSweep   context.CancelFunc
	lostMu      sync.Mutex
	lostSeen    map[string]bool // deliveries said lost, while GitHub lists them
	sweeps      sync.WaitGroup
	unsubscribe func()
}

// New checks the configuration, opens the queue (migrating it to River's
// schema, said in the log) and builds the intake; Start starts it.
func New(cfg Config, h Handler) (*Server, error) {
	if len(cfg.Secret) == 0 {
		return nil, errors.New("PLANPR_WEBHOOK_SECRET is not set: deliveries cannot be verified")
	}
	cfg.Workers = positiveOr(cfg.Workers, 4)
	cfg.MaxAttempts = positiveOr(cfg.MaxAttempts, 8)
	cfg.JobTimeout = positiveOr(cfg.JobTimeout, 5*time.Minute)
	if cfg.RedeliverEvery == 0 {
		cfg.RedeliverEvery = 5 * time.Minute
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.NewJSONHandler(os.Stderr, nil))
	}
	cfg.Store.Logger = cfg.Logger
	s := &Server{cfg: cfg, h: h, log: cfg.Logger, intake: newIntake(cfg), metrics: newMetrics()}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	st, err := openStore(ctx, cfg.Store)
	if err != nil {
		return nil, err
	}
	res, err := st.migrate(ctx)
	if err != nil {
		st.close()
		return nil, fmt.Errorf("migrating the queue's database (%s): %w", st.where, err)
	}
	var applied []int
	for _, v := range res.Versions {
		applied = append(applied, v.Version)
	}
	s.log.Info("queue ready", "store", st.kind, "where", st.where, "migrations_applied", applied)
	workers := river.NewWorkers()
	river.AddWorker(workers, &deliveryWorker{s: s})
	river.AddWorker(workers, &redeliverWorker{s: s})
	client, err := st.newRun(&river.Config{
		Queues:               map[string]river.QueueConfig{river.QueueDefault: {MaxWorkers: cfg.Workers}},
		Workers:              workers,
		MaxAttempts:          cfg.MaxAttempts,
		JobTimeout:           cfg.JobTimeout,
		RescueStuckJobsAfter: cfg.JobTimeout + time.Minute,
		RetryPolicy:          &backoff{base: positiveOr(cfg.RetryBase, time.Second)},
		FetchPollInterval:    250 * time.Millisecond,
		Logger:               quiet(cfg.Logger),
	})
	if err != nil {
		st.close()
		return nil, err
	}
	s.store, s.client = st, client
	return s, nil
}

// HTTPHandler serves POST /webhook, GET /healthz and GET /metrics.
func (s *Server) HTTPHandler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /webhook", s.webhook)
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		if s.closing.Load() {
			http.Error(w, "shutting down", http.StatusServiceUnavailable)
			return
		}
		if err := s.store.writable(r.Context()); err != nil {
			http.Error(w, "the queue cannot be written: "+redactURL(err.Error(), s.cfg.Store.DatabaseURL), http.StatusServiceUnavailable)
			return
		}
		io.WriteString(w, "ok\n")
	})
	if !s.cfg.SeparateMetrics {
		mux.HandleFunc("GET /metrics", s.serveMetrics)
	}
	return mux
}

// MetricsHandler serves GET /metrics alone, for a listener of its own
// (PLANPR_METRICS_LISTEN): the queue's, the jobs' and the intake's
// metrics, then the Go runtime's and the process's.
func (s *Server) MetricsHandler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /metrics", s.serveMetrics)
	return mux
}

func (s *Server) serveMetrics(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; version=0.0.4")
	depth, err := s.store.depth(r.Context())
	if err != nil {
		s.log.Warn("metrics: cannot count the queue", "error", err.Error())
	}
	s.metrics.write(w, depth, s.cfg.Gauges)
	if err := writeRuntimeMetrics(w); err != nil {
		s.log.Warn("metrics: cannot gather the runtime's", "error", err.Error())
	}
}

// Start starts working the queue: jobs a crash left running first (with
// SQLite), the redelivery sweep with it.
func (s *Server) Start() error {
	ctx := context.Background()
	if n, err := s.store.requeueOrphans(ctx); err != nil {
		return err
	} else if n > 0 {
		s.log.Warn("jobs left running by a previous process are queued again", "jobs", n)
	}
	events, unsubscribe := s.client.Subscribe(river.EventKindJobCompleted, river.EventKindJobFailed, river.EventKindJobCancelled, river.EventKindJobSnoozed)
	s.unsubscribe = unsubscribe
	go s.logEvents(events)
	if err := s.client.Start(ctx); err != nil {
		return err
	}
	s.started.Store(true)
	if r, ok := s.h.(Redeliverer); ok && s.cfg.RedeliverEvery > 0 {
		sweepCtx, stop := context.WithCancel(ctx)
		s.stopSweep = stop
		s.sweeps.Add(1)
		go func() {
			defer s.sweeps.Done()
			s.sweep(sweepCtx, r)
		}()
	}
	return nil
}

// Shutdown stops taking deliveries and lets running jobs finish until ctx
// ends; jobs still running then are cancelled and, with the jobs not yet
// started, stay in the queue for the next start.
func (s *Server) Shutdown(ctx context.Context) error {
	s.shutdown.Do(func() { s.shutdownErr = s.stop(ctx) })
	return s.shutdownErr
}

func (s *Server) stop(ctx context.Context) error {
	s.closing.Store(true)
	if s.stopSweep != nil {
		s.stopSweep()
		s.sweeps.Wait()
	}
	defer s.store.close()
	if !s.started.Load() {
		return nil
	}
	if s.unsubscribe != nil {
		defer s.unsubscribe()
	}
	err := s.client.Stop(ctx)
	if err == nil {
		return nil
	}
	cancelCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	s.client.StopAndCancel(cancelCtx)
	return fmt.Errorf("shutdown: jobs still running at the deadline were interrupted and stay queued for the next start: %w", err)
}

// NewHTTPServer is the HTTP server planpr serves h with: bounded time to
// send headers (5 s, at most 64 KiB of them) and bodies (paced by the
// intake within a 30-second whole), and idle connections closed after a
// minute.
func NewHTTPServer(h http.Handler) *http.Server {
	return &http.Server{Handler: h, ReadHeaderTimeout: 5 * time.Second, ReadTimeout: 30 * time.Second,
		IdleTimeout: time.Minute, MaxHeaderBytes: 64 << 10}
}

// MaxConnections bounds the connections planpr serves at once (see
// LimitListener): past it, new ones wait in the kernel's backlog.
const MaxConnections = 1024

// LimitListener is ln serving at most MaxConnections at once.
func LimitListener(ln net.Listener) net.Listener { return netutil.LimitListener(ln, MaxConnections) }

// Run serves on ln until ctx ends, then shuts down (see Serve).
func (s *Server) Run(ctx context.Context, ln net.Listener, httpGrace, jobGrace time.Duration) error {
	httpSrv := NewHTTPServer(s.HTTPHandler())
	errc := make(chan error, 1)
	go func() { errc <- httpSrv.Serve(LimitListener(ln)) }()
	return s.Serve(ctx, httpSrv, errc, httpGrace, jobGrace)
}

// Serve starts the workers for httpSrv, which already serves this
// server's handler (errc receives what its Serve returned), until ctx
// ends; then it shuts down in two steps, each with its own deadline: open
// requests get httpGrace to finish and are then cut (a client sending its
// body slowly cannot hold the shutdown), then running and queued jobs get
// jobGrace.
func (s *Server) Serve(ctx context.Context, httpSrv *http.Server, errc <-chan error, httpGrace, jobGrace time.Duration) error {
	if err := s.Start(); err != nil {
		httpSrv.Close()
		return err
	}
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	s.closing.Store(true)
	s.log.Info("shutting down: no new deliveries; finishing requests and queued work")
	httpCtx, cancel := context.WithTimeout(context.Background(), httpGrace)
	defer cancel()
	if err := httpSrv.Shutdown(httpCtx); err != nil {
		s.log.Warn("requests still open at the deadline were cut", "error", err.Error())
		httpSrv.Close()
	}
	jobCtx, cancelJobs := context.WithTimeout(context.Background(), jobGrace)
	defer cancelJobs()
	err := s.Shutdown(jobCtx)
	accepted, completed, failed := s.metrics.totals()
	s.log.Info("stopped", "deliveries_queued", accepted, "jobs_completed", completed, "jobs_failed", failed, "clean", err == nil)
	return err
}

func (s *Server) webhook(w http.ResponseWriter, r *http.Request) {
	body, status := s.intake.read(w, r)
	if status != 0 {
		s.metrics.delivery(unverified, intakeResults[status])
		http.Error(w, http.StatusText(status), status)
		return
	}
	// The signature comes first: nothing else is looked at before it.
	sig := r.Header.Get("X-Hub-Signature-256")
	if !strings.HasPrefix(sig, "sha256=") || github.ValidateSignature(sig, body, s.cfg.Secret) != nil {
		s.metrics.delivery(unverified, "bad-signature")
		s.log.Warn("webhook signature missing or wrong", "delivery", boundedDelivery(r.Header.Get("X-GitHub-Delivery")))
		http.Error(w, "bad signature", http.StatusUnauthorized)
		return
	}
	// The signature covers the body only: the headers are still untrusted.
	event := eventLabel(r.Header.Get("X-GitHub-Event"))
	delivery := r.Header.Get("X-GitHub-Delivery")
	if !validDelivery(delivery) {
		s.metrics.delivery(event, "bad-delivery-id")
		http.Error(w, "X-GitHub-Delivery is not a delivery id", http.StatusBadRequest)
		return
	}
	if s.closing.Load() {
		s.metrics.delivery(event, "shutting-down")
		http.Error(w, "shutting down", http.StatusServiceUnavailable)
		return
	}
	job, err := s.h.Accept(event, body)
	if err != nil {
		s.metrics.delivery(event, "bad-payload")
		http.Error(w, "not a payload planpr reads", http.StatusBadRequest)
		return
	}
	if job == nil {
		s.metrics.delivery(event, "ignored")
		writeJSON(w, http.StatusAccepted, map[string]string{"status": "ignored"})
		return
	}
	// Kept before it is answered: a 2xx means the delivery survives a crash.
	fresh, id, err := s.enqueue(r.Context(), delivery, event, job, body)
	if err != nil {
		s.metrics.delivery(event, "queue-error")
		s.log.Error("cannot keep a delivery", "delivery", delivery, "event", event, "error", redactURL(err.Error(), s.cfg.Store.DatabaseURL))
		http.Error(w, "cannot queue the delivery now", http.StatusServiceUnavailable)
		return
	}
	if !fresh {
		s.metrics.delivery(event, "duplicate")
		writeJSON(w, http.StatusOK, map[string]any{"status": "duplicate", "job": id})
		return
	}
	s.metrics.delivery(event, "queued")
	writeJSON(w, http.StatusAccepted, map[string]any{"status": "queued", "job": id})
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(v)
}

// KeyedMutex serialises work per key (a pull request) while different
// keys run in parallel.
type KeyedMutex struct {
	mu    sync.Mutex
	locks map[string]*refMutex
}

type refMutex struct {
	sync.Mutex
	refs int
}

// Lock takes the key's lock and returns its unlock.
func (k *KeyedMutex) Lock(key string) func() {
	k.mu.Lock()
	if k.locks == nil {
		k.locks = map[string]*refMutex{}
	}
	m := k.locks[key]
	if m == nil {
		m = &refMutex{}
		k.locks[key] = m
	}
	m.refs++
	k.mu.Unlock()
	m.Lock()
	return func() {
		m.Unlock()
		k.mu.Lock()
		if m.refs--; m.refs == 0 {
			delete(k.locks, key)
		}
		k.mu.Unlock()
	}
}
