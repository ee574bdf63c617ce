package webhook

import (
	"fmt"
	"net/http"
	"sort"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/planpr/planpr/bot/githubtest"
	"github.com/planpr/planpr/bot/webhook/pgtest"
)

// BenchmarkIntake measures deliveries accepted per second — signature
// checked, kept in the queue, answered 202 — by 50 senders at once over
// loopback, and the time to 2xx (p50, p99), on SQLite and on PostgreSQL.
// The workers run meanwhile (a job is a no-op). Run with
//
//	go test ./bot/webhook -run x -bench Intake -benchtime 2000x
func BenchmarkIntake(b *testing.B) {
	for _, store := range []string{"sqlite", "postgres"} {
		b.Run(store, func(b *testing.B) {
			cfg := Config{Workers: 4}
			if store == "postgres" {
				cfg.Store.DatabaseURL = pgtest.Start(b)
			}
			a := newTestIntake(b, cfg)
			if err := a.srv.Start(); err != nil {
				b.Fatal(err)
			}
			body := []byte(`{"key":"","id":1,"padding":"` + fmt.Sprintf("%0512d", 0) + `"}`)
			sig := githubtest.Sign(testSecret, body)
			var n atomic.Int64
			latencies := make([]time.Duration, b.N)
			sem := make(chan struct{}, 50)
			var wg sync.WaitGroup
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				wg.Add(1)
				sem <- struct{}{}
				go func() {
					defer func() { <-sem; wg.Done() }()
					resp, took := a.deliver(b, "pull_request", fmt.Sprintf("bench-%d-%d", b.N, n.Add(1)), body, sig)
					if resp.StatusCode != http.StatusAccepted {
						b.Errorf("status %d", resp.StatusCode)
					}
					latencies[i] = took
				}()
			}
			wg.Wait()
			b.StopTimer()
			sort.Slice(latencies, func(i, j int) bool { return latencies[i] < latencies[j] })
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "deliveries/s")
			b.ReportMetric(float64(latencies[len(latencies)/2].Microseconds())/1000, "p50-ms")
			b.ReportMetric(float64(latencies[len(latencies)*99/100].Microseconds())/1000, "p99-ms")
		})
	}
}
