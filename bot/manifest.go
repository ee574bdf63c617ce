package bot

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/planpr/planpr/render/inputs"
	"io"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/planpr/planpr/flavor"

	"github.com/planpr/planpr/bot/gh"
	"github.com/planpr/planpr/internal/lazyre"
	"github.com/planpr/planpr/render/report"
	"github.com/planpr/planpr/render/review"
)

// LocksKey is the key of the Action's comment when it has only lock files
// to show.
const LocksKey = report.LocksKey

// reservedKeys are the keys planpr gives its own comments: an untrusted
// manifest may never claim one, or it could overwrite (and silence) the
// lock-file review.
var reservedKeys = []string{LocksKey, OldLockKey}

// KeyPattern is what a manifest's key may be: a root module's path or a
// workspace name.
var KeyPattern = lazyre.New(`^[A-Za-z0-9_.][A-Za-z0-9_.,/=+-]{0,127}$`)

var shaPattern = lazyre.New(`^[0-9a-f]{40}$`)

// maxManifest bounds planpr.json, which comes from untrusted workflows.
const maxManifest = 64 << 10

// ReadManifestFile reads and validates a planpr.json.
func ReadManifestFile(path string) (Manifest, error) {
	var m Manifest
	f, err := os.Open(path)
	if err != nil {
		return m, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxManifest+1))
	if err != nil {
		return m, fmt.Errorf("%s: %w", path, err)
	}
	if len(b) > maxManifest {
		return m, fmt.Errorf("%s: over %d KB; a manifest holds a few fields", path, maxManifest>>10)
	}
	if err := json.Unmarshal(b, &m); err != nil {
		return m, fmt.Errorf("%s: not a planpr manifest: %w", path, err)
	}
	if err := m.validate(); err != nil {
		return m, fmt.Errorf("%s: %w", path, err)
	}
	return m, nil
}

// CheckKey refuses a comment key given from outside (an input, a flag, a
// manifest) that is planpr's own (the lock comment's) or that a marker
// cannot carry.
func CheckKey(key string) error {
	if slices.Contains(reservedKeys, key) {
		return fmt.Errorf("key %q is planpr's own (the comment of lock files alone): name the root instead", key)
	}
	if !KeyPattern().MatchString(key) {
		return fmt.Errorf("key %q: want up to 128 letters, digits and . _ , / = + -", key)
	}
	return nil
}

// validate checks every field of a manifest by pattern. It says nothing of
// whether its pull request may be commented on: see verifyManifestPR.
func (m Manifest) validate() error {
	if m.PR < 0 {
		return fmt.Errorf("pr %d is not a pull request number", m.PR)
	}
	if m.Key != "" {
		if err := CheckKey(m.Key); err != nil {
			return err
		}
	}
	if m.Mode != "" {
		if _, err := review.ParseMode(m.Mode); err != nil {
			return err
		}
	}
	if _, err := flavor.Parse(m.Flavor); err != nil {
		return err
	}
	if m.SHA != "" && !shaPattern().MatchString(m.SHA) {
		return fmt.Errorf("sha %q is not a commit SHA", m.SHA)
	}
	if m.Root != "" && (!rootPattern().MatchString(m.Root) || path.Clean(m.Root) != m.Root || m.Root == ".." || strings.HasPrefix(m.Root, "../") || strings.Contains(m.Root, "/../")) {
		return fmt.Errorf("root %q: want the root module's directory in the repository, relative and clean (envs/prod)", m.Root)
	}
	return nil
}

// rootPattern is what a manifest's root may be: a relative directory.
var rootPattern = lazyre.New(`^[A-Za-z0-9_.][A-Za-z0-9_./-]{0,255}$`)

// verifyRunPR checks that the pull request a manifest names is the one the
// workflow run built: its head must be the run's head commit, in the run's
// head repository. Otherwise a fork's run could comment on (and relabel)
// any pull request.
func verifyRunPR(pr *gh.PullRequest, runHeadSHA, runHeadRepo string) error {
	if pr.HeadSHA != runHeadSHA {
		return fmt.Errorf("the manifest names pull request #%d, whose head %s is not the run's head %s: refused", pr.Number, ShortSHA(pr.HeadSHA), ShortSHA(runHeadSHA))
	}
	if runHeadRepo == "" || pr.HeadRepo != runHeadRepo {
		return fmt.Errorf("the manifest names pull request #%d, whose head is in %s, not in the run's head repository %s: refused", pr.Number, cmpOrUnknown(pr.HeadRepo), cmpOrUnknown(runHeadRepo))
	}
	return nil
}

func cmpOrUnknown(s string) string {
	if s == "" {
		return "(unknown)"
	}
	return s
}

// ErrNoRunPR: no open pull request has the run's head branch.
var ErrNoRunPR = errors.New("no pull request found for the run")

// RunPR finds the pull request a workflow run belongs to: one GitHub lists
// with the run (the manifest's, when it names one of them), else the one
// the manifest claims once verifyRunPR accepts it, else the open one of
// the run's head branch (runs from forks list none; ErrNoRunPR when there
// is none).
func RunPR(ctx context.Context, api PullRequests, repo gh.Repo, ev *Event, claimed int) (int, error) {
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
	n, err := api.PullRequestForBranch(ctx, repo, owner, run.HeadBranch)
	if err != nil {
		return 0, fmt.Errorf("%w: %w", ErrNoRunPR, err)
	}
	return n, nil
}

// OldLockKey is the App's lock-file key before it was the Action's.
const OldLockKey = "lock-files"

// ReadManifest reads planpr.json beside the first input, if any.
func ReadManifest(files ...[]string) (Manifest, error) {
	for _, list := range files {
		for _, f := range list {
			path := filepath.Join(filepath.Dir(f), "planpr.json")
			if _, err := os.Stat(path); err != nil {
				continue
			}
			return ReadManifestFile(path)
		}
	}
	return Manifest{}, nil
}

// NameByManifests names each root by the manifest beside its files (the
// pack input writes one into each matrix job's artifact): its place in
// the repository.
func NameByManifests(plans []inputs.Root) error {
	for i := range plans {
		first := cmp.Or(plans[i].Path, first(plans[i].Streams))
		m, err := ReadManifest([]string{first})
		if err != nil {
			return err
		}
		if m.Root == "" {
			continue
		}
		plans[i].Name, plans[i].Root = m.Root, m.Root
		if plans[i].Path != "" {
			plans[i].Source = path.Join(m.Root, filepath.Base(plans[i].Path))
		}
	}
	return nil
}

// first is the first of s, "" when there is none.
func first(s []string) string {
	if len(s) == 0 {
		return ""
	}
	return s[0]
}
