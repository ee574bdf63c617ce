package publish

import (
	"cmp"
	"context"
	"github.com/planpr/planpr/render/inputs"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/planpr/planpr/bot/gh"
	"github.com/planpr/planpr/lockdiff"
	"github.com/planpr/planpr/render/report"
)

// PlanRoots are the directories of the plans of a run, relative to the
// workspace and slash-separated, as the pull request's files name them.
func PlanRoots(plans []inputs.Root, workspace string) []string {
	base, err := filepath.Abs(cmp.Or(workspace, "."))
	if err != nil {
		return nil
	}
	var roots []string
	for _, p := range plans {
		if p.Root != "" { // its place in the repository, as a manifest says it
			if !slices.Contains(roots, p.Root) {
				roots = append(roots, p.Root)
			}
			continue
		}
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
// that comment goes. The Action and the App both keep it so. It returns
// the lock comment kept, nil when there is none. build makes its report
// (report.LocksRequest): the sink posts what it is given.
func PublishUnclaimedLocks(ctx context.Context, api Comments, repo gh.Repo, pr int, author string, own report.Marker, locks []*lockdiff.FileDiff, build BuildLocks, mode CommentMode) (*LockComment, error) {
	all, err := planprComments(ctx, api, repo, pr, author)
	if err != nil {
		return nil, err
	}
	claimed := slices.Clone(own.Roots)
	for _, c := range all {
		if c.Marker.Key != report.MarkerField(own.Key) {
			claimed = append(claimed, c.Marker.Roots...)
		}
	}
	_, unclaimed := ByRoots(locks, claimed)
	marker := report.Marker{Key: report.LocksKey, SHA: own.SHA, At: own.At, Run: own.Run}
	if len(unclaimed) == 0 {
		for _, c := range withKey(all, report.LocksKey) {
			if err := api.DeleteComment(ctx, repo, c.ID); err != nil {
				return nil, err
			}
		}
		return nil, nil
	}
	rep, err := build(ctx, marker, unclaimed)
	if err != nil {
		return nil, err
	}
	up, err := Upsert(ctx, api, repo, pr, author, marker, rep.Comment, mode)
	if err != nil {
		return nil, err
	}
	lc := &LockComment{Result: rep.Result, Body: rep.Comment, CheckBody: rep.Check, Locks: unclaimed}
	if up.Comment != nil {
		lc.URL = up.Comment.URL
	}
	return lc, nil
}

// BuildLocks builds the report of the lock comment: the lock files no
// root's comment holds, under its marker.
type BuildLocks func(ctx context.Context, marker report.Marker, locks []*lockdiff.FileDiff) (*report.Report, error)

// LockComment is the lock comment as kept: what a check of it needs.
type LockComment struct {
	Result          *report.Result
	Body, CheckBody string
	URL             string
	Locks           []*lockdiff.FileDiff
}
