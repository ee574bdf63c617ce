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
	Redelivery  bool // an attempt asked for again, not GitHub's first
}

// Redeliverer is a Handler that can list the App's recent deliveries and
// ask GitHub to send one again: the intake then sweeps for deliveries that
// never reached it (planpr down, a network fault) — GitHub does not
// retry on its own.
type Redeliverer interface {
	RecentDeliveries(ctx context.Context, since time.Time) ([]HookDelivery, error)
	Redeliver(ctx context.Context, id int64) error
}

// GitHub keeps an App's deliveries, and redelivers them, for three days.
// The sweep looks that far back; a delivery none of whose attempts
// succeeded by redeliverGiveUp after its first is lost, said in the log
// and counted once.
const (
	redeliverWindow = 72 * time.Hour
	redeliverGiveUp = 71 * time.Hour
)

// redeliverWait is how long after a delivery's latest failed redelivery
// the next is asked: 2 minutes after the first, doubling, at most 6 hours
// — about 18 tries within GitHub's three days.
func redeliverWait(redeliveries int) time.Duration {
	if redeliveries <= 0 {
		return 0
	}
	return min(time.Minute<<min(redeliveries, 10), 6*time.Hour)
}

// redeliverArgs asks GitHub once to redeliver a delivery after its Try-th
// failed redelivery: one job per delivery and try, whichever replica's
// sweep found it.
type redeliverArgs struct {
	GUID   string `json:"guid" river:"unique"`
	Try    int    `json:"try" river:"unique"`
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
// (a delivery kept but answered too late for GitHub is not missed), once
// its back-off since the latest failed redelivery has passed; one that
// GitHub is about to forget is lost. It returns how many it queued now.
func (s *Server) redeliverMissed(ctx context.Context, r Redeliverer) (int, error) {
	now := time.Now()
	list, err := r.RecentDeliveries(ctx, now.Add(-redeliverWindow))
	if err != nil {
		return 0, err
	}
	byGUID := map[string]*attempts{}
	var order []string
	for _, d := range list {
		if d.GUID == "" || !validDelivery(d.GUID) {
			continue
		}
		a := byGUID[d.GUID]
		if a == nil {
			a = &attempts{latest: d, first: d.DeliveredAt}
			byGUID[d.GUID] = a
			order = append(order, d.GUID)
		}
		a.ok = a.ok || d.StatusCode >= 200 && d.StatusCode < 300
		if d.Redelivery {
			a.redeliveries++
		}
		if d.DeliveredAt.After(a.latest.DeliveredAt) {
			a.latest = d
		}
		if d.DeliveredAt.Before(a.first) {
			a.first = d.DeliveredAt
		}
	}
	s.forgetLost(byGUID)
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
		if now.Sub(a.first) >= redeliverGiveUp {
			s.lost(guid, a.latest.Event, a.first, a.redeliveries)
			continue
		}
		if now.Before(a.latest.DeliveredAt.Add(redeliverWait(a.redeliveries))) {
			continue // its back-off has not passed
		}
		res, err := s.client.Insert(ctx, redeliverArgs{GUID: guid, Try: a.redeliveries, HookID: a.latest.ID}, &river.InsertOpts{UniqueOpts: river.UniqueOpts{ByArgs: true}, MaxAttempts: 3})
		if err != nil {
			return queued, err
		}
		if !res.UniqueSkippedAsDuplicate {
			queued++
		}
	}
	return queued, nil
}

// attempts are a delivery's attempts, as GitHub lists them.
type attempts struct {
	ok           bool
	first        time.Time
	latest       HookDelivery
	redeliveries int
}

// lost says, once per process, that a delivery will not reach planpr.
func (s *Server) lost(guid, event string, first time.Time, redeliveries int) {
	s.lostMu.Lock()
	defer s.lostMu.Unlock()
	if s.lostSeen == nil {
		s.lostSeen = map[string]bool{}
	}
	if s.lostSeen[guid] {
		return
	}
	s.lostSeen[guid] = true
	s.metrics.lostDelivery()
	s.log.Error("delivery lost: none of its attempts reached planpr, and GitHub is about to forget it; its pull request is reviewed again at its next push",
		"delivery", guid, "event", eventLabel(event), "first_attempt", first.UTC().Format(time.RFC3339), "redeliveries", redeliveries)
}

// forgetLost drops the lost deliveries GitHub no longer lists, so that
// what lost remembers stays within GitHub's window.
func (s *Server) forgetLost(listed map[string]*attempts) {
	s.lostMu.Lock()
	defer s.lostMu.Unlock()
	for guid := range s.lostSeen {
		if listed[guid] == nil {
			delete(s.lostSeen, guid)
		}
	}
}
