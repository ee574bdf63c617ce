package bot

import (
	"context"

	"github.com/planpr/planpr/bot/publish"
	"github.com/planpr/planpr/lockdiff"
	"github.com/planpr/planpr/render"
)

// publishOtherLocks keeps the comment of the lock files no planpr comment
// on the pull request holds (key "locks"), for the Action.
func publishOtherLocks(ctx context.Context, api publish.Comments, p *actionPlan, others []*lockdiff.FileDiff, opts render.CommentOptions) error {
	_, err := publish.PublishUnclaimedLocks(ctx, api, p.repo, p.pr, p.author, p.marker, others, opts, p.commentMode)
	return err
}
