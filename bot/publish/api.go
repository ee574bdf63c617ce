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
