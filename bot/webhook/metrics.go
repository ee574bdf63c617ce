package webhook

import (
	"fmt"
	"io"
	"sort"
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
}

func newMetrics() *metrics {
	b := []float64{0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60}
	return &metrics{deliveries: map[[2]string]int64{}, buckets: b, counts: make([]int64, len(b))}
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

func (m *metrics) write(w io.Writer, queueDepth, queueCap int, gauges func(io.Writer)) {
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
	Metric(w, "planpr_queue_depth", "gauge", "Jobs waiting for a worker.", int64(queueDepth))
	Metric(w, "planpr_queue_capacity", "gauge", "Jobs the queue holds before answering 503.", int64(queueCap))
	if gauges != nil {
		gauges(w)
	}
	fmt.Fprintln(w, "# HELP planpr_job_duration_seconds Time to process a delivery's work.")
	fmt.Fprintln(w, "# TYPE planpr_job_duration_seconds histogram")
	for i, b := range m.buckets {
		fmt.Fprintf(w, "planpr_job_duration_seconds_bucket{le=\"%g\"} %d\n", b, m.counts[i])
	}
	fmt.Fprintf(w, "planpr_job_duration_seconds_bucket{le=\"+Inf\"} %d\n", m.jobs)
	fmt.Fprintf(w, "planpr_job_duration_seconds_sum %g\n", m.busy.Seconds())
	fmt.Fprintf(w, "planpr_job_duration_seconds_count %d\n", m.jobs)
}

// Metric writes one single-valued metric in the Prometheus text format.
func Metric(w io.Writer, name, kind, help string, value int64) {
	fmt.Fprintf(w, "# HELP %s %s\n# TYPE %s %s\n%s %d\n", name, help, name, kind, name, value)
}
