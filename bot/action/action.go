package action

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"github.com/planpr/planpr/bot"
	"io"
	"io/fs"
	"maps"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/planpr/planpr/flavor"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/planpr/planpr/bot/gh"
	"github.com/planpr/planpr/bot/pack"
	"github.com/planpr/planpr/bot/publish"
	"github.com/planpr/planpr/lockdiff"
	"github.com/planpr/planpr/lockdiff/verify"
	"github.com/planpr/planpr/render/fingerprint"
	"github.com/planpr/planpr/render/inputs"
	"github.com/planpr/planpr/render/mask"
	"github.com/planpr/planpr/render/md"
	"github.com/planpr/planpr/render/report"
	"github.com/planpr/planpr/render/review"
	"github.com/planpr/planpr/render/tofujson"
)

// Env is the Action's world: its environment (the INPUT_* inputs and
// GITHUB_* variables, read by package main) and where to write.
type Env struct {
	Getenv     func(string) string
	Stdout     io.Writer
	HTTPClient *http.Client // nil: a retrying client
	Version    string
	// Sink takes the run's reports instead of GitHub when set (GitHub is
	// still read: the pull request, its lock files). The job summary and
	// the step outputs are written all the same.
	Sink publish.Sink
}

func (e Env) input(name string) string {
	return strings.TrimSpace(e.Getenv("INPUT_" + strings.ToUpper(name)))
}

func (e Env) boolInput(name string, def bool) (bool, error) {
	switch strings.ToLower(e.input(name)) {
	case "":
		return def, nil
	case "true", "yes", "1":
		return true, nil
	case "false", "no", "0":
		return false, nil
	}
	return false, fmt.Errorf("input %s: %q is not true or false", name, e.input(name))
}

// Labels planpr manages.
const (
	LabelDestroy   = report.LabelDestroy
	LabelLockAlert = report.LabelLockAlert
)

// actionPlan is what the Action will do, all of it decided and rendered
// before anything is written to GitHub.
type actionPlan struct {
	in          *actionInputs
	repo        gh.Repo
	pr          int
	marker      report.Marker
	mode        review.Mode
	flavor      flavor.Flavor
	platforms   []string // the team's declared platforms
	commentMode publish.CommentMode
	jobSummary  bool
	labels      bool
	plans       []inputs.Root
	schemas     *tofujson.Schemas
	schemasFile string
	schemasOf   map[string]review.PlanSchemas // each root's, beside its plan
	labelsNow   []string                      // the pull request's labels once kept this run; nil when not
	files       *tofujson.Files               // the run's inputs, each opened once; closed when the run ends
	lockSpec    string
	locks       []*lockdiff.FileDiff
	verifier    *verify.Verifier // nil: lock hashes not checked against the registries
	ev          *bot.Event
	manifest    bot.Manifest
	author      string // the login planpr's comments carry
	title       string
	warnings    []string // said in the log once the run starts
	// drift says the run is a scheduled plan of the default branch: each
	// root's report keeps its drift issue (see driftSink).
	drift bool
	// queueFailures say why a merge group's plan is not the one reviewed
	// (see queueGate).
	queueFailures []string
}

// request is the run's report request: the plans and how they were
// made, the marker and title, the run it links, and the bodies the
// Action's sinks need (the comment, the job summary, the check's, the
// machine summary).
func (p *actionPlan) request(env Env) report.Request {
	req := report.Request{
		Plans:  p.plans,
		Plan:   review.PlanOptions{Mode: p.mode, Schemas: p.schemas, SchemasFile: p.schemasFile, SchemasOf: p.schemasOf, Flavor: p.flavor, Files: p.files},
		Marker: p.marker, Version: env.Version, Locks: p.locks, Title: p.title, Missing: report.Missing(p.in.Roots, p.plans),
		FullText: "the job summary of this run", JobSummaryBytes: bot.MaxJobSummary, CheckRoom: publish.CheckSummaryRoom, Summary: true,
	}
	if s, r, id := env.Getenv("GITHUB_SERVER_URL"), env.Getenv("GITHUB_REPOSITORY"), env.Getenv("GITHUB_RUN_ID"); s != "" && r != "" && id != "" {
		req.RunURL = s + "/" + r + "/actions/runs/" + id
		req.FullText = "the [job summary](" + req.RunURL + ") of this run"
	}
	if s, r := env.Getenv("GITHUB_SERVER_URL"), env.Getenv("GITHUB_REPOSITORY"); s != "" && r != "" && p.marker.SHA != "" {
		req.SourceURL = s + "/" + r + "/blob/" + p.marker.SHA
		if p.in.Check && p.pr != 0 {
			req.Check, req.CheckURL = report.CheckName(p.marker.Key), fmt.Sprintf("%s/%s/pull/%d/checks", s, r, p.pr)
		}
	}
	return req
}

// commentKept is what keeping a unit's comment did.
type commentKept int

const (
	commentPosted    commentKept = iota // created, updated or unchanged
	commentRetracted                    // nothing to say (changes-only): removed
	commentReadOnly                     // the token cannot comment: nothing more is posted
)

// publishComment keeps the unit's comment on the pull request, and
// records its id and URL in outputs. A read-only token (a fork's) is a
// warning.
func (p *actionPlan) publishComment(ctx context.Context, log *bot.ActionLog, api publish.Comments, body string, outputs map[string]string, quiet bool) (commentKept, error) {
	if p.commentMode == publish.ModeChangesOnly && quiet {
		n, err := publish.Retract(ctx, api, p.repo, p.pr, p.author, p.marker)
		if err != nil && !errors.Is(err, gh.ErrReadOnly) {
			return 0, err
		}
		log.Printf("planpr: nothing to say for %s (comment-mode changes-only): %d comments removed", p.marker.Key, n)
		return commentRetracted, nil
	}
	up, err := publish.Upsert(ctx, api, p.repo, p.pr, p.author, p.marker, body, p.commentMode)
	switch {
	case errors.Is(err, gh.ErrReadOnly):
		log.Command("warning", "planpr: the token cannot comment on this pull request (a fork's read-only token?); the report is in the job summary. Use the workflow_run pattern in the README to comment on fork pull requests.")
		return commentReadOnly, nil
	case err != nil:
		return 0, err
	}
	log.Printf("planpr: comment %s on %s#%d", up.Action, p.repo, p.pr)
	if up.Comment != nil {
		outputs["comment-id"] = strconv.FormatInt(up.Comment.ID, 10)
		outputs["comment-url"] = up.Comment.URL
	}
	return commentPosted, nil
}

// publishRest keeps what the run keeps once, whatever its comments: the
// comment of the lock files no root holds, and planpr's labels.
func (p *actionPlan) publishRest(ctx context.Context, log *bot.ActionLog, api *gh.Client, comments publish.Comments, own report.Marker, req report.Request, otherLocks []*lockdiff.FileDiff) error {
	if len(p.plans) > 0 && p.lockSpec != "off" {
		if _, err := publish.PublishUnclaimedLocks(ctx, comments, p.repo, p.pr, p.author, own, otherLocks, bot.LockBuilder(req), p.commentMode); err != nil {
			return err
		}
	}
	if !p.labels {
		return nil
	}
	labels, err := publish.SyncLabels(ctx, comments, api, p.repo, p.pr, p.author)
	if errors.Is(err, gh.ErrReadOnly) {
		log.Command("warning", "planpr: the token cannot change labels")
	} else if err != nil {
		return err
	}
	p.labelsNow = labels // the checks read them next: not listed again
	return nil
}

// author is the login planpr's comments carry: the comment-author input,
// else github-actions[bot] for the workflow's own token, else the token's
// (GET /user).
func (p *actionPlan) login(ctx context.Context, api *gh.Client) error {
	if p.author = p.in.CommentAuthor; p.author == "" && p.in.WorkflowToken {
		p.author = gh.ActionsBot
	}
	if p.author == "" {
		login, err := api.Login(ctx)
		if err != nil {
			return err
		}
		p.author = cmp.Or(login, gh.ActionsBot)
	}
	return nil
}

// units are the run's comments: the run itself, or with comment-per: root
// and no key given, one per root it brings, each keyed, titled and
// holding the lock files of its own root.
func (p *actionPlan) units(workspace string) []*actionPlan {
	perRoot := p.in.CommentPer == commentPerRoot || p.drift // a drift issue is a root's
	if p.drift && p.in.Key == "" && len(p.plans) == 1 {
		p.marker.Key = driftKey(p.plans[0]) // the same key however many roots a run brings
	}
	if !perRoot || p.in.Key != "" || p.manifest.Key != "" || len(p.plans) < 2 {
		return []*actionPlan{p}
	}
	var units []*actionPlan
	for _, pl := range p.plans {
		u := *p
		u.plans = []inputs.Root{pl}
		u.marker.Key = report.Key([]string{pl.Name})
		if p.drift {
			u.marker.Key = driftKey(pl)
		}
		u.marker.Roots = publish.PlanRoots(u.plans, workspace)
		u.title = report.Title(u.marker.Key)
		if p.in.Title != "" {
			u.title = p.in.Title + " · " + pl.Name
		}
		units = append(units, &u)
	}
	return units
}

// builtUnit is a unit's report, built before anything is posted.
type builtUnit struct {
	u   *actionPlan
	req report.Request
	rep *report.Report
}

// build reads the unit's plans once: its fingerprints, what a run after
// a merge does (gate, or the applied comment), and its report. done says
// the run was a gate's and has nothing more to post.
func (p *actionPlan) build(ctx context.Context, env Env, log *bot.ActionLog, api *gh.Client, units int) (b builtUnit, done bool, err error) {
	// The published fingerprint and, with the review's secret, the keyed
	// one (sensitive values count, and the review is authenticated): the
	// plans read once for both.
	fpOpts := []fingerprint.Options{{}}
	if len(p.in.ReviewSecret) > 0 {
		fpOpts = append(fpOpts, fingerprint.Options{Key: p.in.ReviewSecret})
	}
	sums, err := fingerprint.OfRootsEach(ctx, p.files, report.Roots(p.plans), fpOpts...)
	if err != nil {
		return b, false, err
	}
	fp, keyed := sums[0], ""
	if len(sums) > 1 {
		keyed = sums[1]
	}
	if api != nil { // a run after a merge asks GitHub which pull request it answers
		if done, err := p.afterMerge(ctx, env, log, api, fp, keyed); done || err != nil {
			return b, done, err
		}
	}
	if keyed != "" && p.pr != 0 && p.marker.SHA != "" {
		p.marker.Review = p.review(p.pr, p.marker.SHA, keyed).MAC()
	}
	req := p.request(env)
	req.Fingerprint = fp
	req.JobSummaryBytes /= units // the units' job summaries are one
	// Every body before writing anything, from one read of the plans: bad
	// input posts nothing.
	rep, err := report.Build(ctx, req)
	return builtUnit{u: p, req: req, rep: rep}, false, err
}

// Run is `planpr action`: render the plans, streams and lock-file
// changes of a pull request, and keep one comment per key on it.
func Run(ctx context.Context, env Env) (err error) {
	log := bot.NewActionLog(env.Stdout)
	defer func() {
		if err != nil {
			log.Command("error", "planpr: "+mask.MaskCredentials(err.Error()))
		}
		log.Close()
	}()
	p, err := prepare(env)
	if err != nil {
		return err
	}
	defer p.files.Close()
	if err := p.canGate(env.Getenv("GITHUB_EVENT_NAME")); err != nil {
		return err
	}
	if p.labelEvent() && len(p.plans) == 0 {
		return p.rejudge(ctx, env, log)
	}
	for _, w := range p.warnings {
		log.Command("warning", w)
	}
	for _, n := range p.in.Notices {
		log.Command("notice", n)
	}
	if p.in.Pack != "" {
		m := pack.Manifest{PR: p.pr, SHA: p.marker.SHA, Mode: p.in.Mode, Flavor: p.in.Flavor}
		var roots []pack.Root
		for _, pl := range p.plans {
			roots = append(roots, pack.Root{Name: pl.Name, Root: pl.Root, Path: pl.Path, Streams: pl.Streams, Findings: pl.Findings, Costs: pl.Costs, Policies: pl.Policies})
		}
		return pack.Write(p.in.Pack, roots, p.schemasFile, m, log.Printf)
	}
	// comment-mode: off makes no GitHub call at all: the job summary and
	// the outputs are the report (no token needed, no lock review, which
	// asks GitHub what the pull request changes, and no check).
	var api *gh.Client
	if p.commentMode != publish.ModeOff {
		client := env.HTTPClient
		if client == nil {
			client = &http.Client{Transport: &gh.RetryTransport{}}
		}
		if api, err = gh.NewClient(client, env.Getenv("GITHUB_API_URL"), env.Getenv("GITHUB_GRAPHQL_URL"), p.in.Token); err != nil {
			return err
		}
		if err := p.findPR(ctx, log, api); err != nil {
			return err
		}
	}
	if api != nil && p.pr != 0 && p.lockSpec != "off" {
		if p.locks, err = actionLocks(ctx, env, log, api, p); err != nil {
			return err
		}
		if p.verifier != nil {
			p.verifier.Verify(ctx, p.locks) // a registry out of reach is a warning in the comment
		}
	}
	if len(p.plans) == 0 && len(p.locks) == 0 && len(p.in.Roots) == 0 {
		// Nothing to say is not a green comment: name what was missing.
		return fmt.Errorf("nothing to report: the plan input (%q) matched no plan or stream, and the pull request changes no lock file; point plan at the `tofu show -json` output, or ui-stream at the `tofu plan -json` stream", p.in.Plan)
	}
	workspace := env.Getenv("GITHUB_WORKSPACE")
	units := p.units(workspace)
	// Each comment holds its own roots' lock files; the lock files of no
	// root this run plans go to the lock comment.
	all, own := p.locks, p.marker
	var otherLocks []*lockdiff.FileDiff
	if p.pr != 0 && p.lockSpec != "off" && len(p.plans) > 0 {
		own.Roots = nil
		for _, u := range units {
			if len(units) == 1 {
				u.marker.Roots = publish.PlanRoots(u.plans, workspace)
				if p.manifest.Root != "" {
					u.marker.Roots = []string{p.manifest.Root}
				}
			}
			u.locks, _ = publish.ByRoots(all, u.marker.Roots)
			own.Roots = append(own.Roots, u.marker.Roots...)
		}
		_, otherLocks = publish.ByRoots(all, own.Roots)
	}
	var built []builtUnit
	for _, u := range units {
		b, done, err := u.build(ctx, env, log, api, len(units))
		if err != nil {
			return err
		}
		if !done {
			built = append(built, b)
		}
	}
	if len(built) == 0 {
		return nil // the run gated an apply: nothing to post
	}
	// After a merge, the merged pull request is the one answered (see
	// afterMerge), at the merge's commit.
	p.pr, own.SHA = built[0].u.pr, built[0].u.marker.SHA
	if p.jobSummary {
		// The comment matters more than the summary: a summary that cannot
		// be written is a warning, and the comment is still posted.
		var summary []string
		for _, b := range built {
			summary = append(summary, b.rep.JobSummary)
		}
		if err := writeJobSummary(env.Getenv("GITHUB_STEP_SUMMARY"), strings.Join(summary, "\n")); err != nil {
			log.Command("warning", "planpr: could not write the job summary ("+mask.MaskCredentials(err.Error())+"); the comment is posted all the same")
		}
	}
	outputs := make([]map[string]string, len(built))
	for i, b := range built {
		log.Command("group", "planpr comment "+b.u.marker.Key)
		log.Printf("%s", b.rep.Comment)
		log.Command("endgroup", "")
		outputs[i] = b.rep.Outputs() // the machine summary among them: what workflows branch on
	}
	pub := publish.Publication{Outputs: outputs}
	posting := make([]*actionPlan, len(built))
	for i, b := range built {
		pub.Reports, posting[i] = append(pub.Reports, b.rep), b.u
	}
	// Where the reports go: a pull request's comments, a merge group's
	// checks, the roots' drift issues — or the sink the caller gave.
	var sink publish.Sink
	switch {
	case env.Sink != nil:
		sink = env.Sink
	case api == nil:
		log.Printf("planpr: comment-mode off: nothing posted; the job summary and the outputs have the report")
	case p.ev.MergeGroup != nil:
		sink = &queueSink{log: log, api: api, p: p, units: posting}
	case p.pr == 0 && p.drift:
		sink = &driftSink{log: log, api: api, p: p, units: posting, runID: env.Getenv("GITHUB_RUN_ID"), sha: env.Getenv("GITHUB_SHA")}
	case p.pr == 0:
		log.Command("notice", "planpr: not a pull-request event and no planpr.json names one; the job summary has the report")
	default:
		sink = &githubSink{log: log, api: api, p: p, units: posting, lockReq: built[0].req, own: own, otherLocks: otherLocks}
	}
	if sink != nil {
		if err := sink.Publish(ctx, pub); err != nil {
			return err
		}
	}
	if err := writeOutputs(env.Getenv("GITHUB_OUTPUT"), report.MergeOutputs(outputs)); err != nil {
		log.Command("warning", "planpr: could not write the step outputs ("+mask.MaskCredentials(err.Error())+")")
	}
	return nil
}

// queueSink answers a merge queue: each unit's check run on the merge
// group's head commit, judged by fail-on on the plan made there (and,
// with reviewed: required, failing when that plan is not the one
// reviewed), so that a required check never leaves the queue waiting.
// Nothing else is posted: the group has no pull request of its own.
type queueSink struct {
	log   *bot.ActionLog
	api   *gh.Client
	p     *actionPlan
	units []*actionPlan // the i-th report's
}

func (q *queueSink) Publish(ctx context.Context, pub publish.Publication) error {
	p, api, log := q.p, q.api, q.log
	if !p.in.Check {
		log.Printf("planpr: a merge group, and check: false: nothing to post")
		return nil
	}
	for i, rep := range pub.Reports {
		log.Printf("planpr: merge group %s of #%d", bot.ShortSHA(q.units[i].marker.SHA), p.ev.QueuedPR())
		if err := q.units[i].check(ctx, log, api, rep.Result, rep.Check, rep.JobSummary, pub.Outputs[i]); err != nil {
			return err
		}
	}
	if len(p.queueFailures) > 0 {
		return fmt.Errorf("the merge queue's plan is not the one reviewed: %s", p.queueFailures[0])
	}
	return nil
}

// driftKey is a root's drift issue's key: its place in the repository
// (its name when not known), whichever roots a run brings beside it.
func driftKey(r inputs.Root) string {
	if r.Root != "" {
		return r.Root
	}
	return r.Name
}

// driftEvents are the events of a scheduled plan of the default branch:
// its report is each root's drift issue, not a pull request's comment.
var driftEvents = map[string]bool{"schedule": true, "workflow_dispatch": true}

// driftSink keeps one issue per root for what the scheduled plan found
// outside the configuration (see publish.KeepDriftIssue).
type driftSink struct {
	log        *bot.ActionLog
	api        *gh.Client
	p          *actionPlan
	units      []*actionPlan // the i-th report's
	runID, sha string
}

func (d *driftSink) Publish(ctx context.Context, pub publish.Publication) error {
	p, api, log, runID, sha := d.p, d.api, d.log, d.runID, d.sha
	if err := p.login(ctx, api); err != nil {
		return err
	}
	for i, rep := range pub.Reports {
		u, res := d.units[i], rep.Result
		drifted := res.Drift
		what := "changed outside " + p.product(u)
		if drifted == 0 {
			drifted = res.Counts.Add + res.Counts.Change + res.Counts.Destroy - res.Replace
			what = "differ from the configuration"
		}
		key := u.marker.Key
		title := "planpr drift"
		if key != "." && key != report.PullRequestKey {
			title += " · " + key
		}
		noun := "resources"
		if drifted == 1 {
			noun = "resource"
			what = strings.Replace(what, "differ ", "differs ", 1)
		}
		title += fmt.Sprintf(": %d %s %s", drifted, noun, what)
		where := "commit " + bot.ShortSHA(cmp.Or(u.marker.SHA, sha, "unknown"))
		if runID != "" {
			where += " (run " + runID + ")"
		}
		action, issue, err := publish.KeepDriftIssue(ctx, api, p.repo, p.author, publish.Drift{Title: title, Body: rep.Comment, Marker: rep.Marker,
			Drifted: drifted, Failed: res.Errored, Where: where})
		if errors.Is(err, gh.ErrReadOnly) {
			log.Command("warning", "planpr: the token cannot write issues: add `issues: write` to the workflow's permissions; the job summary has the report")
			return nil
		}
		if err != nil {
			return err
		}
		url := ""
		if issue != nil {
			url = " " + issue.URL
		}
		log.Printf("planpr: drift of %s: %s%s", key, action, url)
	}
	return nil
}

// product is the tool whose plans a unit holds, for words: Terraform
// when its plans say so, OpenTofu otherwise.
func (p *actionPlan) product(u *actionPlan) string {
	for _, pl := range u.plans {
		if pl.Path != "" && p.files.DetectFlavor(pl.Path).Terraform() {
			return "Terraform"
		}
	}
	return "OpenTofu"
}

// githubSink is the Action's sink: it keeps every unit's comment, then
// the run's lock comment and labels (when a comment was posted and the
// token can write), then each unit's check. units[i] is the unit whose
// report is the publication's i-th.
type githubSink struct {
	log        *bot.ActionLog
	api        *gh.Client
	p          *actionPlan
	units      []*actionPlan
	lockReq    report.Request // what the lock comment is built from
	own        report.Marker
	otherLocks []*lockdiff.FileDiff
}

func (g *githubSink) Publish(ctx context.Context, pub publish.Publication) error {
	p, api, log := g.p, g.api, g.log
	if err := p.login(ctx, api); err != nil {
		return err
	}
	// The comments are listed once for the run, and again only after it
	// writes one.
	comments := publish.NewRunComments(api)
	posted := false
	for i, rep := range pub.Reports {
		u := g.units[i]
		u.author = p.author
		kept, err := u.publishComment(ctx, log, comments, rep.Comment, pub.Outputs[i], bot.QuietReport(rep.Result, u.locks))
		if err != nil {
			return err
		}
		if kept == commentReadOnly {
			posted = false
			break
		}
		posted = posted || kept == commentPosted
	}
	if posted {
		if err := p.publishRest(ctx, log, api, comments, g.own, g.lockReq, g.otherLocks); err != nil {
			return err
		}
	}
	if !p.in.Check {
		return nil
	}
	for i, rep := range pub.Reports {
		u := g.units[i]
		u.labelsNow = p.labelsNow
		if err := u.check(ctx, log, api, rep.Result, rep.Check, rep.JobSummary, pub.Outputs[i]); err != nil {
			return err
		}
		p.labelsNow = u.labelsNow
	}
	return nil
}

func prepare(env Env) (p *actionPlan, err error) {
	in, err := readActionInputs(env)
	if err != nil {
		return nil, err
	}
	files := tofujson.NewFiles()
	defer func() {
		if err != nil {
			files.Close()
		}
	}()
	p = &actionPlan{files: files, in: in, commentMode: in.CommentMode, jobSummary: in.JobSummary, labels: in.Labels, lockSpec: in.LockFiles, verifier: in.Verifier, platforms: in.Platforms}
	if p.repo, err = gh.ParseRepo(env.Getenv("GITHUB_REPOSITORY")); err != nil {
		return nil, fmt.Errorf("GITHUB_REPOSITORY: %w", err)
	}
	if p.ev, err = bot.ReadEvent(env.Getenv("GITHUB_EVENT_PATH")); err != nil {
		return nil, err
	}
	p.drift = driftEvents[env.Getenv("GITHUB_EVENT_NAME")] && !in.Reviewed && p.ev.PullRequest == nil
	logFiles, err := expandGlobs(in.UILog)
	var none *noMatchError
	if errors.As(err, &none) && p.labelEvent() {
		err = nil // a label's run skips the plan steps: see rejudge
	}
	if err != nil {
		return nil, err
	}
	planFiles, missing, err := expandPlans(in.Plan, len(logFiles) > 0 || p.labelEvent())
	if err != nil {
		return nil, err
	}
	if len(planFiles) == 0 && len(logFiles) == 0 && p.labelEvent() {
		// Nothing more to read: the checks on the head the label was
		// given at are judged again.
		p.pr, p.marker.SHA = p.ev.PullRequest.Number, p.ev.PullRequest.Head.SHA
		return p, nil
	}
	for _, pat := range missing {
		// The plan step failed before `show -json` wrote the plan: the
		// UI stream holds the errors, and the pull request must see them.
		p.warnings = append(p.warnings, fmt.Sprintf("planpr: plan pattern %q matches no file; the comment shows the UI stream's diagnostics (did the plan fail?)", pat))
	}
	if len(planFiles) == 0 && len(logFiles) == 0 && p.lockSpec == "off" && len(in.Roots) == 0 && !p.labelEvent() {
		return nil, errors.New("nothing to report: set the plan input (plan JSON files), ui-stream, or lock-files")
	}
	schemasFile := in.Schemas
	planFiles, found := bot.TakeSchemas(p.files, planFiles)
	// Named as the repository names them, wherever the step runs.
	p.plans = inputs.Roots(p.files, entriesOf(planFiles, logFiles), inputs.Naming{Top: cmp.Or(env.Getenv("GITHUB_WORKSPACE"), ".")})
	if schemasFile == "" {
		// Each root's schemas, beside its plan: a monorepo's final job
		// holds every root's; schemas beside no plan are the run's.
		beside := inputs.SchemasBeside(p.files, bot.PlanPaths(p.plans), found)
		if p.schemasOf, err = review.ReadSchemasOf(p.files, beside); err != nil {
			return nil, err
		}
		if len(beside) == 0 && len(found) > 0 {
			schemasFile = found[0]
		} else if len(p.plans) > 0 {
			p.schemasFile = beside[p.plans[0].Path] // what pack takes along
		}
	}
	if _, err := os.Stat(schemasFile); schemasFile != "" && errors.Is(err, fs.ErrNotExist) && len(planFiles) == 0 {
		// The plan step failed before it wrote the schemas, as before
		// the plan: the streams' diagnostics are the report.
		p.warnings = append(p.warnings, fmt.Sprintf("planpr: schemas file %q does not exist and no plan JSON was found; the comment shows the UI stream's diagnostics (did the plan fail?)", schemasFile))
		schemasFile = ""
	}
	if schemasFile != "" {
		if p.schemas, err = p.files.ReadSchemas(schemasFile); err != nil {
			return nil, err
		}
		p.schemasFile = schemasFile
	}
	manifest, err := bot.ReadManifest(planFiles, logFiles)
	if err != nil {
		return nil, err
	}
	p.manifest = manifest
	if manifest.Root != "" && len(p.plans) == 1 {
		// Plans downloaded from another run's artifact sit anywhere: the
		// manifest says which root module they are, and they are named so.
		p.plans[0].Name, p.plans[0].Root = path.Base(manifest.Root), manifest.Root
		if p.plans[0].Path != "" {
			p.plans[0].Source = path.Join(manifest.Root, filepath.Base(p.plans[0].Path))
		}
	} else if len(p.plans) > 1 {
		// The artifacts of a matrix (the two-job recipe): each
		// directory's manifest names its root, as the repository does.
		if err := bot.NameByManifests(p.plans); err != nil {
			return nil, err
		}
		p.manifest.Key, p.manifest.Root = "", ""
	}
	if in.Findings != "" {
		if err := p.takeFindings(in.Findings, cmp.Or(env.Getenv("GITHUB_WORKSPACE"), ".")); err != nil {
			return nil, err
		}
	}
	if p.mode, err = review.ParseMode(cmp.Or(in.Mode, manifest.Mode)); err != nil {
		return nil, fmt.Errorf("input %w", err)
	}
	if p.flavor, err = flavor.Parse(cmp.Or(in.Flavor, manifest.Flavor)); err != nil {
		return nil, fmt.Errorf("input %w", err)
	}
	key := cmp.Or(in.Key, p.manifest.Key)
	if key == "" {
		var names []string
		for _, pl := range p.plans {
			names = append(names, pl.Name)
		}
		// Several roots, or the roots a monorepo expects: one comment for
		// every root, whichever of them this run brings.
		key = report.KeyFor(names, in.CommentPer == commentPerPullRequest, len(in.Roots) > 0)
	}
	p.marker = report.Marker{Key: key}
	p.title = cmp.Or(in.Title, report.Title(key))
	p.marker.Run, _ = strconv.ParseInt(env.Getenv("GITHUB_RUN_ID"), 10, 64)

	switch ev := p.ev; {
	case ev.MergeGroup != nil:
		p.marker.SHA = ev.MergeGroup.HeadSHA // the queue waits for the check on the group's commit
	case ev.PullRequest != nil:
		p.pr, p.marker.SHA, p.marker.At = ev.PullRequest.Number, ev.PullRequest.Head.SHA, bot.UnixTime(ev.PullRequest.UpdatedAt)
	case ev.WorkflowRun != nil:
		p.marker.SHA, p.marker.At = ev.WorkflowRun.HeadSHA, bot.UnixTime(ev.WorkflowRun.RunStartedAt)
	}
	if p.marker.At == 0 {
		p.marker.At = time.Now().Unix()
	}
	return p, nil
}

// labelEvent says the run is a label added to or removed from a pull
// request: the approval label's event, which the recipes answer without
// planning again.
func (p *actionPlan) labelEvent() bool {
	return p.ev.PullRequest != nil && (p.ev.Action == "labeled" || p.ev.Action == "unlabeled")
}

// rejudge answers a label event whose workflow skipped its plan steps
// (the plan is the one already judged): planpr's checks on the commit
// that was the head when the label changed are judged again from the
// facts each keeps, as the App does; the comment stays as it is. A label
// other than the approval changes no verdict, and nothing is asked.
func (p *actionPlan) rejudge(ctx context.Context, env Env, log *bot.ActionLog) error {
	if p.ev.Label == nil || p.ev.Label.Name != report.LabelDestroyApproved {
		log.Printf("planpr: a label other than %s changed and no plan was given: nothing to judge again", report.LabelDestroyApproved)
		return nil
	}
	if !p.in.Check || p.commentMode == publish.ModeOff {
		log.Printf("planpr: the %s label changed; no check to judge again (check: false or comment-mode: off)", report.LabelDestroyApproved)
		return nil
	}
	client := env.HTTPClient
	if client == nil {
		client = &http.Client{Transport: &gh.RetryTransport{}}
	}
	api, err := gh.NewClient(client, env.Getenv("GITHUB_API_URL"), env.Getenv("GITHUB_GRAPHQL_URL"), p.in.Token)
	if err != nil {
		return err
	}
	app := strings.TrimSuffix(cmp.Or(p.in.CommentAuthor, gh.ActionsBot), "[bot]")
	n, err := bot.JudgeAgain(ctx, api, p.repo, p.ev, app, p.in.FailOn)
	if errors.Is(err, gh.ErrReadOnly) {
		log.Command("warning", "planpr: the token cannot write check runs: add `checks: write` to the workflow's permissions")
		return nil
	}
	if err != nil {
		return err
	}
	log.Printf("planpr: the %s label was %s: %d checks judged again", report.LabelDestroyApproved, p.ev.Action, n)
	return nil
}

// findPR finds the pull request of a workflow_run event (the fork-safe
// pattern), as the App does (bot.RunPR); a run of a branch with no pull
// request is a notice, not an error.
func (p *actionPlan) findPR(ctx context.Context, log *bot.ActionLog, api bot.PullRequests) error {
	run := p.ev.WorkflowRun
	if p.pr != 0 || run == nil || (p.manifest.PR == 0 && len(run.PullRequests) == 0 && run.HeadBranch == "") {
		return nil
	}
	n, err := bot.RunPR(ctx, api, p.repo, p.ev, p.manifest.PR)
	if errors.Is(err, bot.ErrNoRunPR) {
		log.Command("notice", "planpr: "+err.Error())
		return nil
	}
	p.pr = n
	return err
}

// actionLocks compares each changed lock file at the pull request's base and
// head: "auto" finds them in the pull request's files through the API; a
// glob names local files (the head) compared with the base.
func actionLocks(ctx context.Context, env Env, log *bot.ActionLog, api bot.GitHub, p *actionPlan) ([]*lockdiff.FileDiff, error) {
	pr, err := api.PullRequest(ctx, p.repo, p.pr)
	if err != nil {
		return nil, err
	}
	var pairs []bot.LockPair
	if p.lockSpec == "auto" {
		var capped bool
		if pairs, capped, err = bot.ChangedLockFiles(ctx, api, p.repo, p.pr); err != nil {
			return nil, err
		}
		if capped {
			log.Command("warning", fmt.Sprintf("planpr: the pull request has %d files or more; GitHub lists no more, so lock files beyond them are not reviewed", bot.MaxPRFiles))
		}
	} else {
		paths, err := expandGlobs(p.lockSpec)
		if err != nil {
			return nil, err
		}
		for _, path := range paths {
			pairs = append(pairs, bot.LockPair{Before: path, After: path})
		}
	}
	workspace := env.Getenv("GITHUB_WORKSPACE")
	// The checkout is the head: cross-check with the root module there.
	return bot.ReviewLocks(ctx, api, p.repo, pr, pairs, p.flavor, p.platforms, func(dir string) (*lockdiff.Config, string) {
		full := filepath.Join(workspace, dir)
		if st, err := os.Stat(full); workspace == "" || err != nil || !st.IsDir() {
			return nil, ""
		}
		cfg, diags := lockdiff.LoadConfigFSContext(ctx, os.DirFS(full), dir)
		if diags.HasErrors() {
			return nil, ""
		}
		return cfg, ""
	})
}

// expandGlobs expands whitespace- or comma-separated glob patterns,
// including ** for any depth; each must match a file.
func expandGlobs(spec string) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	for _, pat := range strings.FieldsFunc(spec, globSeparator) {
		matches, err := glob(pat)
		if err != nil {
			return nil, fmt.Errorf("pattern %q: %w", pat, err)
		}
		if len(matches) == 0 {
			return nil, &noMatchError{pat}
		}
		for _, m := range matches {
			if !seen[m] {
				seen[m] = true
				out = append(out, m)
			}
		}
	}
	sort.Strings(out)
	return out, nil
}

func globSeparator(r rune) bool { return r == ',' || r == '\n' || r == ' ' }

// expandPlans is expandGlobs for the plan input. With UI streams given,
// a pattern that matches no file is not an error but missing: a failed
// plan writes its errors to the stream and no plan file.
func expandPlans(spec string, haveStreams bool) (files, missing []string, err error) {
	if !haveStreams {
		files, err = expandGlobs(spec)
		return files, nil, err
	}
	var found []string
	for _, pat := range strings.FieldsFunc(spec, globSeparator) {
		matches, err := expandGlobs(pat)
		var none *noMatchError
		switch {
		case errors.As(err, &none):
			missing = append(missing, pat)
		case err != nil:
			return nil, nil, err
		}
		found = append(found, matches...)
	}
	slices.Sort(found)
	return slices.Compact(found), missing, nil
}

// noMatchError is a pattern that matches no file.
type noMatchError struct{ pattern string }

func (e *noMatchError) Error() string { return fmt.Sprintf("pattern %q matches no file", e.pattern) }

// glob expands one pattern, ** matching any number of directories, with
// doublestar (filepath.Glob has no **).
func glob(pat string) ([]string, error) {
	return doublestar.FilepathGlob(pat, doublestar.WithFilesOnly())
}

// takeFindings gives the roots the reports the findings input names
// (inputs.WithReports), each of which must be a report; each root's
// configuration is its directory in the workspace, where the reports'
// files and lines are.
func (p *actionPlan) takeFindings(globs, workspace string) error {
	paths, err := expandGlobs(globs)
	if err != nil {
		return fmt.Errorf("input findings: %w", err)
	}
	rest, reports := inputs.TakeReports(p.files, paths)
	if len(rest) > 0 {
		kind, err := inputs.Classify(p.files, rest[0])
		if err != nil {
			return err
		}
		return fmt.Errorf("input findings: %s is %s, not a scanner's SARIF report, an Infracost report or a policy engine's verdicts", rest[0], kind)
	}
	return inputs.WithReports(p.plans, reports, func(r inputs.Root) string {
		if dir := filepath.Join(workspace, filepath.FromSlash(r.Root)); r.Root != "" && inputs.HasConfig(dir) {
			return dir
		}
		return ""
	})
}

// entriesOf are the run's plans and streams as inputs.Roots takes them
// (the manifests beside packed plans are not inputs).
func entriesOf(planFiles, logFiles []string) []inputs.Entry {
	var entries []inputs.Entry
	for _, f := range planFiles {
		if filepath.Base(f) != "planpr.json" {
			entries = append(entries, inputs.Entry{Path: f})
		}
	}
	for _, f := range logFiles {
		entries = append(entries, inputs.Entry{Path: f, Stream: true})
	}
	return entries
}

// writeJobSummary appends the report and its last newline to the job
// summary, within bot.MaxJobSummary bytes including that newline: past it
// GitHub drops the summary whole.
func writeJobSummary(path, text string) error {
	return appendFile(path, md.Cut(text, bot.MaxJobSummary-1)+"\n")
}

func appendFile(path, text string) error {
	if path == "" {
		return nil
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = f.WriteString(text)
	return err
}

// writeOutputs appends step outputs to GITHUB_OUTPUT.
func writeOutputs(path string, outputs map[string]string) error {
	var b strings.Builder
	for _, k := range slices.Sorted(maps.Keys(outputs)) {
		v := outputs[k]
		if strings.ContainsAny(v, "\r\n") {
			delim := "planpr_" + randomToken()
			fmt.Fprintf(&b, "%s<<%s\n%s\n%s\n", k, delim, v, delim)
		} else {
			fmt.Fprintf(&b, "%s=%s\n", k, v)
		}
	}
	return appendFile(path, b.String())
}

func randomToken() string {
	b := make([]byte, 12)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// check keeps the key's check run on the head commit: its conclusion by
// the fail-on policy and the approval label, its summary the comment, its
// annotations the located problems. A token that may not write checks is
// a warning: the comment is posted all the same.
func (p *actionPlan) check(ctx context.Context, log *bot.ActionLog, api *gh.Client, res *report.Result, checkBody, full string, outputs map[string]string) error {
	if p.marker.SHA == "" {
		return nil
	}
	// The pull request judged: the run's, or the one a merge group
	// queues, whose approval approves its reviewed plan (which
	// reviewed: required holds the group's plan to).
	pr, labelledHere := p.pr, bot.ApprovalLabelledAt(p.ev, p.marker.SHA)
	if p.ev.MergeGroup != nil {
		pr, labelledHere = p.ev.QueuedPR(), true
	}
	labels := p.labelsNow
	if labels == nil && pr != 0 { // the labels were not kept this run (labels: false, a read-only token, a merge group)
		var err error
		if labels, err = api.Labels(ctx, p.repo, pr); err != nil {
			return err
		}
	}
	if p.ev.Action == "synchronize" && slices.Contains(labels, report.LabelDestroyApproved) {
		// An approval is for the commit it was given at: a new push asks
		// for it again.
		if err := api.RemoveLabel(ctx, p.repo, p.pr, report.LabelDestroyApproved); err == nil {
			log.Command("notice", "planpr: a new push: the "+report.LabelDestroyApproved+" label is removed; add it again to approve what this commit destroys")
			labels = slices.DeleteFunc(labels, func(l string) bool { return l == report.LabelDestroyApproved })
		}
	}
	p.labelsNow = labels // as they are now, for the run's next check
	// The Action's check runs are the Actions app's, or those of the App
	// whose installation token it was given (comment-author SLUG[bot]).
	app := strings.TrimSuffix(cmp.Or(p.in.CommentAuthor, gh.ActionsBot), "[bot]")
	run, verdict, err := publish.UpsertCheck(ctx, api, p.repo, publish.Check{Name: report.CheckName(p.marker.Key), SHA: p.marker.SHA, App: app, PR: pr,
		Facts: report.FactsOf(res, p.locks), FailOn: p.in.FailOn, Approval: publish.ReadApproval(ctx, api, p.repo, pr, labels),
		LabelledHere: labelledHere, Failures: p.queueFailures,
		Title: res.Heading, Summary: checkBody, Text: full, DetailsURL: outputs["comment-url"], Annotations: res.Annotations})
	if errors.Is(err, gh.ErrReadOnly) {
		log.Command("warning", "planpr: the token cannot write check runs (add `checks: write` to the workflow's permissions, or set check: false); the comment is posted all the same")
		return nil
	}
	if err != nil {
		return err
	}
	outputs["check-name"], outputs["check-url"], outputs["conclusion"] = run.Name, run.URL, verdict.Conclusion
	outputs["summary"] = report.WithCheck(outputs["summary"], run.Name, verdict)
	log.Printf("planpr: check %q %s: %s", run.Name, verdict.Conclusion, strings.Join(verdict.Why, "; "))
	return nil
}
