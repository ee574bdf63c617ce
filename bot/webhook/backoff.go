package webhook

import (
	"math/rand/v2"
	"time"

	"github.com/riverqueue/river/rivertype"
)

// backoff is the wait before a failed job's next attempt: base, doubled
// at each attempt up to maxBackoff, give or take a tenth so that jobs
// failing together do not retry together. (A Retry-After from GitHub
// snoozes the job instead; see RetryAfter.)
type backoff struct{ base time.Duration }

const maxBackoff = 10 * time.Minute

func (b *backoff) NextRetry(job *rivertype.JobRow) time.Time {
	d := b.base
	for i := 1; i < job.Attempt && d < maxBackoff; i++ {
		d *= 2
	}
	d = min(d, maxBackoff)
	d += time.Duration(rand.Int64N(int64(d)/5+1)) - d/10
	return time.Now().Add(d)
}
