package bot

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/http"
	"path"
	"slices"
	"strings"
	"testing/fstest"

	"github.com/planpr/planpr/flavor"

	"github.com/planpr/planpr/bot/gh"
	"github.com/planpr/planpr/lockdiff"
)

// MaxPRFiles is how many files GitHub lists for a pull request at most;
// lock files beyond it cannot be seen.
const MaxPRFiles = 3000

// LockPair is a changed lock file: where it was at the base, where it is
// at the head.
// LockPair is a lock file as the pull request changes it: its path at
// the base and at the head (one, unless it moved).
type LockPair struct{ Before, After string }

// ChangedLockFiles lists the .terraform.lock.hcl files a pull request
// changes.
func ChangedLockFiles(ctx context.Context, api Files, repo gh.Repo, pr int) ([]LockPair, bool, error) {
	files, err := api.ListFiles(ctx, repo, pr)
	if err != nil {
		return nil, false, err
	}
	var pairs []LockPair
	for _, f := range files {
		if path.Base(f.Name) != ".terraform.lock.hcl" && path.Base(f.PreviousName) != ".terraform.lock.hcl" {
			continue
		}
		before := f.Name
		if f.PreviousName != "" {
			before = f.PreviousName
		}
		pairs = append(pairs, LockPair{before, f.Name})
	}
	return pairs, len(files) >= MaxPRFiles, nil
}

// MaxConfigFiles bounds how many configuration files of one root module
// the App fetches (one request each): a pull request's directory of 1,000
// .tf files made 1,007 requests per delivery. The files where provider
// requirements usually are come first. MaxConfigFilesPerReview bounds
// them over all the lock files of a review.
const (
	MaxConfigFiles          = 20
	MaxConfigFilesPerReview = 100
)

// configBudget is what is left of a review's configuration files.
type configBudget struct{ left int }

func NewConfigBudget() *configBudget { return &configBudget{left: MaxConfigFilesPerReview} }

// ConfigAtRef reads a root module's configuration through the API, for
// servers that have no checkout, within budget; skipped names the
// configuration files it did not read.
func ConfigAtRef(ctx context.Context, api Files, repo gh.Repo, dir, ref string, budget *configBudget) (cfg *lockdiff.Config, skipped []string, err error) {
	files, err := api.ListDir(ctx, repo, dir, ref)
	if err != nil || len(files) == 0 {
		return nil, nil, err
	}
	var names []string
	for _, f := range files {
		if isConfigFile(f.Name) && f.Size <= gh.MaxFileFetch {
			names = append(names, f.Name)
		}
	}
	slices.SortStableFunc(names, func(a, b string) int { return configRank(a) - configRank(b) })
	if n := min(MaxConfigFiles, budget.left); len(names) > n {
		names, skipped = names[:n], names[n:]
	}
	budget.left -= len(names)
	if len(names) == 0 {
		return nil, skipped, nil
	}
	fsys := fstest.MapFS{}
	for _, name := range names {
		src, found, err := api.FileAt(ctx, repo, path.Join(dir, name), ref)
		if err != nil {
			return nil, skipped, err
		}
		if found {
			fsys[name] = &fstest.MapFile{Data: src}
		}
	}
	cfg, diags := lockdiff.LoadConfigFSContext(ctx, fsys, dir)
	if diags.HasErrors() {
		return nil, skipped, fmt.Errorf("%s", diags.Error())
	}
	return cfg, skipped, nil
}

// SkippedNote says which configuration files a review did not read.
func SkippedNote(dir string, skipped []string) string {
	if len(skipped) == 0 {
		return ""
	}
	shown := skipped[:min(len(skipped), 10)]
	more := ""
	if len(skipped) > len(shown) {
		more = fmt.Sprintf(" and %d more", len(skipped)-len(shown))
	}
	return fmt.Sprintf("The provider requirements of %s were read from its first %d configuration files at most (%d in one review); not read: %s%s.",
		dir, MaxConfigFiles, MaxConfigFilesPerReview, strings.Join(shown, ", "), more)
}

func isConfigFile(name string) bool {
	for _, ext := range []string{".tf", ".tofu", ".tf.json", ".tofu.json"} {
		if strings.HasSuffix(name, ext) {
			return true
		}
	}
	return false
}

// configRank orders configuration files by how likely they hold the
// terraform block: versions, providers, terraform, main, then the rest.
func configRank(name string) int {
	base := strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(name, ".json"), ".tf"), ".tofu")
	switch base {
	case "versions", "version":
		return 0
	case "providers", "provider":
		return 1
	case "terraform", "backend":
		return 2
	case "main":
		return 3
	}
	return 4
}

// MaxLockFiles is how many lock files one review reads: each costs API
// requests, registry requests and configuration reads, and a pull request
// of 100 lock files made 2,308 API calls in one delivery. The others are
// named in the comment as not reviewed.
const MaxLockFiles = 20

// configFn reads the root module of a lock file's directory: its
// configuration, or nil, and a note for the comment (files not read).
type configFn func(dir string) (*lockdiff.Config, string)

// ReviewLocks compares each pair at the pull request's base and head, and
// cross-checks with the head's root module when config gives one. Past
// MaxLockFiles, lock files are listed as not reviewed.
func ReviewLocks(ctx context.Context, api Files, repo gh.Repo, pr *gh.PullRequest, pairs []LockPair, tool flavor.Flavor, platforms []string, config configFn) ([]*lockdiff.FileDiff, error) {
	var out []*lockdiff.FileDiff
	if len(pairs) == 0 {
		return nil, nil
	}
	var skipped []*lockdiff.FileDiff
	if len(pairs) > MaxLockFiles {
		for _, pp := range pairs[MaxLockFiles:] {
			skipped = append(skipped, &lockdiff.FileDiff{Path: pp.After, Skipped: true, Flavor: tool, Findings: []lockdiff.Finding{{
				Kind: "not-reviewed", Severity: lockdiff.Warning, Message: fmt.Sprintf(
					"Not reviewed: this pull request changes %d lock files and planpr reviews %d in one review. Review it with `planpr lockdiff` (see the README), or split the pull request.",
					len(pairs), MaxLockFiles)}}})
		}
		pairs = pairs[:MaxLockFiles]
	}
	// Measured against where the branch left its base, as git diff and
	// dry-run measure it: a lock change merged to the base since then is
	// not this pull request's (it would read as a downgrade).
	base, err := api.MergeBase(ctx, repo, pr.BaseSHA, pr.HeadSHA)
	fallback := ""
	var se *gh.StatusError
	if errors.As(err, &se) && se.Status == http.StatusNotFound {
		// GitHub cannot compute the merge base (a force-pushed base, an
		// unrelated history): compare with the base commit and say so —
		// never drop the review.
		base, err, fallback = pr.BaseSHA, nil, fmt.Sprintf("Compared with the pull request's base commit %s: GitHub could not compute where the branch left its base (a force-pushed base?), so a change merged to the base since then may show here as this pull request's.", ShortSHA(pr.BaseSHA))
	}
	if err != nil {
		return nil, err
	}
	base = cmp.Or(base, pr.BaseSHA)
	for _, pp := range pairs {
		before, _, err := api.FileAt(ctx, repo, pp.Before, base)
		if err != nil {
			return nil, err
		}
		after, _, err := api.FileAt(ctx, repo, pp.After, pr.HeadSHA)
		if err != nil {
			return nil, err
		}
		p := lockdiff.Pair{Path: pp.After, Before: before, After: after,
			BeforeName: pp.Before + "@" + ShortSHA(base), AfterName: pp.After + "@" + ShortSHA(pr.HeadSHA), Flavor: tool, Platforms: platforms}
		note := ""
		if config != nil {
			p.Config, note = config(path.Dir(pp.After))
		}
		fd, diags := lockdiff.ComparePair(p)
		if diags.HasErrors() {
			return nil, fmt.Errorf("%s", diags.Error())
		}
		if note != "" {
			fd.Findings = append(fd.Findings, lockdiff.Finding{Kind: "config-partly-read", Severity: lockdiff.Notice, Message: note})
		}
		if fallback != "" {
			fd.Findings = append(fd.Findings, lockdiff.Finding{Kind: "compared-with-base", Severity: lockdiff.Warning, Message: fallback})
		}
		out = append(out, fd)
	}
	return append(out, skipped...), nil
}
