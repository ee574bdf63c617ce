package bot

import (
	"context"
	"fmt"
	"path"
	"strings"
	"testing/fstest"

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
func changedLockFiles(ctx context.Context, gh GitHub, repo Repo, pr int) ([]lockPair, bool, error) {
	files, err := gh.ListFiles(ctx, repo, pr)
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

// configAtRef reads a root module's configuration through the API, for
// servers that have no checkout.
func configAtRef(ctx context.Context, gh GitHub, repo Repo, dir, ref string) (*lockdiff.Config, error) {
	names, err := gh.ListDir(ctx, repo, dir, ref)
	if err != nil || len(names) == 0 {
		return nil, err
	}
	fsys := fstest.MapFS{}
	for _, name := range names {
		if !strings.HasSuffix(name, ".tf") && !strings.HasSuffix(name, ".tofu") && !strings.HasSuffix(name, ".tf.json") && !strings.HasSuffix(name, ".tofu.json") {
			continue
		}
		src, found, err := gh.FileAt(ctx, repo, path.Join(dir, name), ref)
		if err != nil {
			return nil, err
		}
		if found {
			fsys[name] = &fstest.MapFile{Data: src}
		}
	}
	cfg, diags := lockdiff.LoadConfigFS(fsys, dir)
	if diags.HasErrors() {
		return nil, fmt.Errorf("%s", diags.Error())
	}
	return cfg, nil
}

// reviewLocks compares each pair at the pull request's base and head, and
// cross-checks with the head's root module when config gives one.
func reviewLocks(ctx context.Context, gh GitHub, repo Repo, pr *PullRequest, pairs []lockPair, config func(dir string) *lockdiff.Config) ([]*lockdiff.FileDiff, error) {
	var out []*lockdiff.FileDiff
	for _, pp := range pairs {
		before, err := fetchLock(ctx, gh, repo, pp.before, pr.BaseSHA)
		if err != nil {
			return nil, err
		}
		after, err := fetchLock(ctx, gh, repo, pp.after, pr.HeadSHA)
		if err != nil {
			return nil, err
		}
		fd := lockdiff.Compare(pp.after, before, after)
		if config != nil {
			if cfg := config(path.Dir(pp.after)); cfg != nil {
				lockdiff.CrossCheck(fd, after, cfg)
			}
		}
		out = append(out, fd)
	}
	return out, nil
}
