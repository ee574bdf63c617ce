package webhook

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"
	"time"
)

// metrics are the server's counters, written in Prometheus text format.
type metrics struct {
	mu         sync.Mutex
	deliveries map[[2]string]int64 // event, result
	busy       time.Duration
	jobs       int64
	buckets    []float64
	counts     []int64
	// From the queue's events: outcomes, attempts spent, and the latency
	// from a delivery's arrival to its job's end.
	outcomes                      map[string]int64
	attempts                      int64
	latencyN                      int64
	latency                       time.Duration
	latencyCounts                 []int64
	redelivered, redeliveryErrors int64
	lost                          int64
}

func newMetrics() *metrics {
	b := []float64{0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60}
	return &metrics{deliveries: map[[2]string]int64{}, buckets: b, counts: make([]int64, len(b)), outcomes: map[string]int64{}, latencyCounts: make([]int64, len(b))}
}

// job counts a job's outcome (a River event kind), its attempts so far and
// its latency.
func (m *metrics) job(outcome string, attempt int, latency time.Duration) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.outcomes[strings.TrimPrefix(outcome, "job_")]++
	if outcome == "job_snoozed" {
		return
	}
	m.attempts += int64(attempt)
	m.latencyN++
	m.latency += latency
	for i, b := range m.buckets {
		if latency.Seconds() <= b {
			m.latencyCounts[i]++
		}
	}
}

func (m *metrics) redelivery(err error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err != nil {
		m.redeliveryErrors++
		return
	}
	m.redelivered++
}

func (m *metrics) lostDelivery() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.lost++
}

func (m *metrics) delivery(event, result string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.deliveries[[2]string{event, result}]++
}

func (m *metrics) processed(d time.Duration) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.jobs++
	m.busy += d
	for i, b := range m.buckets {
		if d.Seconds() <= b {
			m.counts[i]++
		}
	}
}

// queueStates are River's job states, in the order /metrics lists them.
var queueStates = []string{"available", "scheduled", "retryable", "pending", "running", "completed", "cancelled", "discarded"}

func (m *metrics) write(w io.Writer, depth map[string]int64, gauges func(io.Writer)) {
	m.mu.Lock()
	defer m.mu.Unlock()
	fmt.Fprintln(w, "# HELP planpr_webhook_deliveries_total Webhook deliveries by event and result.")
	fmt.Fprintln(w, "# TYPE planpr_webhook_deliveries_total counter")
	keys := make([][2]string, 0, len(m.deliveries))
	for k := range m.deliveries {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i][0]+keys[i][1] < keys[j][0]+keys[j][1] })
	for _, k := range keys {
		fmt.Fprintf(w, "planpr_webhook_deliveries_total{event=%q,result=%q} %d\n", k[0], k[1], m.deliveries[k])
	}
	Metric(w, "planpr_queue_depth", "gauge", "Jobs waiting for a worker (available, scheduled, retryable, pending).",
		depth["available"]+depth["scheduled"]+depth["retryable"]+depth["pending"])
	fmt.Fprintln(w, "# HELP planpr_queue_jobs Jobs in the queue by state (all replicas).")
	fmt.Fprintln(w, "# TYPE planpr_queue_jobs gauge")
	for _, st := range queueStates {
		fmt.Fprintf(w, "planpr_queue_jobs{state=%q} %d\n", st, depth[st])
	}
	fmt.Fprintln(w, "# HELP planpr_jobs_total Jobs ended by this process, by outcome.")
	fmt.Fprintln(w, "# TYPE planpr_jobs_total counter")
	for _, o := range []string{"completed", "failed", "cancelled", "snoozed"} {
		fmt.Fprintf(w, "planpr_jobs_total{outcome=%q} %d\n", o, m.outcomes[o])
	}
	Metric(w, "planpr_job_attempts_total", "counter", "Attempts the ended jobs took.", m.attempts)
	Metric(w, "planpr_redeliveries_total", "counter", "Deliveries GitHub was asked to send again.", m.redelivered)
	Metric(w, "planpr_redelivery_errors_total", "counter", "Redeliveries GitHub refused or that could not be asked.", m.redeliveryErrors)
	Metric(w, "planpr_deliveries_lost_total", "counter", "Deliveries none of whose attempts reached planpr within GitHub's three days.", m.lost)
	m.histogram(w, "planpr_job_latency_seconds", "Time from a delivery's arrival to its job's end.", m.latencyCounts, m.latencyN, m.latency)
	if gauges != nil {
		gauges(w)
	}
	m.histogram(w, "planpr_job_duration_seconds", "Time to process a delivery's work.", m.counts, m.jobs, m.busy)
}

// histogram writes a histogram over m.buckets.
func (m *metrics) histogram(w io.Writer, name, help string, counts []int64, n int64, sum time.Duration) {
	fmt.Fprintf(w, "# HELP %s %s\n# TYPE %s histogram\n", name, help, name)
	for i, b := range m.buckets {
		fmt.Fprintf(w, "%s_bucket{le=\"%g\"} %d\n", name, b, counts[i])
	}
	fmt.Fprintf(w, "%s_bucket{le=\"+Inf\"} %d\n", name, n)
	fmt.Fprintf(w, "%s_sum %g\n%s_count %d\n", name, sum.Seconds(), name, n)
}

// Metric writes one single-valued metric in the Prometheus text format.
func Metric(w io.Writer, name, kind, help string, value int64) {
	fmt.Fprintf(w, "# HELP %s %s\n# TYPE %s %s\n%s %d\n", name, help, name, kind, name, value)
}

// totals are what the last log line says: deliveries kept, jobs completed
// and failed by this process.
func (m *metrics) totals() (accepted, completed, failed int64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for k, n := range m.deliveries {
		if k[1] == "queued" {
			accepted += n
		}
	}
	return accepted, m.outcomes["completed"], m.outcomes["failed"]
}
