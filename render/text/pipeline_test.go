package text

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/planpr/planpr/render/review"
)

// manyChangesPlan writes a plan of n created resources, each with a
// multi-line string, so their texts differ in size and finish out of order,
// and another string with an escape.
func manyChangesPlan(t *testing.T, n int) string {
	t.Helper()
	var b strings.Builder
	b.WriteString(`{"format_version":"1.2","resource_changes":[`)
	for i := range n {
		if i > 0 {
			b.WriteString(",\n  ")
		}
		body := strings.Repeat(fmt.Sprintf(`line %d\n`, i), 1+i%17)
		fmt.Fprintf(&b, `{"address":"null_resource.r%d","mode":"managed","type":"null_resource","name":"r%d","provider_name":"registry.opentofu.org/hashicorp/null","change":{"actions":["create"],"before":null,"after":{"text":"%s","n":%d,"note":"tab\\there %d"},"after_unknown":{"id":true},"before_sensitive":false,"after_sensitive":{}}}`, i, i, body, i, i)
	}
	b.WriteString(`]}`)
	path := filepath.Join(t.TempDir(), "plan.json")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// planTextOf is the text of the plan at path, without schemas.
func planTextOf(t *testing.T, path string) string {
	t.Helper()
	var out bytes.Buffer
	if err := PlanText(&out, path, review.PlanOptions{}); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

func TestPlanTextPipelineKeepsOrderWhateverItHolds(t *testing.T) {
	path := manyChangesPlan(t, 300)
	render := func(limit int) string {
		saved := heldTextLimit
		heldTextLimit = limit
		defer func() { heldTextLimit = saved }()
		return planTextOf(t, path)
	}
	held := render(1 << 30) // everything waits for the header
	paused := render(1)     // workers pause after every resource
	if held != paused {
		t.Fatal("the output depends on how much text the pipeline holds")
	}
	last := -1
	for i := range 300 {
		at := strings.Index(held, fmt.Sprintf("# null_resource.r%d will be created\n", i))
		if at <= last {
			t.Fatalf("resource %d is missing or out of order", i)
		}
		last = at
	}
	if !strings.Contains(held, "Plan: 300 to add, 0 to change, 0 to destroy.") {
		t.Error("no Plan: line for the 300 resources")
	}
}

func TestPreparedPlanCloseStopsTheWorkers(t *testing.T) {
	path := manyChangesPlan(t, 200)
	before := runtime.NumGoroutine()
	saved := heldTextLimit
	heldTextLimit = 1 // the workers are waiting for Write
	defer func() { heldTextLimit = saved }()
	pt, err := PreparePlanText(path, review.PlanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	pt.Close()
	pt.Close() // a second Close is harmless
	if err := pt.Write(io.Discard); err == nil {
		t.Error("a closed plan was written without an error (its resources would be missing)")
	}
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Errorf("%d goroutines after Close, %d before", n, before)
	}
}

func TestPlanTextBadLaterInputPrintsNothing(t *testing.T) {
	path := manyChangesPlan(t, 50)
	data, _ := os.ReadFile(path)
	// Valid resources first, then a syntax error near the end.
	bad := bytes.Replace(data, []byte(`]}`), []byte(`],"errored":tru}`), 1)
	if err := os.WriteFile(path, bad, 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	err := PlanText(&out, path, review.PlanOptions{})
	if err == nil || !strings.Contains(err.Error(), path+":50:") || !strings.Contains(err.Error(), "invalid JSON") {
		t.Fatalf("error = %v, want one located in %s", err, path)
	}
	if out.Len() > 0 {
		t.Errorf("printed %d bytes before failing", out.Len())
	}
}

// lockCheckingWriter fails a test when the pipeline's lock stays held while
// text is written: the workers would wait for the output instead of
// rendering.
type lockCheckingWriter struct {
	t    *testing.T
	pipe *textPipeline
	out  bytes.Buffer
}

func (w *lockCheckingWriter) Write(b []byte) (int, error) {
	// A worker may hold the lock for a moment to take or hand over work;
	// only a lock held as long as the write is the writer's own.
	deadline := time.Now().Add(time.Second)
	for !w.pipe.mu.TryLock() {
		if time.Now().After(deadline) {
			w.t.Error("text is written with the pipeline locked: the workers wait for the output")
			return w.out.Write(b)
		}
		runtime.Gosched()
	}
	w.pipe.mu.Unlock()
	return w.out.Write(b)
}

func TestPlanTextIsWrittenWithoutTheLock(t *testing.T) {
	path := manyChangesPlan(t, 400)
	for _, limit := range []int{1, 4 << 10, 1 << 30} {
		saved := heldTextLimit
		heldTextLimit = limit
		pt, err := PreparePlanText(path, review.PlanOptions{})
		if err != nil {
			t.Fatal(err)
		}
		w := &lockCheckingWriter{t: t, pipe: pt.pipe}
		if err := pt.Write(w); err != nil {
			t.Fatal(err)
		}
		heldTextLimit = saved
		if got := w.out.String(); got != planTextOf(t, path) {
			t.Fatalf("held text limit %d: the text differs from PlanText's", limit)
		}
	}
}

// failingWriter takes limit bytes, then fails every write.
type failingWriter struct{ limit int }

var errDiskFull = errors.New("no space left on device")

func (w *failingWriter) Write(b []byte) (int, error) {
	if len(b) > w.limit {
		n := w.limit
		w.limit = 0
		return n, errDiskFull
	}
	w.limit -= len(b)
	return len(b), nil
}

// The resources' texts bypass the bufio.Writer the header goes through: a
// write that fails is still the error Write returns, and the workers stop.
func TestPlanTextReportsAFailedWrite(t *testing.T) {
	path := manyChangesPlan(t, 400)
	size := len(planTextOf(t, path))
	for _, limit := range []int{100, size / 2, size - 10} {
		pt, err := PreparePlanText(path, review.PlanOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if err := pt.Write(&failingWriter{limit: limit}); !errors.Is(err, errDiskFull) {
			t.Errorf("output full after %d bytes: Write = %v, want %v", limit, err, errDiskFull)
		}
	}
}
