package bot

import (
	"context"

	"github.com/planpr/planpr/bot/publish"
	"github.com/planpr/planpr/lockdiff"
	"github.com/planpr/planpr/render/report"
)

// QuietReport says a comment has nothing to say: no change, no failure,
// no lock file.
func QuietReport(res *report.Result, locks []*lockdiff.FileDiff) bool {
	return !res.HasChange && !res.Errored && len(locks) == 0
}

// LockBuilder builds the lock comment's report from a runner's request.
func LockBuilder(base report.Request) publish.BuildLocks {
	return func(ctx context.Context, marker report.Marker, locks []*lockdiff.FileDiff) (*report.Report, error) {
		return report.Build(ctx, report.LocksRequest(base, marker, locks))
	}
}
