package webhook

import (
	"context"
	"time"

	"github.com/riverqueue/river"
)

// HookDelivery is one attempt GitHub made to deliver to the App's webhook,
// as GET /app/hook/deliveries lists them.
type HookDelivery struct {
	ID          int64  // the attempt's id, which POST /app/hook/deliveries/{id}/attempts takes
	GUID        string // the delivery's id (X-GitHub-Delivery), shared by its redeliveries
	StatusCode  int    // what planpr answered; 0 when nothing did
	DeliveredAt time.Time
	Event       string
}

// Redeliverer is a Handler that can list the App's recent deliveries and
// ask GitHub to send one again: the intake then sweeps for deliveries that
// never reached it (planpr down, a network fault) — GitHub does not
// retry on its own.
type Redeliverer interface {
	RecentDeliveries(ctx context.Context, since time.Time) ([]HookDelivery, error)
	Redeliver(ctx context.Context, id int64) error
}

// redeliverWindow is how far back the sweep looks: GitHub redelivers for
// three days, and a redelivery asked is remembered (as its job) for a day.
const redeliverWindow = 20 * time.Hour

// redeliverArgs asks GitHub once to redeliver a delivery: one job per
// delivery id, whichever replica's sweep found it.
type redeliverArgs struct {
	GUID   string `json:"guid" river:"unique"`
	HookID int64  `json:"hook_id"`
}

func (redeliverArgs) Kind() string { return "planpr_redeliver" }

type redeliverWorker struct {
	river.WorkerDefaults[redeliverArgs]
	s *Server
}

func (w *redeliverWorker) Work(ctx context.Context, job *river.Job[redeliverArgs]) error {
	r, ok := w.s.h.(Redeliverer)
	if !ok {
		return nil
	}
	err := r.Redeliver(ctx, job.Args.HookID)
	w.s.metrics.redelivery(err)
	if err != nil {
		w.s.log.Warn("GitHub did not redeliver", "delivery", job.Args.GUID, "hook_delivery", job.Args.HookID, "job", job.ID, "error", err.Error())
		return err
	}
	w.s.log.Info("redelivery asked", "delivery", job.Args.GUID, "hook_delivery", job.Args.HookID, "job", job.ID)
	return nil
}

// sweep looks for missed deliveries at start and every RedeliverEvery.
func (s *Server) sweep(ctx context.Context, r Redeliverer) {
	t := time.NewTicker(s.cfg.RedeliverEvery)
	defer t.Stop()
	for {
		if n, err := s.redeliverMissed(ctx, r); err != nil {
			if ctx.Err() != nil {
				return
			}
			s.log.Warn("cannot check the App's recent deliveries", "error", err.Error())
		} else if n > 0 {
			s.log.Info("missed deliveries queued for redelivery", "deliveries", n)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// redeliverMissed queues a redelivery of every recent delivery none of
// whose attempts planpr answered with a 2xx and that is not in the queue
// (a delivery kept but answered too late for GitHub is not missed). It
// returns how many it queued now.
func (s *Server) redeliverMissed(ctx context.Context, r Redeliverer) (int, error) {
	list, err := r.RecentDeliveries(ctx, time.Now().Add(-redeliverWindow))
	if err != nil {
		return 0, err
	}
	type attempts struct {
		ok     bool
		latest HookDelivery
	}
	byGUID := map[string]*attempts{}
	var order []string
	for _, d := range list {
		if d.GUID == "" || !validDelivery(d.GUID) {
			continue
		}
		a := byGUID[d.GUID]
		if a == nil {
			a = &attempts{latest: d}
			byGUID[d.GUID] = a
			order = append(order, d.GUID)
		}
		a.ok = a.ok || d.StatusCode >= 200 && d.StatusCode < 300
		if d.DeliveredAt.After(a.latest.DeliveredAt) {
			a.latest = d
		}
	}
	queued := 0
	for _, guid := range order {
		a := byGUID[guid]
		if a.ok {
			continue
		}
		if kept, err := s.kept(ctx, guid); err != nil {
			return queued, err
		} else if kept {
			continue
		}
		res, err := s.client.Insert(ctx, redeliverArgs{GUID: guid, HookID: a.latest.ID}, &river.InsertOpts{UniqueOpts: river.UniqueOpts{ByArgs: true}, MaxAttempts: 3})
		if err != nil {
			return queued, err
		}
		if !res.UniqueSkippedAsDuplicate {
			queued++
		}
	}
	return queued, nil
}
