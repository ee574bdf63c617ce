package bot

import (
	"context"

	"github.com/planpr/planpr/bot/publish"
	"github.com/planpr/planpr/lockdiff"
	"github.com/planpr/planpr/render/report"
)

// publishOtherLocks keeps the comment of the lock files no planpr comment
// on the pull request holds (key "locks"), for the Action.
func publishOtherLocks(ctx context.Context, api publish.Comments, p *actionPlan, others []*lockdiff.FileDiff, base report.Request) error {
	_, err := publish.PublishUnclaimedLocks(ctx, api, p.repo, p.pr, p.author, p.marker, others, lockBuilder(base), p.commentMode)
	return err
}

// lockBuilder builds the lock comment's report from a runner's request.
func lockBuilder(base report.Request) publish.BuildLocks {
	return func(ctx context.Context, marker report.Marker, locks []*lockdiff.FileDiff) (*report.Report, error) {
		return report.Build(ctx, report.LocksRequest(base, marker, locks))
	}
}
