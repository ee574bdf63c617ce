package bot

import (
	"cmp"
	"context"
	"fmt"
	"github.com/planpr/planpr/flavor"
	"path"
	"slices"
	"strings"
	"testing/fstest"

	"github.com/planpr/planpr/bot/gh"
	"github.com/planpr/planpr/lockdiff"
)

// MaxPRFiles is how many files GitHub lists for a pull request at most;
// lock files beyond it cannot be seen.
const MaxPRFiles = 3000

// lockPair is a changed lock file: where it was at the base, where it is
// at the head.
type lockPair struct{ before, after string }

// changedLockFiles lists the .terraform.lock.hcl files a pull request
// changes.
func changedLockFiles(ctx context.Context, api Files, repo gh.Repo, pr int) ([]lockPair, bool, error) {
	files, err := api.ListFiles(ctx, repo, pr)
	if err != nil {
		return nil, false, err
	}
	var pairs []lockPair
	for _, f := range files {
		if path.Base(f.Name) != ".terraform.lock.hcl" && path.Base(f.PreviousName) != ".terraform.lock.hcl" {
			continue
		}
		before := f.Name
		if f.PreviousName != "" {
			before = f.PreviousName
		}
		pairs = append(pairs, lockPair{before, f.Name})
	}
	return pairs, len(files) >= MaxPRFiles, nil
}

// maxConfigFiles bounds how many configuration files of one root module
// the App fetches (one request each): a pull request's directory of 1,000
// .tf files made 1,007 requests per delivery. The files where provider
// requirements usually are come first.
const maxConfigFiles = 20

// configAtRef reads a root module's configuration through the API, for
// servers that have no checkout.
func configAtRef(ctx context.Context, api Files, repo gh.Repo, dir, ref string) (*lockdiff.Config, error) {
	files, err := api.ListDir(ctx, repo, dir, ref)
	if err != nil || len(files) == 0 {
		return nil, err
	}
	var names []string
	for _, f := range files {
		if isConfigFile(f.Name) && f.Size <= gh.MaxFileFetch {
			names = append(names, f.Name)
		}
	}
	slices.SortStableFunc(names, func(a, b string) int { return configRank(a) - configRank(b) })
	if len(names) > maxConfigFiles {
		names = names[:maxConfigFiles]
	}
	fsys := fstest.MapFS{}
	for _, name := range names {
		src, found, err := api.FileAt(ctx, repo, path.Join(dir, name), ref)
		if err != nil {
			return nil, err
		}
		if found {
			fsys[name] = &fstest.MapFile{Data: src}
		}
	}
	cfg, diags := lockdiff.LoadConfigFSContext(ctx, fsys, dir)
	if diags.HasErrors() {
		return nil, fmt.Errorf("%s", diags.Error())
	}
	return cfg, nil
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

// reviewLocks compares each pair at the pull request's base and head, and
// cross-checks with the head's root module when config gives one.
func reviewLocks(ctx context.Context, api Files, repo gh.Repo, pr *gh.PullRequest, pairs []lockPair, tool flavor.Flavor, config func(dir string) *lockdiff.Config) ([]*lockdiff.FileDiff, error) {
	var out []*lockdiff.FileDiff
	if len(pairs) == 0 {
		return nil, nil
	}
	// Measured against where the branch left its base, as git diff and
	// dry-run measure it: a lock change merged to the base since then is
	// not this pull request's (it would read as a downgrade).
	base, err := api.MergeBase(ctx, repo, pr.BaseSHA, pr.HeadSHA)
	if err != nil {
		return nil, err
	}
	base = cmp.Or(base, pr.BaseSHA)
	for _, pp := range pairs {
		before, _, err := api.FileAt(ctx, repo, pp.before, base)
		if err != nil {
			return nil, err
		}
		after, _, err := api.FileAt(ctx, repo, pp.after, pr.HeadSHA)
		if err != nil {
			return nil, err
		}
		p := lockdiff.Pair{Path: pp.after, Before: before, After: after,
			BeforeName: pp.before + "@" + shortSHA(base), AfterName: pp.after + "@" + shortSHA(pr.HeadSHA), Flavor: tool}
		if config != nil {
			p.Config = config(path.Dir(pp.after))
		}
		fd, diags := lockdiff.ComparePair(p)
		if diags.HasErrors() {
			return nil, fmt.Errorf("%s", diags.Error())
		}
		out = append(out, fd)
	}
	return out, nil
}
