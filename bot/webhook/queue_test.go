package webhook

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/planpr/planpr/bot/githubtest"
	"github.com/planpr/planpr/bot/webhook/pgtest"
)

// forEachStore runs a test on a SQLite queue and on a PostgreSQL one.
func forEachStore(t *testing.T, test func(t *testing.T, store func() StoreConfig)) {
	t.Run("sqlite", func(t *testing.T) {
		dir := t.TempDir()
		test(t, func() StoreConfig { return StoreConfig{DataDir: dir} })
	})
	t.Run("postgres", func(t *testing.T) {
		url := pgtest.Start(t)
		test(t, func() StoreConfig { return StoreConfig{DatabaseURL: url} })
	})
}

func (a *testIntake) send(t testing.TB, id, body string) int {
	resp, _ := a.deliver(t, "pull_request", id, []byte(body), githubtest.Sign(testSecret, []byte(body)))
	return resp.StatusCode
}

// TestQueueKeepsEachDeliveryOnce: a delivery is kept before its 202; the
// same delivery again is a 200, and done once.
func TestQueueKeepsEachDeliveryOnce(t *testing.T) {
	forEachStore(t, func(t *testing.T, store func() StoreConfig) {
		a := newTestIntake(t, Config{Workers: 2, Store: store()})
		if code := a.send(t, "d-1", `{"id":1}`); code != http.StatusAccepted {
			t.Fatalf("first: %d", code)
		}
		if code := a.send(t, "d-1", `{"id":1}`); code != http.StatusOK {
			t.Errorf("again: %d", code)
		}
		if err := a.srv.Start(); err != nil {
			t.Fatal(err)
		}
		waitUntil(t, func() bool { return a.h.doneCount() == 1 })
		time.Sleep(300 * time.Millisecond)
		if n := a.h.doneCount(); n != 1 {
			t.Errorf("done %d times", n)
		}
	})
}

// TestQueueCoalescesAPullRequest: 25 deliveries of one pull request while
// its first runs end in at most two more runs, the newest among them.
func TestQueueCoalescesAPullRequest(t *testing.T) {
	forEachStore(t, func(t *testing.T, store func() StoreConfig) {
		a := newTestIntake(t, Config{Workers: 4, Store: store()})
		a.h.gate = make(chan struct{})
		if err := a.srv.Start(); err != nil {
			t.Fatal(err)
		}
		a.send(t, "c-0", `{"key":"o/r#1","id":0}`)
		waitUntil(t, func() bool { return strings.Contains(metricsText(t, a), `planpr_queue_jobs{state="running"} 1`) })
		for i := 1; i < 25; i++ {
			if code := a.send(t, fmt.Sprint("c-", i), fmt.Sprintf(`{"key":"o/r#1","id":%d}`, i)); code != http.StatusAccepted {
				t.Fatalf("delivery %d: %d", i, code)
			}
		}
		close(a.h.gate)
		waitUntil(t, func() bool {
			return strings.Contains(metricsText(t, a), `planpr_queue_depth 0`) && strings.Contains(metricsText(t, a), `planpr_queue_jobs{state="running"} 0`)
		})
		a.h.mu.Lock()
		defer a.h.mu.Unlock()
		if n := len(a.h.done); n < 1 || n > 3 {
			t.Errorf("%d runs for 25 deliveries of one pull request", n)
		}
		if last := a.h.done[len(a.h.done)-1]["id"]; last != float64(24) {
			t.Errorf("the last run was delivery %v, not the newest", last)
		}
		mustContain(t, metricsText(t, a), `result="superseded"}`)
	})
}

// TestQueueOlderRetryStepsAsideForADoneNewer: a delivery whose first
// attempt failed, and whose pull request's newer delivery is done before
// its retry, steps aside: it never runs after the newer one.
func TestQueueOlderRetryStepsAsideForADoneNewer(t *testing.T) {
	forEachStore(t, func(t *testing.T, store func() StoreConfig) {
		a := newTestIntake(t, Config{Workers: 2, Store: store(), RetryBase: 700 * time.Millisecond})
		if err := a.srv.Start(); err != nil {
			t.Fatal(err)
		}
		a.send(t, "o-1", `{"key":"o/r#2","id":"older","fail":1}`)
		waitUntil(t, func() bool { return strings.Contains(metricsText(t, a), `result="failed"} 1`) })
		a.send(t, "o-2", `{"key":"o/r#2","id":"newer"}`)
		waitUntil(t, func() bool { return strings.Contains(metricsText(t, a), `planpr_queue_jobs{state="completed"} 2`) })
		a.h.mu.Lock()
		defer a.h.mu.Unlock()
		if len(a.h.done) != 1 || a.h.done[0]["id"] != "newer" {
			t.Errorf("runs %v: want the newer delivery's alone", a.h.done)
		}
		mustContain(t, metricsText(t, a), `result="superseded"} 1`)
	})
}

// TestQueueRetriesThenKeepsFailures: a job failing twice is done on its
// third attempt; one failing always is discarded after MaxAttempts and
// listed as failed.
func TestQueueRetriesThenKeepsFailures(t *testing.T) {
	forEachStore(t, func(t *testing.T, store func() StoreConfig) {
		cfg := store()
		a := newTestIntake(t, Config{Workers: 2, Store: cfg, MaxAttempts: 3, RetryBase: 20 * time.Millisecond})
		if err := a.srv.Start(); err != nil {
			t.Fatal(err)
		}
		a.send(t, "r-1", `{"id":"flaky","fail":2}`)
		a.send(t, "r-2", `{"id":"broken","fail":99}`)
		a.send(t, "r-3", `{"id":"refused","refuse":"the manifest names another pull request"}`)
		waitUntil(t, func() bool {
			m := metricsText(t, a)
			return a.h.doneCount() == 1 && strings.Contains(m, `planpr_queue_jobs{state="discarded"} 1`) && strings.Contains(m, `planpr_queue_jobs{state="cancelled"} 1`)
		})
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		// Read beside the running server (planpr jobs while serve runs),
		// then once it has stopped.
		if failed, err := FailedJobs(ctx, cfg, 10); err != nil || len(failed) != 2 {
			t.Fatalf("beside the running server: %+v %v", failed, err)
		}
		a.srv.Shutdown(ctx)
		failed, err := FailedJobs(ctx, cfg, 10)
		if err != nil {
			t.Fatal(err)
		}
		// A refused delivery is said as one, with its reason, never as
		// River's cancellation.
		if len(failed) != 2 || failed[0].Delivery != "r-3" || failed[0].State != "refused, not retried" || failed[0].LastError != "the manifest names another pull request" {
			t.Errorf("the refused job %+v", failed)
		}
		failed = failed[1:]
		if len(failed) != 1 || failed[0].Delivery != "r-2" || failed[0].State != "discarded" || failed[0].Attempts != 3 || !strings.Contains(failed[0].LastError, "attempt 3 fails") {
			t.Errorf("failed jobs %+v", failed)
		}
	})
}

// TestQueueSurvivesARestart: deliveries kept but not done when the
// server stops are done by the next one on the same store.
func TestQueueSurvivesARestart(t *testing.T) {
	forEachStore(t, func(t *testing.T, store func() StoreConfig) {
		cfg := store()
		a := newTestIntake(t, Config{Workers: 1, Store: cfg})
		for i := range 5 {
			a.send(t, fmt.Sprint("s-", i), fmt.Sprintf(`{"id":%d}`, i))
		}
		a.srv.Shutdown(context.Background()) // never started: all five wait
		b := newTestIntake(t, Config{Workers: 2, Store: cfg})
		if err := b.srv.Start(); err != nil {
			t.Fatal(err)
		}
		waitUntil(t, func() bool { return b.h.doneCount() == 5 })
	})
}

// fakeRedeliverer is GitHub's list of the App's deliveries.
type fakeRedeliverer struct {
	testHandler
	mu         sync.Mutex
	list       []HookDelivery
	redelivers map[int64]int
}

func (f *fakeRedeliverer) RecentDeliveries(ctx context.Context, since time.Time) ([]HookDelivery, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]HookDelivery(nil), f.list...), nil
}

func (f *fakeRedeliverer) Redeliver(ctx context.Context, id int64) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.redelivers[id]++
	return nil
}

// TestQueueRedeliversWhatFailed: deliveries none of whose attempts
// succeeded and that are not in the queue are redelivered, once, however
// many sweeps and replicas see them.
func TestQueueRedeliversWhatFailed(t *testing.T) {
	forEachStore(t, func(t *testing.T, store func() StoreConfig) {
		cfg := store()
		now := time.Now()
		f := &fakeRedeliverer{redelivers: map[int64]int{}, list: []HookDelivery{
			{ID: 1, GUID: "g-ok", StatusCode: 202, DeliveredAt: now},
			{ID: 2, GUID: "g-down", StatusCode: 0, DeliveredAt: now.Add(-time.Minute)},
			{ID: 3, GUID: "g-503", StatusCode: 503, DeliveredAt: now.Add(-2 * time.Minute)},
			{ID: 4, GUID: "g-503", StatusCode: 503, DeliveredAt: now.Add(-time.Minute)}, // GitHub's own later attempt
			{ID: 5, GUID: "g-fixed", StatusCode: 500, DeliveredAt: now.Add(-time.Minute)},
			{ID: 6, GUID: "g-fixed", StatusCode: 200, DeliveredAt: now},
			{ID: 7, GUID: "g-kept", StatusCode: 0, DeliveredAt: now}, // reached us, answered too late
		}}
		servers := make([]*Server, 2)
		for i := range servers {
			srv, err := New(Config{Secret: []byte(testSecret), Workers: 1, Store: cfg, RedeliverEvery: 50 * time.Millisecond, Logger: discardLogger()}, f)
			if err != nil {
				if i == 1 && cfg.DatabaseURL == "" {
					// One process per SQLite queue: the second replica is refused.
					if !strings.Contains(err.Error(), "in use by another planpr serve") {
						t.Errorf("second SQLite replica: %v", err)
					}
					servers = servers[:1]
					break
				}
				t.Fatal(err)
			}
			servers[i] = srv
		}
		// g-kept is in the queue already.
		if _, _, err := servers[0].enqueue(context.Background(), "g-kept", "pull_request", &Job{}, []byte(`{"id":"kept"}`)); err != nil {
			t.Fatal(err)
		}
		for _, srv := range servers {
			if err := srv.Start(); err != nil {
				t.Fatal(err)
			}
		}
		waitUntil(t, func() bool {
			f.mu.Lock()
			defer f.mu.Unlock()
			return f.redelivers[4] == 1 && f.redelivers[2] == 1
		})
		time.Sleep(500 * time.Millisecond) // several more sweeps
		for _, srv := range servers {
			srv.Shutdown(context.Background())
		}
		f.mu.Lock()
		defer f.mu.Unlock()
		want := map[int64]int{2: 1, 4: 1}
		if fmt.Sprint(f.redelivers) != fmt.Sprint(want) {
			t.Errorf("redelivered %v, want %v", f.redelivers, want)
		}
	})
}

func discardLogger() *slog.Logger { return slog.New(slog.DiscardHandler) }

// TestHealthFailsWhenTheQueueCannotBeWritten: /healthz writes to the
// queue's database to answer; a delivery it cannot keep is a 503.
func TestHealthFailsWhenTheQueueCannotBeWritten(t *testing.T) {
	a := newTestIntake(t, Config{Workers: 1})
	resp, err := http.Get(a.http.URL + "/healthz")
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("healthz: %v %v", resp, err)
	}
	a.srv.store.db.Close() // the disk is gone, as far as planpr can tell
	resp, err = http.Get(a.http.URL + "/healthz")
	if err != nil || resp.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("healthz with the queue closed: %v %v", resp, err)
	}
	if code := a.send(t, "h-1", `{"id":1}`); code != http.StatusServiceUnavailable {
		t.Errorf("a delivery that cannot be kept: %d", code)
	}
}

// TestQueueKeepsABurstOnce: deliveries arriving together are committed
// together; each is answered 202 or 200, a delivery sent twice at once is
// kept once, and every distinct delivery is done exactly once.
func TestQueueKeepsABurstOnce(t *testing.T) {
	forEachStore(t, func(t *testing.T, store func() StoreConfig) {
		a := newTestIntake(t, Config{Workers: 4, Store: store()})
		const distinct = 40
		codes := make(chan int, 2*distinct)
		var wg sync.WaitGroup
		for i := range distinct {
			for range 2 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					codes <- a.send(t, fmt.Sprintf("burst-%d", i), fmt.Sprintf(`{"id":%d,"key":"k-%d"}`, i, i))
				}()
			}
		}
		wg.Wait()
		close(codes)
		accepted := 0
		for code := range codes {
			switch code {
			case http.StatusAccepted:
				accepted++
			case http.StatusOK:
			default:
				t.Errorf("status %d", code)
			}
		}
		if accepted != distinct {
			t.Errorf("%d deliveries answered 202, want %d (one per distinct delivery)", accepted, distinct)
		}
		if err := a.srv.Start(); err != nil {
			t.Fatal(err)
		}
		waitUntil(t, func() bool { return a.h.doneCount() == distinct })
		time.Sleep(300 * time.Millisecond)
		if n := a.h.doneCount(); n != distinct {
			t.Errorf("done %d times, want %d", n, distinct)
		}
	})
}

// TestReplicasStartedAtOnceOnAnEmptyDatabase: servers started at the same
// instant against one fresh PostgreSQL (a Deployment's first install with
// replicas: 2) all start: the schema is made once, under a lock, and the
// others find it made.
func TestReplicasStartedAtOnceOnAnEmptyDatabase(t *testing.T) {
	url := pgtest.Start(t)
	const replicas = 4
	start := make(chan struct{})
	errs := make(chan error, replicas)
	for range replicas {
		go func() {
			<-start
			srv, err := New(Config{Secret: []byte(testSecret), Store: StoreConfig{DatabaseURL: url}, Logger: slog.New(slog.DiscardHandler)}, &testHandler{})
			if err == nil {
				ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
				defer cancel()
				srv.Shutdown(ctx)
			}
			errs <- err
		}()
	}
	close(start)
	for range replicas {
		if err := <-errs; err != nil {
			t.Errorf("a replica did not start: %v", err)
		}
	}
}
