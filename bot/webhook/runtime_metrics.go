package webhook

import (
	"io"
	"sync"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/common/expfmt"
)

// runtimeMetrics are the Go runtime's and the process's metrics (memory,
// goroutines, GC, CPU, open files), gathered by the Prometheus client
// library's own collectors, as every Go service exports them.
var runtimeMetrics = sync.OnceValue(func() *prometheus.Registry {
	r := prometheus.NewRegistry()
	r.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return r
})

// writeRuntimeMetrics writes them in Prometheus's text format.
func writeRuntimeMetrics(w io.Writer) error {
	families, err := runtimeMetrics().Gather()
	if err != nil {
		return err
	}
	enc := expfmt.NewEncoder(w, expfmt.NewFormat(expfmt.TypeTextPlain))
	for _, f := range families {
		if err := enc.Encode(f); err != nil {
			return err
		}
	}
	return nil
}
