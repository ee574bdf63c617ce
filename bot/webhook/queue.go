package webhook

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"strings"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
)

// deliveryArgs is a verified delivery, kept in the queue until done: one
// job per delivery id, whoever receives it and however often.
type deliveryArgs struct {
	ID     string          `json:"id" river:"unique"`
	Event  string          `json:"event"`
	Key    string          `json:"key,omitempty"`    // its pull request: the newest delivery of a key supersedes older ones
	Tenant string          `json:"tenant,omitempty"` // its installation: see Job.Tenant
	Body   json.RawMessage `json:"body"`
}

func (deliveryArgs) Kind() string { return "planpr_delivery" }

// jobMetadata is what job lists filter deliveries by (metadata ->> 'key',
// which PostgreSQL and SQLite both read; River's Metadata filter is
// PostgreSQL's alone).
type jobMetadata struct {
	Key      string `json:"key,omitempty"`
	Delivery string `json:"delivery,omitempty"`
}

// RetryAfter is implemented by errors that know when to try again (a rate
// limit's Retry-After): the job waits that long, without spending an
// attempt.
type RetryAfter interface {
	RetryAfter() time.Duration
}

// Permanent marks a Handler's error that trying again cannot mend (a
// payload or an artifact refused): the job is cancelled, not retried.
func Permanent(err error) error { return permanentError{err} }

// IsPermanent reports whether err was marked Permanent.
func IsPermanent(err error) bool {
	var p permanentError
	return errors.As(err, &p)
}

type permanentError struct{ err error }

func (e permanentError) Error() string { return e.err.Error() }
func (e permanentError) Unwrap() error { return e.err }

// enqueue keeps a verified delivery: it reports whether the delivery was
// new (false for one already kept, by this replica or another).
func (s *Server) enqueue(ctx context.Context, id, event string, job *Job, body []byte) (bool, int64, error) {
	meta, _ := json.Marshal(jobMetadata{Key: job.Key, Delivery: id})
	res, err := s.inserts.insert(ctx, s.client, deliveryArgs{ID: id, Event: event, Key: job.Key, Tenant: job.Tenant, Body: body}, &river.InsertOpts{
		Metadata:   meta,
		UniqueOpts: river.UniqueOpts{ByArgs: true},
	})
	if err != nil {
		return false, 0, err
	}
	return !res.UniqueSkippedAsDuplicate, res.Job.ID, nil
}

// deliveryWorker works a delivery's job.
type deliveryWorker struct {
	river.WorkerDefaults[deliveryArgs]
	s *Server
}

func (w *deliveryWorker) Timeout(*river.Job[deliveryArgs]) time.Duration { return w.s.cfg.JobTimeout }

// Work hands a delivery to the Handler, unless a newer delivery of the same
// pull request waits, runs or is done (that one does the work, for the newest
// head); deliveries of one pull request run one at a time here. A panic
// cancels the job (trying it again would panic again); an error retries
// it with backoff, or after the Retry-After it carries; a shutdown puts it
// back for the next start.
func (w *deliveryWorker) Work(ctx context.Context, job *river.Job[deliveryArgs]) (err error) {
	s, a := w.s, job.Args
	event := eventLabel(a.Event)
	attrs := []any{"delivery", a.ID, "event", a.Event, "job", job.ID, "attempt", job.Attempt}
	if j, _ := s.h.Accept(a.Event, a.Body); j != nil {
		attrs = append(attrs, j.Log...)
	}
	log := s.log.With(attrs...)
	if a.Key != "" {
		// Checked once the key is ours: deliveries that came while an
		// older one of the pull request ran are seen.
		defer s.keys.Lock(a.Key)()
		newer, err := s.newerDelivery(ctx, a.Key, job.ID)
		if err != nil {
			return err
		}
		if newer != 0 {
			s.metrics.delivery(event, "superseded")
			log.Info("superseded by a newer delivery of the same pull request", "by_job", newer)
			return nil
		}
	}
	if a.Tenant != "" {
		release, ok := s.tenants.acquire(a.Tenant, tenantShare(s.cfg.Workers))
		if !ok {
			s.metrics.delivery(event, "deferred")
			return river.JobSnooze(time.Second) // its tenant has its share of the workers: others go first
		}
		defer release()
	}
	start := time.Now()
	defer func() {
		if p := recover(); p != nil {
			s.metrics.delivery(event, "panic")
			log.Error("panic while handling a delivery", "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			err = river.JobCancel(fmt.Errorf("panic: %v", p))
		}
		s.metrics.processed(time.Since(start))
	}()
	if err := s.h.Handle(ctx, a.Event, a.Body, log); err != nil {
		var ra RetryAfter
		var permanent permanentError
		switch {
		case errors.As(err, &permanent):
			s.metrics.delivery(event, "refused")
			log.Warn("delivery refused: not retried", "error", err.Error())
			return river.JobCancel(err)
		case s.closing.Load() && ctx.Err() != nil:
			log.Info("interrupted by the shutdown: kept for the next start")
			return river.JobSnooze(0)
		case errors.As(err, &ra) && ra.RetryAfter() > 0:
			s.metrics.delivery(event, "snoozed")
			log.Warn("GitHub asks to wait", "retry_after_s", ra.RetryAfter().Seconds(), "error", err.Error())
			return river.JobSnooze(ra.RetryAfter())
		}
		s.metrics.delivery(event, "failed")
		log.Error("delivery failed", "error", err.Error(), "duration_ms", time.Since(start).Milliseconds(), "max_attempts", job.MaxAttempts)
		return err
	}
	s.metrics.delivery(event, "done")
	log.Info("delivery done", "duration_ms", time.Since(start).Milliseconds(), "queued_ms", start.Sub(job.CreatedAt).Milliseconds())
	return nil
}

// supersedingStates are the states of a newer delivery that make an older
// one step aside: waiting, running, or done. Done counts: an older job
// retried, or one that waited for the key while the newer one ran, must
// not run after it (River may mark the newer one completed before the
// older one takes the key).
var supersedingStates = []rivertype.JobState{rivertype.JobStateAvailable, rivertype.JobStatePending, rivertype.JobStateRetryable,
	rivertype.JobStateScheduled, rivertype.JobStateRunning, rivertype.JobStateCompleted}

// newerDelivery is the id of a delivery of key newer than job id that
// waits, runs or is done, or 0.
func (s *Server) newerDelivery(ctx context.Context, key string, id int64) (int64, error) {
	res, err := s.client.JobList(ctx, river.NewJobListParams().Kinds(deliveryArgs{}.Kind()).States(supersedingStates...).
		Where("id > @older_job", river.NamedArgs{"older_job": id}). // done jobs are kept for a day: read only the newer ones
		Where("metadata ->> 'key' = @key", river.NamedArgs{"key": key}).OrderBy(river.JobListOrderByID, river.SortOrderDesc).First(1))
	if err != nil {
		return 0, err
	}
	if len(res.Jobs) > 0 && res.Jobs[0].ID > id {
		return res.Jobs[0].ID, nil
	}
	return 0, nil
}

// kept reports whether a delivery id is in the queue, in any state.
func (s *Server) kept(ctx context.Context, delivery string) (bool, error) {
	res, err := s.client.JobList(ctx, river.NewJobListParams().Kinds(deliveryArgs{}.Kind()).
		Where("metadata ->> 'delivery' = @delivery", river.NamedArgs{"delivery": delivery}).First(1))
	if err != nil {
		return false, err
	}
	return len(res.Jobs) > 0, nil
}

// FailedJob is a job that ran out of attempts, or failed and waits to be
// tried again: for `planpr jobs`.
type FailedJob struct {
	ID, Attempts, MaxAttempts int64
	State, Kind, Delivery     string
	Event, LastError          string
	CreatedAt                 time.Time
}

// FailedJobs lists the queue's failed jobs, newest first.
func FailedJobs(ctx context.Context, cfg StoreConfig, limit int) ([]FailedJob, error) {
	st, err := openStoreReadOnly(ctx, cfg)
	if err != nil {
		return nil, err
	}
	defer st.close()
	client, err := st.newRun(&river.Config{Logger: quiet(cfg.Logger)})
	if err != nil {
		return nil, err
	}
	res, err := client.JobList(ctx, river.NewJobListParams().States(rivertype.JobStateDiscarded, rivertype.JobStateRetryable, rivertype.JobStateCancelled).
		OrderBy(river.JobListOrderByID, river.SortOrderDesc).First(limit))
	if err != nil {
		return nil, err
	}
	var out []FailedJob
	for _, j := range res.Jobs {
		f := FailedJob{ID: j.ID, Attempts: int64(j.Attempt), MaxAttempts: int64(j.MaxAttempts), State: string(j.State), Kind: j.Kind, CreatedAt: j.CreatedAt}
		var a deliveryArgs
		if json.Unmarshal(j.EncodedArgs, &a) == nil {
			f.Delivery, f.Event = a.ID, a.Event
		}
		if n := len(j.Errors); n > 0 {
			f.LastError = j.Errors[n-1].Error
		}
		if f.State == "cancelled" {
			// River cancels what planpr will not retry: said as what it is.
			f.LastError = strings.TrimPrefix(strings.TrimPrefix(f.LastError, "JobCancelError: "), "jobCancelError: ")
			f.State = "refused, not retried"
			if strings.HasPrefix(f.LastError, "panic: ") {
				f.State = "panicked, not retried"
			}
		}
		out = append(out, f)
	}
	return out, nil
}

// logEvents counts the jobs' outcomes, latency and attempts for /metrics.
func (s *Server) logEvents(events <-chan *river.Event) {
	for ev := range events {
		if ev.Job == nil {
			continue
		}
		latency := time.Duration(0)
		if ev.Job.FinalizedAt != nil {
			latency = ev.Job.FinalizedAt.Sub(ev.Job.CreatedAt)
		}
		s.metrics.job(string(ev.Kind), ev.Job.Attempt, latency)
		if ev.Kind == river.EventKindJobFailed && len(ev.Job.Errors) > 0 {
			last := ev.Job.Errors[len(ev.Job.Errors)-1]
			s.log.Warn("job failed", "job", ev.Job.ID, "kind", ev.Job.Kind, "attempt", ev.Job.Attempt, "max_attempts", ev.Job.MaxAttempts, "error", last.Error)
		}
	}
}
