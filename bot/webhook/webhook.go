// Package webhook is planpr's intake of GitHub's webhook deliveries:
// bodies read within a budget, the signature checked before anything else,
// untrusted headers bounded, deliveries deduplicated and queued, worked by a
// pool one key at a time, panics recovered, metrics kept, a graceful
// shutdown. It knows nothing of plans: a Handler says what a delivery is
// worth and does the work.
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
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/go-github/v60/github"
)

// MaxBody is the largest delivery accepted, as GitHub caps payloads.
const MaxBody = 25 << 20

// Config configures the intake.
type Config struct {
	Secret    []byte // the webhook secret deliveries are signed with
	Workers   int    // default 4
	QueueSize int    // default 100
	Logger    *slog.Logger
	// IntakeBudget bounds the bytes of deliveries being read at once
	// (default 64 MiB), IntakeReaders how many are read at once (default
	// 16), and IntakeWait how long a delivery waits for room before a 503
	// (default 10 s). Bodies are read before their signature can be
	// checked, so anyone can send them.
	IntakeBudget  int64
	IntakeReaders int
	IntakeWait    time.Duration
	// JobTimeout bounds one job's work (default 5 minutes).
	JobTimeout time.Duration
	// Gauges writes more metrics among the intake's own (Prometheus text,
	// with Metric).
	Gauges func(w io.Writer)
}

// Job is the work a verified delivery asks for.
type Job struct {
	Key  string // jobs of one key run one at a time; "" for none
	Work any    // what Handle is given
	Log  []any  // attributes for every log line of the job
}

// Handler is what the intake serves.
type Handler interface {
	// Accept reads a verified delivery of an event: its job, or nil when
	// there is nothing to do. An error means a bad payload (400).
	Accept(event string, body []byte) (*Job, error)
	// Handle does a job's work.
	Handle(ctx context.Context, work any, log *slog.Logger) error
}

// Server is the intake.
type Server struct {
	cfg     Config
	h       Handler
	intake  *intake
	log     *slog.Logger
	queue   chan *queued
	seen    *deliverySet
	keys    KeyedMutex
	metrics *metrics

	closing atomic.Bool
	running atomic.Int64 // jobs being processed
	workers sync.WaitGroup
	once    sync.Once
}

type queued struct {
	delivery, event string
	job             *Job
	received        time.Time
}

// New checks the configuration and builds the intake.
func New(cfg Config, h Handler) (*Server, error) {
	if len(cfg.Secret) == 0 {
		return nil, errors.New("PLANPR_WEBHOOK_SECRET is not set: deliveries cannot be verified")
	}
	cfg.Workers = positiveOr(cfg.Workers, 4)
	cfg.QueueSize = positiveOr(cfg.QueueSize, 100)
	cfg.JobTimeout = positiveOr(cfg.JobTimeout, 5*time.Minute)
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.NewJSONHandler(os.Stderr, nil))
	}
	return &Server{
		cfg: cfg, h: h, log: cfg.Logger, intake: newIntake(cfg.IntakeBudget, cfg.IntakeReaders, cfg.IntakeWait),
		queue: make(chan *queued, cfg.QueueSize), seen: newDeliverySet(10000), metrics: newMetrics(),
	}, nil
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
		io.WriteString(w, "ok\n")
	})
	mux.HandleFunc("GET /metrics", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; version=0.0.4")
		s.metrics.write(w, len(s.queue), cap(s.queue), s.cfg.Gauges)
	})
	return mux
}

// QueueDepth is how many jobs wait for a worker.
func (s *Server) QueueDepth() int { return len(s.queue) }

// Start starts the workers.
func (s *Server) Start() {
	for i := 0; i < s.cfg.Workers; i++ {
		s.workers.Add(1)
		go func() {
			defer s.workers.Done()
			for q := range s.queue {
				s.running.Add(1)
				s.process(q)
				s.running.Add(-1)
			}
		}()
	}
}

// Shutdown stops taking deliveries and finishes the queued work, until ctx
// ends.
func (s *Server) Shutdown(ctx context.Context) error {
	s.closing.Store(true)
	s.once.Do(func() { close(s.queue) })
	done := make(chan struct{})
	go func() { s.workers.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		left := int64(len(s.queue)) + s.running.Load()
		if left == 0 {
			return nil // the last job ended as the deadline came
		}
		return fmt.Errorf("shutdown: %d jobs left unfinished (%d running, %d queued): %w", left, s.running.Load(), len(s.queue), ctx.Err())
	}
}

// NewHTTPServer is the HTTP server planpr serves h with: bounded time to
// send headers and bodies.
func NewHTTPServer(h http.Handler) *http.Server {
	return &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second}
}

// Run serves on ln until ctx ends, then shuts down (see Serve).
func (s *Server) Run(ctx context.Context, ln net.Listener, httpGrace, jobGrace time.Duration) error {
	httpSrv := NewHTTPServer(s.HTTPHandler())
	errc := make(chan error, 1)
	go func() { errc <- httpSrv.Serve(ln) }()
	return s.Serve(ctx, httpSrv, errc, httpGrace, jobGrace)
}

// Serve starts the workers for httpSrv, which already serves this
// server's handler (errc receives what its Serve returned), until ctx
// ends; then it shuts down in two steps, each with its own deadline: open
// requests get httpGrace to finish and are then cut (a client sending its
// body slowly cannot hold the shutdown), then running and queued jobs get
// jobGrace.
func (s *Server) Serve(ctx context.Context, httpSrv *http.Server, errc <-chan error, httpGrace, jobGrace time.Duration) error {
	s.Start()
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
	return s.Shutdown(jobCtx)
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
	if !s.seen.add(delivery) {
		s.metrics.delivery(event, "duplicate")
		writeJSON(w, http.StatusOK, map[string]string{"status": "duplicate"})
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
	select {
	case s.queue <- &queued{delivery: delivery, event: event, job: job, received: time.Now()}:
		s.metrics.delivery(event, "queued")
		writeJSON(w, http.StatusAccepted, map[string]string{"status": "queued"})
	default:
		s.seen.remove(delivery) // let GitHub's redelivery through
		s.metrics.delivery(event, "queue-full")
		s.log.Warn("queue full", "delivery", delivery, "event", event)
		http.Error(w, "busy: queue full", http.StatusServiceUnavailable)
	}
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(v)
}

// process does one job, one key at a time; a panic is recovered and
// logged with the delivery.
func (s *Server) process(q *queued) {
	start := time.Now()
	log := s.log.With(append([]any{"delivery", q.delivery, "event", q.event}, q.job.Log...)...)
	defer func() {
		if p := recover(); p != nil {
			s.metrics.delivery(q.event, "panic")
			log.Error("panic while handling a delivery", "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
		}
		s.metrics.processed(time.Since(start))
	}()
	ctx, cancel := context.WithTimeout(context.Background(), s.cfg.JobTimeout)
	defer cancel()
	if q.job.Key != "" {
		defer s.keys.Lock(q.job.Key)()
	}
	if err := s.h.Handle(ctx, q.job.Work, log); err != nil {
		s.metrics.delivery(q.event, "failed")
		log.Error("delivery failed", "error", err.Error(), "duration_ms", time.Since(start).Milliseconds())
		return
	}
	s.metrics.delivery(q.event, "done")
	log.Info("delivery done", "duration_ms", time.Since(start).Milliseconds(), "queued_ms", start.Sub(q.received).Milliseconds())
}

// deliverySet remembers recent delivery ids, so a redelivery is done once.
type deliverySet struct {
	mu    sync.Mutex
	ids   map[string]bool
	order []string
	max   int
}

func newDeliverySet(max int) *deliverySet { return &deliverySet{ids: map[string]bool{}, max: max} }

func (d *deliverySet) add(id string) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.ids[id] {
		return false
	}
	d.ids[id] = true
	d.order = append(d.order, id)
	if len(d.order) > d.max {
		delete(d.ids, d.order[0])
		d.order = d.order[1:]
	}
	return true
}

func (d *deliverySet) remove(id string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	delete(d.ids, id)
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
