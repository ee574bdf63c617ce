package publish

import (
	"bytes"
	"cmp"
	"context"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/planpr/planpr/bot/gh"
	"github.com/planpr/planpr/lockdiff"
	"github.com/planpr/planpr/render"
	"github.com/planpr/planpr/render/report"
)

// PlanRoots are the directories of the plans of a run, relative to the
// workspace and slash-separated, as the pull request's files name them.
func PlanRoots(plans []render.CommentPlan, workspace string) []string {
	base, err := filepath.Abs(cmp.Or(workspace, "."))
	if err != nil {
		return nil
	}
	var roots []string
	for _, p := range plans {
		file := p.Path
		if file == "" && len(p.Streams) > 0 {
			file = p.Streams[0]
		}
		if file == "" {
			continue
		}
		abs, err := filepath.Abs(filepath.Dir(file))
		if err != nil {
			continue
		}
		rel, err := filepath.Rel(base, abs)
		if err != nil || strings.HasPrefix(rel, "..") {
			continue
		}
		if r := filepath.ToSlash(rel); !slices.Contains(roots, r) {
			roots = append(roots, r)
		}
	}
	slices.Sort(roots)
	return roots
}

// ByRoots splits lock files into those in one of roots' directories and
// the others.
func ByRoots(locks []*lockdiff.FileDiff, roots []string) (in, out []*lockdiff.FileDiff) {
	for _, fd := range locks {
		if slices.Contains(roots, path.Dir(fd.Path)) {
			in = append(in, fd)
		} else {
			out = append(out, fd)
		}
	}
	return in, out
}

// PublishUnclaimedLocks keeps the comment of the lock files no planpr
// comment on the pull request holds (key "locks"): lock files outside
// every root a plan comment holds (their markers say, own's among them)
// are reviewed once, in a comment of their own; once each is some root's,
// that comment goes. The Action and the App both keep it so.
func PublishUnclaimedLocks(ctx context.Context, api Comments, repo gh.Repo, pr int, author string, own render.Marker, locks []*lockdiff.FileDiff, opts render.CommentOptions, mode CommentMode) error {
	all, err := planprComments(ctx, api, repo, pr, author)
	if err != nil {
		return err
	}
	claimed := slices.Clone(own.Roots)
	for _, c := range all {
		if c.Marker.Key != render.MarkerField(own.Key) {
			claimed = append(claimed, c.Marker.Roots...)
		}
	}
	_, unclaimed := ByRoots(locks, claimed)
	marker := render.Marker{Key: report.LocksKey, SHA: own.SHA, At: own.At, Run: own.Run}
	if len(unclaimed) == 0 {
		for _, c := range withKey(all, report.LocksKey) {
			if err := api.DeleteComment(ctx, repo, c.ID); err != nil {
				return err
			}
		}
		return nil
	}
	var body bytes.Buffer
	_, err = render.CommentContext(ctx, &body, nil, render.CommentOptions{Marker: marker, Title: report.Title(report.LocksKey), Locks: unclaimed,
		Version: opts.Version, RunURL: opts.RunURL, PlanOptions: opts.PlanOptions})
	if err != nil {
		return err
	}
	_, err = Upsert(ctx, api, repo, pr, author, marker, body.String(), mode)
	return err
}
