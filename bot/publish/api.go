// Package publish is where a report goes on GitHub: the convergent upsert
// of planpr's comments, the comment of the lock files no plan comment
// holds, and planpr's labels — the GitHub sink of the Action and the App.
package publish

import (
	"context"

	"github.com/planpr/planpr/bot/gh"
)

// The GitHub calls publishing makes, implemented by *gh.Client (faked over
// HTTP in tests).
type (
	// Comments is what the convergent upsert needs.
	Comments interface {
		ListComments(ctx context.Context, repo gh.Repo, pr int) ([]*gh.Comment, error)
		CreateComment(ctx context.Context, repo gh.Repo, pr int, body string) (*gh.Comment, error)
		EditComment(ctx context.Context, repo gh.Repo, id int64, body string) (*gh.Comment, error)
		DeleteComment(ctx context.Context, repo gh.Repo, id int64) error
		MinimizeComment(ctx context.Context, nodeID string) error
	}
	// Labels is what syncing planpr's labels needs.
	Labels interface {
		Labels(ctx context.Context, repo gh.Repo, pr int) ([]string, error)
		AddLabels(ctx context.Context, repo gh.Repo, pr int, labels []string) error
		RemoveLabel(ctx context.Context, repo gh.Repo, pr int, label string) error
	}
)

// RunComments is one run's view of the comments: a pull request's
// comments are listed once and that list serves every later read of the
// run (the upsert, the lock comment, the labels' sum) until the run
// writes a comment, after which the next read lists them again — so a
// run that changes nothing lists them once, and a run that writes still
// reads what it and any concurrent run wrote (the upsert's convergence
// depends on that). Make one per run: it is not safe for concurrent use,
// and a list kept across runs would go stale.
type RunComments struct {
	Comments
	listed map[runCommentsKey][]*gh.Comment
}

type runCommentsKey struct {
	repo gh.Repo
	pr   int
}

// NewRunComments wraps api for one run.
func NewRunComments(api Comments) *RunComments {
	return &RunComments{Comments: api, listed: map[runCommentsKey][]*gh.Comment{}}
}

func (r *RunComments) ListComments(ctx context.Context, repo gh.Repo, pr int) ([]*gh.Comment, error) {
	k := runCommentsKey{repo, pr}
	if all, ok := r.listed[k]; ok {
		return all, nil
	}
	all, err := r.Comments.ListComments(ctx, repo, pr)
	if err == nil {
		r.listed[k] = all
	}
	return all, err
}

func (r *RunComments) CreateComment(ctx context.Context, repo gh.Repo, pr int, body string) (*gh.Comment, error) {
	clear(r.listed)
	return r.Comments.CreateComment(ctx, repo, pr, body)
}

func (r *RunComments) EditComment(ctx context.Context, repo gh.Repo, id int64, body string) (*gh.Comment, error) {
	clear(r.listed)
	return r.Comments.EditComment(ctx, repo, id, body)
}

func (r *RunComments) DeleteComment(ctx context.Context, repo gh.Repo, id int64) error {
	clear(r.listed)
	return r.Comments.DeleteComment(ctx, repo, id)
}

func (r *RunComments) MinimizeComment(ctx context.Context, nodeID string) error {
	clear(r.listed)
	return r.Comments.MinimizeComment(ctx, nodeID)
}
