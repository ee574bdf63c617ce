package bot

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bradleyfalzon/ghinstallation/v2"
	"github.com/google/go-github/v60/github"
	"github.com/planpr/planpr/bot/artifact"
	"github.com/planpr/planpr/bot/gh"
	"github.com/planpr/planpr/lockdiff"
	"github.com/planpr/planpr/render"
	"github.com/planpr/planpr/render/mask"
	"github.com/planpr/planpr/render/tofujson"
)

// ServerConfig configures `planpr serve`.
type ServerConfig struct {
	AppID         int64
	PrivateKey    []byte // PEM
	WebhookSecret []byte
	APIURL        string // https://api.github.com, or https://HOST/api/v3
	GraphQLURL    string
	Workers       int // default 4
	QueueSize     int // default 100
	Logger        *slog.Logger
	Version       string
	// Retry tunes GitHub retries (tests shorten the waits).
	Retry *gh.RetryTransport
	// IntakeBudget bounds the bytes of deliveries being read at once
	// (default 64 MiB), IntakeReaders how many are read at once (default
	// 16), and IntakeWait how long a delivery waits for room before a 503
	// (default 10 s). Bodies are read before their signature can be
	// checked, so anyone can send them.
	IntakeBudget  int64
	IntakeReaders int
	IntakeWait    time.Duration
}

// MaxWebhookBody is the largest delivery accepted, as GitHub caps payloads.
const MaxWebhookBody = 25 << 20

// Server is the GitHub App: it checks each delivery's signature, answers
// at once, and does the work on a bounded queue, one pull request at a time.
type Server struct {
	cfg     ServerConfig
	intake  *intake
	log     *slog.Logger
	queue   chan *job
	seen    *deliverySet
	prLocks keyedMutex
	metrics *metrics
	retry   *gh.RetryTransport
	apps    *ghinstallation.AppsTransport

	mu       sync.Mutex
	clients  map[int64]*gh.Client
	botLogin string // SLUG[bot], once known

	closing atomic.Bool
	running atomic.Int64 // jobs being processed
	workers sync.WaitGroup
	once    sync.Once
}

type job struct {
	delivery, event string
	ev              *Event
	received        time.Time
}

// NewServer checks the configuration and builds the server.
func NewServer(cfg ServerConfig) (*Server, error) {
	if cfg.AppID == 0 {
		return nil, errors.New("PLANPR_APP_ID is not set")
	}
	if len(cfg.WebhookSecret) == 0 {
		return nil, errors.New("PLANPR_WEBHOOK_SECRET is not set: deliveries cannot be verified")
	}
	if cfg.Workers <= 0 {
		cfg.Workers = 4
	}
	if cfg.QueueSize <= 0 {
		cfg.QueueSize = 100
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.NewJSONHandler(os.Stderr, nil))
	}
	if cfg.APIURL == "" {
		cfg.APIURL = "https://api.github.com"
	}
	retry := cfg.Retry
	if retry == nil {
		retry = &gh.RetryTransport{}
	}
	apps, err := ghinstallation.NewAppsTransport(retry, cfg.AppID, cfg.PrivateKey)
	if err != nil {
		return nil, fmt.Errorf("PLANPR_PRIVATE_KEY: %v", err)
	}
	apps.BaseURL = strings.TrimSuffix(cfg.APIURL, "/")
	return &Server{
		cfg: cfg, log: cfg.Logger, intake: newIntake(cfg.IntakeBudget, cfg.IntakeReaders, cfg.IntakeWait), queue: make(chan *job, cfg.QueueSize), seen: newDeliverySet(10000),
		metrics: newMetrics(), retry: retry, apps: apps, clients: map[int64]*gh.Client{},
	}, nil
}

// Handler serves POST /webhook, GET /healthz and GET /metrics.
func (s *Server) Handler() http.Handler {
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
		s.metrics.write(w, len(s.queue), cap(s.queue), s.retry.Calls.Load(), s.retry.Errors.Load())
	})
	return mux
}

// Start starts the workers.
func (s *Server) Start() {
	for i := 0; i < s.cfg.Workers; i++ {
		s.workers.Add(1)
		go func() {
			defer s.workers.Done()
			for j := range s.queue {
				s.running.Add(1)
				s.process(j)
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

// Run serves the Handler on ln until ctx ends, then shuts down in two
// steps, each with its own deadline: open requests get httpGrace to finish
// and are then cut (a client sending its body slowly cannot hold the
// shutdown), then running and queued jobs get jobGrace.
func (s *Server) Run(ctx context.Context, ln net.Listener, httpGrace, jobGrace time.Duration) error {
	httpSrv := &http.Server{Handler: s.Handler(), ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second}
	s.Start()
	errc := make(chan error, 1)
	go func() { errc <- httpSrv.Serve(ln) }()
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
	if !strings.HasPrefix(sig, "sha256=") || github.ValidateSignature(sig, body, s.cfg.WebhookSecret) != nil {
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
	var ev Event
	if err := json.Unmarshal(body, &ev); err != nil {
		s.metrics.delivery(event, "bad-payload")
		http.Error(w, "not a JSON payload", http.StatusBadRequest)
		return
	}
	if !wanted(event, &ev) {
		s.metrics.delivery(event, "ignored")
		writeJSON(w, http.StatusAccepted, map[string]string{"status": "ignored"})
		return
	}
	select {
	case s.queue <- &job{delivery: delivery, event: event, ev: &ev, received: time.Now()}:
		s.metrics.delivery(event, "queued")
		writeJSON(w, http.StatusAccepted, map[string]string{"status": "queued"})
	default:
		s.seen.remove(delivery) // let GitHub's redelivery through
		s.metrics.delivery(event, "queue-full")
		s.log.Warn("queue full", "delivery", delivery, "event", event)
		http.Error(w, "busy: queue full", http.StatusServiceUnavailable)
	}
}

func wanted(event string, ev *Event) bool {
	switch event {
	case "pull_request":
		return ev.PullRequest != nil && (ev.Action == "opened" || ev.Action == "synchronize" || ev.Action == "reopened")
	case "workflow_run":
		return ev.WorkflowRun != nil && ev.Action == "completed"
	}
	return false
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(v)
}

// process does one delivery's work, one pull request at a time; a panic is
// recovered and logged with the delivery.
func (s *Server) process(j *job) {
	start := time.Now()
	log := s.log.With("delivery", j.delivery, "event", j.event, "repo", j.ev.Repository.FullName)
	defer func() {
		if p := recover(); p != nil {
			s.metrics.delivery(j.event, "panic")
			log.Error("panic while handling a delivery", "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
		}
		s.metrics.processed(time.Since(start))
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	repo, err := gh.ParseRepo(j.ev.Repository.FullName)
	if err != nil || j.ev.Installation == nil {
		s.metrics.delivery(j.event, "failed")
		log.Error("delivery without a repository or installation")
		return
	}
	api, err := s.client(j.ev.Installation.ID)
	if err != nil {
		s.metrics.delivery(j.event, "failed")
		log.Error("no client for the installation", "installation", j.ev.Installation.ID, "error", err.Error())
		return
	}
	switch j.event {
	case "pull_request":
		unlock := s.prLocks.lock(fmt.Sprintf("%s#%d", repo, j.ev.PullRequest.Number))
		err = s.reviewPR(ctx, api, repo, j.ev, log)
		unlock()
	case "workflow_run":
		err = s.commentRun(ctx, api, repo, j.ev, log)
	}
	if err != nil {
		s.metrics.delivery(j.event, "failed")
		log.Error("delivery failed", "error", mask.MaskCredentials(err.Error()), "duration_ms", time.Since(start).Milliseconds())
		return
	}
	s.metrics.delivery(j.event, "done")
	log.Info("delivery done", "duration_ms", time.Since(start).Milliseconds(), "queued_ms", start.Sub(j.received).Milliseconds())
}

// client is the installation's GitHub client: one per installation, since
// go-github remembers rate limits per client, with its token cached and
// renewed by ghinstallation.
func (s *Server) client(installation int64) (*gh.Client, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c := s.clients[installation]; c != nil {
		return c, nil
	}
	itr := ghinstallation.NewFromAppsTransport(s.apps, installation)
	itr.BaseURL = s.apps.BaseURL
	c, err := gh.NewClient(&http.Client{Transport: itr}, s.cfg.APIURL, s.cfg.GraphQLURL, "")
	if err != nil {
		return nil, err
	}
	s.clients[installation] = c
	return c, nil
}

// login is the App's bot login, which its comments carry: only those are
// planpr's. It is asked once (GET /app, as the App).
func (s *Server) login(ctx context.Context) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.botLogin != "" {
		return s.botLogin, nil
	}
	c, err := gh.NewClient(&http.Client{Transport: s.apps}, s.cfg.APIURL, s.cfg.GraphQLURL, "")
	if err != nil {
		return "", err
	}
	login, err := c.AppLogin(ctx)
	if err != nil {
		return "", err
	}
	s.botLogin = login
	return login, nil
}

// LockKey is the key of the App's lock-file comment.
const LockKey = "lock-files"

// reviewPR reviews the lock files a pull request changes and keeps the
// lock comment.
func (s *Server) reviewPR(ctx context.Context, api GitHub, repo gh.Repo, ev *Event, log *slog.Logger) error {
	pr := &gh.PullRequest{Number: ev.PullRequest.Number, BaseSHA: ev.PullRequest.Base.SHA, HeadSHA: ev.PullRequest.Head.SHA}
	pairs, capped, err := changedLockFiles(ctx, api, repo, pr.Number)
	if err != nil {
		return err
	}
	if capped {
		log.Warn("the pull request lists 3000 files or more; lock files beyond them are not reviewed")
	}
	if len(pairs) == 0 {
		return nil
	}
	locks, err := reviewLocks(ctx, api, repo, pr, pairs, func(dir string) *lockdiff.Config {
		cfg, err := configAtRef(ctx, api, repo, dir, pr.HeadSHA)
		if err != nil {
			log.Warn("cannot read the root module's configuration", "dir", boundedName(dir), "error", mask.MaskCredentials(err.Error()))
		}
		return cfg
	})
	if err != nil {
		return err
	}
	author, err := s.login(ctx)
	if err != nil {
		return err
	}
	marker := render.Marker{Key: LockKey, SHA: pr.HeadSHA, At: unixTime(ev.PullRequest.UpdatedAt)}
	var body bytes.Buffer
	if _, err := render.Comment(&body, nil, render.CommentOptions{Marker: marker, Title: "Lock files", Locks: locks, Version: s.cfg.Version}); err != nil {
		return err
	}
	res, err := Upsert(ctx, api, repo, pr.Number, author, marker, body.String(), ModeUpdate)
	if err != nil {
		return err
	}
	log.Info("lock comment", "action", res.Action, "pr", pr.Number)
	return nil
}

// unixTime reads one of GitHub's timestamps as the comments' order; 0 when
// absent.
func unixTime(s string) int64 {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return 0
	}
	return t.Unix()
}

// commentRun renders the plans a finished workflow run uploaded as
// planpr* artifacts and comments on its pull request.
func (s *Server) commentRun(ctx context.Context, api GitHub, repo gh.Repo, ev *Event, log *slog.Logger) error {
	run := ev.WorkflowRun
	arts, err := api.ListArtifacts(ctx, repo, run.ID)
	if err != nil {
		return err
	}
	for _, a := range arts {
		if !strings.HasPrefix(a.Name, "planpr") || a.Expired {
			continue
		}
		if !keyPattern.MatchString(a.Name) {
			log.Warn("artifact name is not a usable key: skipped", "artifact", boundedName(a.Name))
			continue
		}
		if err := s.commentArtifact(ctx, api, repo, ev, a, log); err != nil {
			return fmt.Errorf("artifact %s: %w", a.Name, err)
		}
	}
	return nil
}

func (s *Server) commentArtifact(ctx context.Context, api GitHub, repo gh.Repo, ev *Event, a gh.Artifact, log *slog.Logger) error {
	run := ev.WorkflowRun
	url, err := api.ArtifactURL(ctx, repo, a.ID)
	if err != nil {
		return err
	}
	zipData, err := artifact.Download(ctx, url)
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "planpr-artifact-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	if err := artifact.Unpack(zipData, dir); err != nil {
		return err
	}
	var manifest Manifest
	if path := filepath.Join(dir, "planpr.json"); fileExists(path) {
		if manifest, err = readManifestFile(path); err != nil {
			return fmt.Errorf("%s", strings.TrimPrefix(err.Error(), dir+string(filepath.Separator)))
		}
	}
	pr, err := s.runPR(ctx, api, repo, ev, manifest.PR)
	if err != nil {
		return err
	}
	var planFiles, schemas []string
	err = filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		switch base := filepath.Base(path); {
		case base == "planpr.json":
		case base == "schemas.json":
			schemas = append(schemas, path)
		case strings.HasSuffix(base, ".json"), strings.HasSuffix(base, ".jsonl"), strings.HasSuffix(base, ".log"):
			planFiles = append(planFiles, path)
		}
		return nil
	})
	if err != nil {
		return err
	}
	plans := groupByDir(planFiles, nil)
	for i := range plans { // name sections by their place in the artifact
		if rel, err := filepath.Rel(dir, filepath.Dir(cmp.Or(plans[i].Path, first(plans[i].Streams)))); err == nil {
			plans[i].Name = cmp.Or(strings.TrimPrefix(rel, "."), a.Name)
		}
		if plans[i].Path != "" {
			rel, _ := filepath.Rel(dir, plans[i].Path)
			plans[i].Source = a.Name + "/" + filepath.ToSlash(rel)
		}
	}
	mode, _ := render.ParseMode(manifest.Mode) // validated with the manifest
	marker := render.Marker{Key: cmp.Or(manifest.Key, a.Name), SHA: run.HeadSHA, At: unixTime(run.RunStartedAt), Run: run.ID}
	opts := render.CommentOptions{Marker: marker, Version: s.cfg.Version, Title: "planpr", PlanOptions: render.PlanOptions{Mode: mode}}
	if len(schemas) > 0 {
		if opts.Schemas, err = tofujson.ReadSchemasFile(schemas[0]); err != nil {
			return err
		}
		opts.SchemasFile = filepath.Base(schemas[0])
	}
	var body bytes.Buffer
	if _, err := render.Comment(&body, plans, opts); err != nil {
		return err
	}
	unlock := s.prLocks.lock(fmt.Sprintf("%s#%d", repo, pr))
	defer unlock()
	author, err := s.login(ctx)
	if err != nil {
		return err
	}
	res, err := Upsert(ctx, api, repo, pr, author, marker, body.String(), ModeUpdate)
	if err != nil {
		return err
	}
	log.Info("plan comment", "action", res.Action, "pr", pr, "artifact", a.Name)
	return nil
}

func first(xs []string) string {
	if len(xs) > 0 {
		return xs[0]
	}
	return ""
}

// runPR finds the pull request a workflow run belongs to. The manifest's
// number is untrusted: it is accepted only for a pull request whose head
// is the run's head commit.
func (s *Server) runPR(ctx context.Context, api PullRequests, repo gh.Repo, ev *Event, claimed int) (int, error) {
	run := ev.WorkflowRun
	for _, p := range run.PullRequests {
		if claimed == 0 || p.Number == claimed {
			return p.Number, nil
		}
	}
	if claimed != 0 {
		pr, err := api.PullRequest(ctx, repo, claimed)
		if err != nil {
			return 0, err
		}
		if err := verifyRunPR(pr, run.HeadSHA, run.HeadRepository.FullName); err != nil {
			return 0, err
		}
		return claimed, nil
	}
	owner := cmp.Or(run.HeadRepository.Owner.Login, repo.Owner)
	return api.PullRequestForBranch(ctx, repo, owner, run.HeadBranch)
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

// keyedMutex serialises work per key (a pull request) while different
// keys run in parallel.
type keyedMutex struct {
	mu    sync.Mutex
	locks map[string]*refMutex
}

type refMutex struct {
	sync.Mutex
	refs int
}

func (k *keyedMutex) lock(key string) func() {
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

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// boundedName is an untrusted name fit for a log line.
func boundedName(s string) string {
	if len(s) > 100 {
		s = s[:100] + "…"
	}
	return SafeLog(s)
}
