package webhook

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/planpr/planpr/bot/githubtest"
)

// failingRedeliverer is GitHub's list of deliveries where every
// redelivery planpr asks for fails again, as when planpr is unreachable
// for a while: each adds a failed attempt to the list.
type failingRedeliverer struct {
	fakeRedeliverer
	at func(try int) time.Time // when the try-th redelivery is recorded
}

func (f *failingRedeliverer) Redeliver(ctx context.Context, id int64) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.redelivers[id]++
	try := 0
	for _, d := range f.list {
		if d.GUID == "g-flaky" && d.Redelivery {
			try++
		}
	}
	f.list = append(f.list, HookDelivery{ID: id + 1, GUID: "g-flaky", StatusCode: 502, DeliveredAt: f.at(try + 1), Redelivery: true})
	return nil
}

// TestFailedRedeliveryAskedAgain: a delivery whose redelivery also
// fails is asked again after a back-off, until GitHub's three days; one
// GitHub is about to forget is logged and counted as lost, once.
func TestFailedRedeliveryAskedAgain(t *testing.T) {
	now := time.Now()
	f := &failingRedeliverer{fakeRedeliverer: fakeRedeliverer{redelivers: map[int64]int{}, list: []HookDelivery{
		{ID: 10, GUID: "g-flaky", StatusCode: 0, DeliveredAt: now.Add(-time.Hour)},
		{ID: 20, GUID: "g-old", StatusCode: 503, DeliveredAt: now.Add(-redeliverGiveUp - time.Minute)},
	}}}
	// The first redelivery fails at once but is recorded 3 minutes ago
	// (its 2-minute back-off has passed); the second is recorded now
	// (its 4 minutes have not).
	f.at = func(try int) time.Time {
		if try == 1 {
			return now.Add(-3 * time.Minute)
		}
		return time.Now()
	}
	logs := &githubtest.LogBuffer{}
	srv, err := New(Config{Secret: []byte(testSecret), Workers: 1, Store: StoreConfig{DataDir: t.TempDir()}, RedeliverEvery: 50 * time.Millisecond,
		Logger: slog.New(slog.NewJSONHandler(logs, nil))}, f)
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	defer srv.Shutdown(context.Background())
	waitUntil(t, func() bool {
		f.mu.Lock()
		defer f.mu.Unlock()
		return f.redelivers[11] == 1
	})
	time.Sleep(500 * time.Millisecond) // several more sweeps
	f.mu.Lock()
	got := fmt.Sprint(f.redelivers)
	f.mu.Unlock()
	if want := fmt.Sprint(map[int64]int{10: 1, 11: 1}); got != want {
		t.Errorf("redelivered %s, want %s (the third waits for its back-off; g-old is lost)", got, want)
	}
	if n := strings.Count(logs.String(), `"msg":"delivery lost`); n != 1 || !strings.Contains(logs.String(), `"delivery":"g-old"`) {
		t.Errorf("%d lost lines:\n%s", n, logs.String())
	}
	var m strings.Builder
	srv.metrics.write(&m, nil, nil)
	if !strings.Contains(m.String(), "planpr_deliveries_lost_total 1\n") {
		t.Errorf("metrics:\n%s", m.String())
	}
}

func TestRedeliverWait(t *testing.T) {
	for n, want := range map[int]time.Duration{0: 0, 1: 2 * time.Minute, 2: 4 * time.Minute, 8: 256 * time.Minute, 9: 6 * time.Hour, 30: 6 * time.Hour} {
		if got := redeliverWait(n); got != want {
			t.Errorf("redeliverWait(%d) = %v, want %v", n, got, want)
		}
	}
}
