package publish

import (
	"bytes"
	"cmp"
	"context"
	"io"
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
// the lock comment kept, nil when there is none.
func PublishUnclaimedLocks(ctx context.Context, api Comments, repo gh.Repo, pr int, author string, own render.Marker, locks []*lockdiff.FileDiff, opts render.CommentOptions, mode CommentMode) (*LockComment, error) {
	all, err := planprComments(ctx, api, repo, pr, author)
	if err != nil {
		return nil, err
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
				return nil, err
			}
		}
		return nil, nil
	}
	var body, checkBody bytes.Buffer
	o := render.CommentOptions{Marker: marker, Title: report.Title(report.LocksKey), Locks: unclaimed,
		Version: opts.Version, RunURL: opts.RunURL, PlanOptions: opts.PlanOptions}
	checkOpts := o
	checkOpts.MaxSize = CheckSummaryRoom
	results, err := render.CommentsContext(ctx, []io.Writer{&body, &checkBody}, nil, []render.CommentOptions{o, checkOpts})
	if err != nil {
		return nil, err
	}
	up, err := Upsert(ctx, api, repo, pr, author, marker, body.String(), mode)
	if err != nil {
		return nil, err
	}
	lc := &LockComment{Result: results[0], Body: body.String(), CheckBody: checkBody.String(), Locks: unclaimed}
	if up.Comment != nil {
		lc.URL = up.Comment.URL
	}
	return lc, nil
}

// LockComment is the lock comment as kept: what a check of it needs.
type LockComment struct {
	Result          *render.CommentResult
	Body, CheckBody string
	URL             string
	Locks           []*lockdiff.FileDiff
}
