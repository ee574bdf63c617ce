package app

import (
	"context"
	"errors"
	"fmt"
	"github.com/planpr/planpr/bot"
	"github.com/planpr/planpr/render/inputs"
	"log/slog"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/planpr/planpr/bot/artifact"
	"github.com/planpr/planpr/bot/gh"
	"github.com/planpr/planpr/bot/publish"
	"github.com/planpr/planpr/lockdiff"
	"github.com/planpr/planpr/render/report"
	"github.com/planpr/planpr/render/review"
	"github.com/planpr/planpr/render/tofujson"
)

// packedRoot is one root of a packed artifact (the Action's pack input):
// its directory there, its manifest, the run it came from.
type packedRoot struct {
	dir      string
	manifest bot.Manifest
	run      gh.Run
}

// badArtifact is an artifact that cannot be unpacked (not a zip, unsafe,
// over a limit): named and skipped, never retried, while the rest are
// commented.
type badArtifact struct{ err error }

func (e *badArtifact) Error() string { return e.err.Error() }
func (e *badArtifact) Unwrap() error { return e.err }

// unpackArtifact downloads an artifact and unpacks it into a new
// directory under parent, within the job's budget. A download that fails
// is an error to retry; an artifact that cannot be unpacked, or one past
// the budget, a *badArtifact.
func unpackArtifact(ctx context.Context, api bot.Artifacts, repo gh.Repo, a gh.Artifact, parent string, budget *artifact.Budget) (string, error) {
	if err := budget.Take(); err != nil {
		return "", &badArtifact{err}
	}
	url, err := api.ArtifactURL(ctx, repo, a.ID)
	if err != nil {
		return "", err
	}
	zipData, err := artifact.Download(ctx, url)
	if err != nil {
		return "", err
	}
	dir, err := os.MkdirTemp(parent, "artifact-")
	if err != nil {
		return "", err
	}
	if err := artifact.Unpack(zipData, dir, budget); err != nil {
		os.RemoveAll(dir)
		return "", &badArtifact{err}
	}
	return dir, nil
}

// packedRoots are the roots an unpacked artifact holds in the pack layout:
// a directory each, with a planpr.json naming its root.
func packedRoots(dir string, run gh.Run) ([]*packedRoot, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []*packedRoot
	for _, e := range entries {
		path := filepath.Join(dir, e.Name(), "planpr.json")
		if !e.IsDir() || !fileExists(path) {
			continue
		}
		m, err := bot.ReadManifestFile(path)
		if err != nil {
			return nil, fmt.Errorf("%s", strings.TrimPrefix(err.Error(), dir+string(filepath.Separator)))
		}
		if m.Root == "" {
			continue
		}
		out = append(out, &packedRoot{dir: filepath.Join(dir, e.Name()), manifest: m, run: run})
	}
	return out, nil
}

// commentRoots keeps the one comment of a pull request whose roots come
// packed (the Action's pack input, a matrix): every root of every
// completed workflow run of the head commit — the newest of each root,
// whichever run it came from — in one comment keyed "pr", with its check;
// a root an earlier comment had and no run of this commit brings is shown
// as not planned at this commit. It reports false, doing nothing, when the
// run's artifacts are not packed (one comment per artifact, as before).
func (s *Server) commentRoots(ctx context.Context, api bot.GitHub, repo gh.Repo, ev *bot.Event, arts []unpackedArtifact, tmp string, budget *artifact.Budget, log *slog.Logger) (bool, error) {
	ev0 := ev.WorkflowRun
	this := gh.Run{ID: ev0.ID, HeadSHA: ev0.HeadSHA, HTMLURL: ev0.HTMLURL}
	byRoot := map[string]*packedRoot{}
	var order []string
	// The comment holds every run's roots: it is as new as the newest run
	// it holds, whichever delivery brings it (see publish.Upsert).
	newest := ev0.ID
	add := func(run gh.Run, a unpackedArtifact) error {
		roots, err := packedRoots(a.dir, run)
		if err != nil {
			return fmt.Errorf("artifact %s: %w", a.Name, err)
		}
		newest = max(newest, run.ID)
		for _, r := range roots {
			if byRoot[r.manifest.Root] == nil { // the newest run's, seen first
				byRoot[r.manifest.Root] = r
				order = append(order, r.manifest.Root)
			}
		}
		return nil
	}
	seen := map[string]bool{} // artifact names: a root's newest run only
	for _, a := range arts {
		seen[a.Name] = true
	}
	visit := func(run gh.Run, arts []gh.Artifact) error {
		for _, a := range arts {
			if !strings.HasPrefix(a.Name, "planpr") || a.Expired || !bot.KeyPattern().MatchString(a.Name) || seen[a.Name] {
				continue
			}
			seen[a.Name] = true
			dir, err := unpackArtifact(ctx, api, repo, a, tmp, budget)
			var bad *badArtifact
			if errors.As(err, &bad) {
				log.Warn("artifact skipped", "artifact", boundedName(a.Name), "run", run.ID, "error", boundedName(err.Error()))
				continue
			}
			if err != nil {
				return fmt.Errorf("artifact %s: %w", a.Name, err)
			}
			if err := add(run, unpackedArtifact{a, dir}); err != nil {
				return err
			}
		}
		return nil
	}
	for _, a := range arts {
		if err := add(this, a); err != nil {
			return false, err
		}
	}
	if len(byRoot) == 0 {
		return false, nil
	}
	runs, err := api.RunsForCommit(ctx, repo, ev0.HeadSHA)
	if err != nil {
		return false, err
	}
	looked := 0
	for _, r := range runs { // newest first
		if r.ID == ev0.ID || r.Status != "completed" || r.HeadSHA != ev0.HeadSHA {
			continue
		}
		if looked++; looked > artifact.JobRuns {
			log.Warn("more completed runs of the commit than one job looks at: the older ones are left out", "runs", artifact.JobRuns)
			break
		}
		others, err := api.ListArtifacts(ctx, repo, r.ID)
		if err != nil {
			return false, err
		}
		if err := visit(r, others); err != nil {
			return false, err
		}
	}
	pr, err := bot.RunPR(ctx, api, repo, ev, 0)
	if err != nil {
		return false, err
	}
	slices.Sort(order)
	var plans []inputs.Root
	schemasOf := map[string]string{} // each root's plan → the schemas packed beside it
	for _, root := range order {
		r := byRoot[root]
		p := inputs.Root{Name: root, Root: root}
		entries, _ := os.ReadDir(r.dir)
		schemas := ""
		for _, e := range entries {
			f := filepath.Join(r.dir, e.Name())
			switch name := e.Name(); {
			case name == "schemas.json":
				schemas = f
			case strings.HasSuffix(name, ".jsonl"):
				p.Streams = append(p.Streams, f)
			case name == "plan.json":
				p.Path, p.Source = f, root+"/plan.json"
			}
		}
		if p.Path != "" && schemas != "" {
			schemasOf[p.Path] = schemas
		}
		plans = append(plans, p)
	}
	open := tofujson.NewFiles() // the roots' inputs, each opened once
	defer open.Close()
	author, err := s.login(ctx)
	if err != nil {
		return false, err
	}
	unlock := s.prLocks.Lock(fmt.Sprintf("%s#%d", repo, pr))
	defer unlock()
	// Keyed and named as the Action's final job keys and names the same
	// roots: one root by its name (prod), several (or roots the pull
	// request's comment had) in one comment for the pull request.
	missing := s.rootsGone(ctx, api, repo, pr, author, order)
	if len(plans) == 1 && len(missing) == 0 {
		plans[0].Name = path.Base(plans[0].Root)
	}
	var names []string
	for _, p := range plans {
		names = append(names, p.Name)
	}
	marker := report.Marker{Key: report.KeyFor(names, true, len(missing) > 0), SHA: ev0.HeadSHA, At: bot.UnixTime(ev0.RunStartedAt), Run: newest, Roots: order}
	req := report.Request{Plans: plans, Marker: marker, Version: s.cfg.Version, Title: report.Title(marker.Key), RunURL: ev0.HTMLURL,
		Missing: missing, Plan: review.PlanOptions{Files: open}, CheckRoom: publish.CheckSummaryRoom}
	if repoURL, _, ok := strings.Cut(ev0.HTMLURL, "/actions/runs/"); ok && ev0.HeadSHA != "" {
		req.SourceURL = repoURL + "/blob/" + ev0.HeadSHA
	}
	if req.Plan.SchemasOf, err = review.ReadSchemasOf(open, schemasOf); err != nil {
		return false, err
	}
	for _, p := range plans { // named in errors by their place in the repository, not the job's directory
		if s, ok := req.Plan.SchemasOf[p.Path]; ok {
			s.File = p.Root + "/schemas.json"
			req.Plan.SchemasOf[p.Path] = s
		}
	}
	prInfo, err := api.PullRequest(ctx, repo, pr)
	if err != nil {
		return false, err
	}
	var locks []*lockdiff.FileDiff
	if pairs, _, err := bot.ChangedLockFiles(ctx, api, repo, pr); err != nil {
		return false, err
	} else if len(pairs) > 0 {
		if locks, err = s.reviewPRLocks(ctx, api, repo, prInfo, pairs, 0, ev.Installation.ID, log); err != nil {
			return false, err
		}
	}
	req.Locks, _ = publish.ByRoots(locks, order)
	rep, err := report.Build(ctx, req)
	if err != nil {
		return false, err
	}
	log.Info("pull request comment", "roots", len(order), "runs", len(runs))
	sink := s.sink(&githubSink{s: s, api: api, repo: repo, pr: pr, author: author, ev: ev, sha: ev0.HeadSHA, req: req,
		locks: locks, lockComment: true, what: "pull request comment", log: log})
	return true, sink.Publish(ctx, publish.Publication{Reports: []*report.Report{rep}, Outputs: []map[string]string{rep.Outputs()}})
}

// rootsGone are the roots the pull request's comment had and no run of
// this commit brings: "not planned at this commit", with the commit they
// were last planned at.
func (s *Server) rootsGone(ctx context.Context, api bot.GitHub, repo gh.Repo, pr int, author string, now []string) []report.MissingRoot {
	comments, err := api.ListComments(ctx, repo, pr)
	if err != nil {
		return nil
	}
	var gone []report.MissingRoot
	for _, c := range comments {
		m, ok := report.ParseMarker(c.Body)
		if !ok || c.User != author || m.Key != report.PullRequestKey {
			continue
		}
		for _, r := range m.Roots {
			if !slices.Contains(now, r) {
				gone = append(gone, report.MissingRoot{Name: r, Why: "not planned at this commit (last planned at " + bot.ShortSHA(m.SHA) + ")"})
			}
		}
	}
	return gone
}
