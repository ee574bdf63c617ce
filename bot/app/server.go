package app

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/planpr/planpr/bot"
	"github.com/planpr/planpr/render/inputs"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/planpr/planpr/flavor"

	"github.com/bradleyfalzon/ghinstallation/v2"

	"github.com/planpr/planpr/bot/artifact"
	"github.com/planpr/planpr/bot/gh"
	"github.com/planpr/planpr/bot/publish"
	"github.com/planpr/planpr/bot/webhook"
	"github.com/planpr/planpr/lockdiff"
	"github.com/planpr/planpr/lockdiff/verify"
	"github.com/planpr/planpr/render/mask"
	"github.com/planpr/planpr/render/report"
	"github.com/planpr/planpr/render/review"
	"github.com/planpr/planpr/render/tofujson"
)

// ServerConfig configures `planpr serve`.
type ServerConfig struct {
	AppID         int64
	PrivateKey    []byte // PEM
	WebhookSecret []byte
	APIURL        string // https://api.github.com, or https://HOST/api/v3
	GraphQLURL    string
	Workers       int // jobs worked at once by this process (default 4)
	// DataDir holds the SQLite queue (default ./planpr-data); DatabaseURL,
	// when set, a PostgreSQL queue several replicas share instead.
	DataDir     string
	DatabaseURL string
	MaxAttempts int // tries of a failing job (default 8)
	// Verifier, when set, checks lock files' new hashes against the
	// registries' signed checksums.
	Verifier   *verify.Verifier
	Redeliver  time.Duration // how often missed deliveries are looked for (default 5 minutes; negative: never)
	JobTimeout time.Duration
	Logger     *slog.Logger
	Version    string
	// FailOn is what fails planpr's check runs (PLANPR_FAIL_ON; default
	// report.DefaultFailOn); a repository's .github/planpr.yml on its
	// default branch says otherwise for itself.
	FailOn report.FailOn
	// SeparateMetrics serves /metrics on a listener of its own
	// (PLANPR_METRICS_LISTEN, MetricsHandler), not beside the webhook.
	SeparateMetrics bool
	// Platforms are the team's declared platforms (PLANPR_PLATFORMS): every
	// provider a lock change touches must cover them (see lockdiff.Pair).
	Platforms []string
	// CommentMode is how plan comments are kept (PLANPR_COMMENT_MODE):
	// update (the default) or changes-only.
	CommentMode publish.CommentMode
	// Sink takes the plan comments' reports instead of GitHub when set
	// (GitHub is still read: artifacts, pull requests, lock files).
	Sink publish.Sink
	// Retry tunes GitHub retries (tests shorten the waits).
	Retry *gh.RetryTransport
	// Intake tunes the webhook intake's budget (see webhook.Config).
	IntakeBudget int64
	IntakeWait   time.Duration
}

// Server is the GitHub App: the webhook intake (package webhook) serving
// the App's handlers, which review lock files on pull requests and comment
// plans from workflow runs' artifacts.
type Server struct {
	*webhook.Server
	cfg     ServerConfig
	prLocks webhook.KeyedMutex
	retry   *gh.RetryTransport
	apps    *ghinstallation.AppsTransport

	mu       sync.Mutex
	clients  map[int64]*gh.Client
	botLogin string // SLUG[bot], once known
}

// NewServer checks the configuration and builds the server.
func NewServer(cfg ServerConfig) (*Server, error) {
	if cfg.AppID == 0 {
		return nil, errors.New("PLANPR_APP_ID is not set")
	}
	if cfg.APIURL == "" {
		cfg.APIURL = "https://api.github.com"
	}
	retry := cfg.Retry
	if retry == nil {
		retry = &gh.RetryTransport{}
	}
	s := &Server{cfg: cfg, retry: retry, clients: map[int64]*gh.Client{}}
	hooks, err := webhook.New(webhook.Config{
		Secret: cfg.WebhookSecret, Workers: cfg.Workers, Logger: cfg.Logger,
		Store:       webhook.StoreConfig{DataDir: cfg.DataDir, DatabaseURL: cfg.DatabaseURL},
		MaxAttempts: cfg.MaxAttempts, RedeliverEvery: cfg.Redeliver, JobTimeout: cfg.JobTimeout,
		IntakeBudget: cfg.IntakeBudget, IntakeWait: cfg.IntakeWait, SeparateMetrics: cfg.SeparateMetrics,
		Gauges: func(w io.Writer) {
			webhook.Metric(w, "planpr_github_requests_total", "counter", "GitHub API requests sent (retries included).", retry.Calls.Load())
			webhook.Metric(w, "planpr_github_errors_total", "counter", "GitHub API requests that failed (status 4xx/5xx or no answer).", retry.Errors.Load())
		},
	}, s)
	if err != nil {
		return nil, err
	}
	s.Server = hooks
	if s.apps, err = ghinstallation.NewAppsTransport(retry, cfg.AppID, cfg.PrivateKey); err != nil {
		return nil, fmt.Errorf("PLANPR_PRIVATE_KEY: %w", err)
	}
	s.apps.BaseURL = strings.TrimSuffix(cfg.APIURL, "/")
	return s, nil
}

// Handler serves POST /webhook, GET /healthz and GET /metrics.
func (s *Server) Handler() http.Handler { return s.HTTPHandler() }

// Accept reads a verified delivery: pull_request opened, synchronize and
// reopened, and workflow_run completed are work; the rest is ignored.
// Deliveries of one pull request are keyed by it: the newest supersedes
// those still waiting, and they run one at a time.
func (s *Server) Accept(event string, body []byte) (*webhook.Job, error) {
	var ev bot.Event
	if err := json.Unmarshal(body, &ev); err != nil {
		return nil, err
	}
	if !wanted(event, &ev) {
		return nil, nil
	}
	job := &webhook.Job{Log: []any{"repo", boundedName(ev.Repository.FullName)}}
	if ev.Installation != nil {
		job.Tenant = fmt.Sprintf("installation-%d", ev.Installation.ID)
	}
	if repo, err := gh.ParseRepo(ev.Repository.FullName); err == nil && event == "pull_request" {
		job.Key = fmt.Sprintf("%s#%d", repo, ev.PullRequest.Number)
		job.Log = append(job.Log, "pr", ev.PullRequest.Number)
	}
	return job, nil
}

func wanted(event string, ev *bot.Event) bool {
	switch event {
	case "pull_request":
		if ev.PullRequest != nil && (ev.Action == "labeled" || ev.Action == "unlabeled") {
			return ev.Label != nil && ev.Label.Name == report.LabelDestroyApproved // its checks are judged again
		}
		return ev.PullRequest != nil && (ev.Action == "opened" || ev.Action == "synchronize" || ev.Action == "reopened")
	case "workflow_run":
		return ev.WorkflowRun != nil && ev.Action == "completed"
	}
	return false
}

// Handle does one delivery's work.
func (s *Server) Handle(ctx context.Context, event string, body []byte, log *slog.Logger) error {
	var ev bot.Event
	if err := json.Unmarshal(body, &ev); err != nil {
		return err
	}
	repo, err := gh.ParseRepo(ev.Repository.FullName)
	if err != nil || ev.Installation == nil {
		return errors.New("delivery without a repository or installation")
	}
	client, err := s.client(ev.Installation.ID)
	if err != nil {
		return fmt.Errorf("no client for installation %d: %w", ev.Installation.ID, err)
	}
	api := bot.ForOneRun(client)
	switch event {
	case "pull_request":
		if ev.Action == "labeled" || ev.Action == "unlabeled" {
			err = s.rejudge(ctx, api, repo, &ev, log)
			break
		}
		err = s.reviewPR(ctx, api, repo, &ev, log)
	case "workflow_run":
		err = s.commentRun(ctx, api, repo, &ev, log)
	}
	if err != nil {
		return retryable(maskedError{err})
	}
	return nil
}

// retryable leaves err to be retried when GitHub or the network failed
// (GitHub's 5xx, its rate limits, a connection or a timeout), and marks
// it permanent otherwise: a refused manifest or artifact, a 404, a 422
// stay what they are however often they are tried.
func retryable(err error) error {
	var se *gh.StatusError
	if errors.As(err, &se) {
		if se.Temporary() {
			return err
		}
		return webhook.Permanent(err)
	}
	var ne net.Error
	if errors.As(err, &ne) || errors.Is(err, context.DeadlineExceeded) || errors.Is(err, io.ErrUnexpectedEOF) {
		return err
	}
	return webhook.Permanent(err)
}

// maskedError shows an error with credentials masked, and keeps what it
// wraps (a rate limit's Retry-After) for the queue.
type maskedError struct{ err error }

func (e maskedError) Error() string { return mask.MaskCredentials(e.err.Error()) }
func (e maskedError) Unwrap() error { return e.err }

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
	// The client lives across deliveries: what it read before is asked
	// for with If-None-Match, and an unchanged answer costs no rate limit.
	c, err := gh.NewClient(&http.Client{Transport: &gh.ETagTransport{Base: itr}}, s.cfg.APIURL, s.cfg.GraphQLURL, "")
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
	c, err := s.appClient()
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

// appClient is a client acting as the App itself (its JWT), not as an
// installation.
func (s *Server) appClient() (*gh.Client, error) {
	return gh.NewClient(&http.Client{Transport: s.apps}, s.cfg.APIURL, s.cfg.GraphQLURL, "")
}

// RecentDeliveries lists the App's webhook deliveries since a time, for
// the intake's sweep of missed ones (see webhook.Redeliverer).
func (s *Server) RecentDeliveries(ctx context.Context, since time.Time) ([]webhook.HookDelivery, error) {
	c, err := s.appClient()
	if err != nil {
		return nil, err
	}
	list, err := c.HookDeliveries(ctx, since)
	if err != nil {
		return nil, err
	}
	out := make([]webhook.HookDelivery, len(list))
	for i, d := range list {
		out[i] = webhook.HookDelivery{ID: d.ID, GUID: d.GUID, StatusCode: d.StatusCode, Event: d.Event, DeliveredAt: d.DeliveredAt, Redelivery: d.Redelivery}
	}
	return out, nil
}

// Redeliver asks GitHub to send a delivery again.
func (s *Server) Redeliver(ctx context.Context, id int64) error {
	c, err := s.appClient()
	if err != nil {
		return err
	}
	return c.Redeliver(ctx, id)
}

// LockKey is the key of the App's lock-file comment: the same as the
// Action's and dry-run's comment of lock files alone. ("lock-files", its
// old key, stays reserved: a manifest cannot take it.)
const LockKey = report.LocksKey

// reviewPR reviews the lock files a pull request changes and keeps the
// lock comment.
//
// The pull request is read again first: deliveries wait in the queue, and
// the comment is for its head now, whichever delivery asked.
func (s *Server) reviewPR(ctx context.Context, api bot.GitHub, repo gh.Repo, ev *bot.Event, log *slog.Logger) error {
	pr, err := api.PullRequest(ctx, repo, ev.PullRequest.Number)
	if err != nil {
		return err
	}
	if pr.HeadSHA != ev.PullRequest.Head.SHA {
		log.Info("the pull request moved on since this delivery: reviewing its head now", "delivery_head", bot.ShortSHA(ev.PullRequest.Head.SHA), "head", bot.ShortSHA(pr.HeadSHA))
	}
	if ev.Action == "synchronize" {
		if err := dropApproval(ctx, api, repo, pr.Number, log); err != nil {
			return err
		}
	}
	pairs, capped, err := bot.ChangedLockFiles(ctx, api, repo, pr.Number)
	if err != nil {
		return err
	}
	if capped {
		log.Warn("the pull request lists 3000 files or more; lock files beyond them are not reviewed")
	}
	if len(pairs) == 0 {
		return nil
	}
	locks, err := s.reviewPRLocks(ctx, api, repo, pr, pairs, flavor.Unknown, ev.Installation.ID, log)
	if err != nil {
		return err
	}
	author, err := s.login(ctx)
	if err != nil {
		return err
	}
	// The lock files of no root a plan comment holds: the rest are
	// reviewed in those comments, as the Action does.
	marker := report.Marker{Key: LockKey, SHA: pr.HeadSHA, At: bot.UnixTime(ev.PullRequest.UpdatedAt)}
	lc, err := publish.PublishUnclaimedLocks(ctx, api, repo, pr.Number, author, marker, locks,
		bot.LockBuilder(report.Request{Version: s.cfg.Version, CheckRoom: publish.CheckSummaryRoom}), publish.ModeUpdate)
	if err != nil {
		return err
	}
	if lc != nil {
		if err := s.keepCheck(ctx, api, repo, pr.Number, ev, LockKey, pr.HeadSHA, lc.Result, lc.Locks, lc.CheckBody, lc.URL, log); err != nil {
			return err
		}
	}
	log.Info("lock comment kept", "lock_files", len(locks))
	return s.labels(ctx, api, repo, pr.Number, author, log)
}

// reviewPRLocks compares the lock files of a pull request at its merge
// base and head (configuration read through the API, within budgets) and
// verifies their new hashes.
func (s *Server) reviewPRLocks(ctx context.Context, api bot.GitHub, repo gh.Repo, pr *gh.PullRequest, pairs []bot.LockPair, tool flavor.Flavor, installation int64, log *slog.Logger) ([]*lockdiff.FileDiff, error) {
	budget := bot.NewConfigBudget()
	locks, err := bot.ReviewLocks(ctx, api, repo, pr, pairs, tool, s.cfg.Platforms, func(dir string) (*lockdiff.Config, string) {
		cfg, skipped, err := bot.ConfigAtRef(ctx, api, repo, dir, pr.HeadSHA, budget)
		if err != nil {
			log.Warn("cannot read the root module's configuration", "dir", boundedName(dir), "error", mask.MaskCredentials(err.Error()))
		}
		return cfg, bot.SkippedNote(dir, skipped)
	})
	if err != nil {
		return nil, err
	}
	if s.cfg.Verifier != nil {
		// A registry out of reach is a warning in the comment; an
		// installation's requests are bounded by the hour.
		s.cfg.Verifier.Verify(verify.WithRequester(ctx, fmt.Sprintf("installation-%d", installation)), locks)
	}
	return locks, nil
}

// labels keeps planpr's labels as the Action does, from every planpr
// comment on the pull request. A token that cannot change labels is a
// warning in the log: the comment is what matters.
func (s *Server) labels(ctx context.Context, api bot.GitHub, repo gh.Repo, pr int, author string, log *slog.Logger) error {
	_, err := publish.SyncLabels(ctx, api, api, repo, pr, author)
	if errors.Is(err, gh.ErrReadOnly) {
		log.Warn("the App cannot change this pull request's labels: give it pull requests (write)")
		return nil
	}
	return err
}

// commentRun renders the plans a finished workflow run uploaded as
// planpr* artifacts and comments on its pull request.
func (s *Server) commentRun(ctx context.Context, api bot.GitHub, repo gh.Repo, ev *bot.Event, log *slog.Logger) error {
	run := ev.WorkflowRun
	arts, err := api.ListArtifacts(ctx, repo, run.ID)
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "planpr-artifacts-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	var unpacked []unpackedArtifact // each downloaded once, whichever way it is commented
	budget := artifact.NewJobBudget()
	for _, a := range arts {
		if !strings.HasPrefix(a.Name, "planpr") || a.Expired {
			continue
		}
		if !bot.KeyPattern().MatchString(a.Name) {
			log.Warn("artifact name is not a usable key: skipped", "artifact", boundedName(a.Name))
			continue
		}
		dir, err := unpackArtifact(ctx, api, repo, a, tmp, budget)
		var bad *badArtifact
		if errors.As(err, &bad) {
			log.Warn("artifact skipped: it cannot be read", "artifact", boundedName(a.Name), "error", boundedName(err.Error()))
			continue
		}
		if err != nil {
			return fmt.Errorf("artifact %s: %w", a.Name, err)
		}
		unpacked = append(unpacked, unpackedArtifact{a, dir})
	}
	// Packed roots (a matrix's pack): one comment for the pull request.
	if done, err := s.commentRoots(ctx, api, repo, ev, unpacked, tmp, budget, log); err != nil || done {
		return err
	}
	for _, u := range unpacked {
		if err := s.commentArtifact(ctx, api, repo, ev, u, log); err != nil {
			return fmt.Errorf("artifact %s: %w", u.Name, err)
		}
	}
	return nil
}

// unpackedArtifact is an artifact and the directory it was unpacked in.
type unpackedArtifact struct {
	gh.Artifact
	dir string
}

// commentArtifact comments an unpacked artifact of the run.
func (s *Server) commentArtifact(ctx context.Context, api bot.GitHub, repo gh.Repo, ev *bot.Event, a unpackedArtifact, log *slog.Logger) error {
	run, dir := ev.WorkflowRun, a.dir
	var manifest bot.Manifest
	var err error
	if path := filepath.Join(dir, "planpr.json"); fileExists(path) {
		if manifest, err = bot.ReadManifestFile(path); err != nil {
			return fmt.Errorf("%s", strings.TrimPrefix(err.Error(), dir+string(filepath.Separator)))
		}
	}
	var planFiles, schemas []string
	err = filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		switch base := filepath.Base(path); {
		case base == "planpr.json":
		case strings.HasSuffix(base, ".json"), strings.HasSuffix(base, ".jsonl"), strings.HasSuffix(base, ".log"), strings.HasSuffix(base, ".sarif"):
			planFiles = append(planFiles, path)
		}
		return nil
	})
	if err != nil {
		return err
	}
	files := tofujson.NewFiles() // the artifact's inputs, each opened once
	// Scanners' reports in the artifact: their findings land on the
	// resources they name (the App has no checkout to place the others
	// by their lines: those are listed apart).
	planFiles, reports := inputs.TakeReports(files, planFiles)
	defer files.Close()
	applied := run.Event == "push" && bot.AnyApply(files, planFiles) // an apply after the merge: the merged pull request's
	var pr int
	if applied {
		if pr, err = api.MergedPullRequest(ctx, repo, run.HeadSHA); err == nil && pr == 0 {
			err = fmt.Errorf("%w: no pull request's merge made %s", bot.ErrNoRunPR, bot.ShortSHA(run.HeadSHA))
		}
	} else {
		pr, err = bot.RunPR(ctx, api, repo, ev, manifest.PR)
	}
	if err != nil {
		return err
	}
	planFiles, schemas = bot.TakeSchemas(files, planFiles)
	plans := artifactPlans(files, dir, a.Name, manifest.Root, planFiles)
	if err := inputs.WithReports(plans, reports, nil); err != nil {
		return err
	}
	mode, _ := review.ParseMode(manifest.Mode) // validated with the manifest
	tool, _ := flavor.Parse(manifest.Flavor)
	marker := report.Marker{Key: cmp.Or(manifest.Key, a.Name), SHA: run.HeadSHA, At: bot.UnixTime(run.RunStartedAt), Run: run.ID}
	title := report.Title(marker.Key)
	if applied {
		marker.Key, title = marker.Key+"/applied", title+" · applied"
	}
	req := report.Request{Plans: plans, Marker: marker, Version: s.cfg.Version, Title: title, RunURL: run.HTMLURL,
		Plan: review.PlanOptions{Mode: mode, Flavor: tool, Files: files}, CheckRoom: publish.CheckSummaryRoom}
	if repoURL, _, ok := strings.Cut(run.HTMLURL, "/actions/runs/"); ok && run.HeadSHA != "" {
		req.SourceURL = repoURL + "/blob/" + run.HeadSHA // errors link their lines at the run's commit
	}
	// With its root, the plan's comment holds that root's lock files, as
	// the Action's does; the others stay in the lock comment.
	var locks []*lockdiff.FileDiff
	if manifest.Root != "" {
		prInfo, err := api.PullRequest(ctx, repo, pr)
		if err != nil {
			return err
		}
		pairs, _, err := bot.ChangedLockFiles(ctx, api, repo, pr)
		if err != nil {
			return err
		}
		if len(pairs) > 0 {
			if locks, err = s.reviewPRLocks(ctx, api, repo, prInfo, pairs, tool, ev.Installation.ID, log); err != nil {
				return err
			}
		}
		req.Marker.Roots = []string{manifest.Root}
		req.Locks, _ = publish.ByRoots(locks, req.Marker.Roots)
		marker = req.Marker
	}
	if len(schemas) > 0 {
		if req.Plan.Schemas, err = files.ReadSchemas(schemas[0]); err != nil {
			return err
		}
		req.Plan.SchemasFile = filepath.Base(schemas[0])
	}
	rep, err := report.Build(ctx, req)
	if err != nil {
		return err
	}
	unlock := s.prLocks.Lock(fmt.Sprintf("%s#%d", repo, pr))
	defer unlock()
	author, err := s.login(ctx)
	if err != nil {
		return err
	}
	sink := s.sink(&githubSink{s: s, api: api, repo: repo, pr: pr, author: author, ev: ev, sha: run.HeadSHA, req: req,
		locks: locks, lockComment: manifest.Root != "", changesOnly: s.cfg.CommentMode == publish.ModeChangesOnly, what: "plan comment " + a.Name, log: log})
	return sink.Publish(ctx, publish.Publication{Reports: []*report.Report{rep}, Outputs: []map[string]string{rep.Outputs()}})
}

// sink is where the App's reports go: GitHub, unless the configuration
// names another.
func (s *Server) sink(github *githubSink) publish.Sink {
	if s.cfg.Sink != nil {
		return s.cfg.Sink
	}
	return github
}

// githubSink is the App's sink for one pull request: each report's
// comment kept (or, changes-only, retracted when it has nothing to say)
// with its check on sha, then the lock comment of the lock files no
// comment holds (lockComment), then planpr's labels. The caller holds the
// pull request's lock.
type githubSink struct {
	s           *Server
	api         bot.GitHub
	repo        gh.Repo
	pr          int
	author      string
	ev          *bot.Event
	sha         string
	req         report.Request // the report's request: its marker, its locks; the lock comment's too
	locks       []*lockdiff.FileDiff
	lockComment bool
	changesOnly bool
	what        string // for the log
	log         *slog.Logger
}

func (g *githubSink) Publish(ctx context.Context, pub publish.Publication) error {
	marker := g.req.Marker
	for _, rep := range pub.Reports {
		if g.changesOnly && bot.QuietReport(rep.Result, g.req.Locks) {
			n, err := publish.Retract(ctx, g.api, g.repo, g.pr, g.author, marker)
			if err != nil {
				return err
			}
			g.log.Info(g.what+": nothing to say (changes-only)", "removed", n)
			continue
		}
		res, err := publish.Upsert(ctx, g.api, g.repo, g.pr, g.author, marker, rep.Comment, publish.ModeUpdate)
		if err != nil {
			return err
		}
		g.log.Info(g.what, "action", res.Action)
		details := ""
		if res.Comment != nil {
			details = res.Comment.URL
		}
		if err := g.s.keepCheck(ctx, g.api, g.repo, g.pr, g.ev, marker.Key, g.sha, rep.Result, g.req.Locks, rep.Check, details, g.log); err != nil {
			return err
		}
	}
	if g.lockComment {
		if _, err := publish.PublishUnclaimedLocks(ctx, g.api, g.repo, g.pr, g.author, marker, g.locks, bot.LockBuilder(g.req), publish.ModeUpdate); err != nil {
			return err
		}
	}
	return g.s.labels(ctx, g.api, g.repo, g.pr, g.author, g.log)
}

// artifactPlans groups an artifact's plans and streams into root modules.
// Without a root they are named by their place in the artifact (or the
// artifact's name); with the manifest's root, by their place in the
// repository, as the Action names them.
func artifactPlans(open *tofujson.Files, dir, artifactName, root string, planFiles []string) []inputs.Root {
	files := make([]inputs.RootFile, len(planFiles))
	for i, f := range planFiles {
		rel, err := filepath.Rel(dir, f)
		if err != nil {
			rel = filepath.Base(f)
		}
		if root != "" {
			files[i] = inputs.InDirectory(filepath.Join(filepath.FromSlash(root), rel))
			files[i].Path = f
			continue
		}
		files[i] = inputs.InDirectory(f)
		files[i].Name = cmp.Or(strings.TrimPrefix(filepath.Dir(rel), "."), artifactName)
	}
	plans := inputs.Group(open, files)
	for i := range plans {
		if plans[i].Path == "" {
			continue
		}
		rel, _ := filepath.Rel(dir, plans[i].Path)
		if root != "" {
			plans[i].Source, plans[i].Root = path.Join(root, filepath.ToSlash(rel)), root
		} else {
			plans[i].Source = artifactName + "/" + filepath.ToSlash(rel)
		}
	}
	return plans
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// boundedName is an untrusted name fit for a log line.
func boundedName(s string) string {
	if len(s) > 100 {
		s = strings.ToValidUTF8(s[:100], "") + "…"
	}
	return bot.SafeLog(s)
}
