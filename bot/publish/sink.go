package publish

import (
	"context"

	"github.com/planpr/planpr/render/report"
)

// A Sink is where a run's built reports go: GitHub for the Action and the
// App (each comment kept, the lock comment, the labels, the checks), the
// terminal for dry-run. A sink never renders: what it posts is what
// report.Build made.
type Sink interface {
	Publish(ctx context.Context, pub Publication) error
}

// Publication is what one run hands its sink: its reports, one per
// comment in the order they are kept, and each one's step outputs, which
// the sink adds to as it learns (a comment's id and URL, a check's
// verdict).
type Publication struct {
	Reports []*report.Report
	Outputs []map[string]string
}
