package webhook

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/planpr/planpr/bot/githubtest"
)

const testSecret = "webhook-secret"

// testHandler accepts any JSON object as a job, keyed by its "key" member;
// a job whose "panic" member is true panics; one whose "fail" member is N
// fails its first N attempts; gate, when set, holds every job until closed.
type testHandler struct {
	mu       sync.Mutex
	done     []map[string]any
	attempts map[string]int
	gate     chan struct{}
}

func (h *testHandler) Accept(event string, body []byte) (*Job, error) {
	var m map[string]any
	if err := json.Unmarshal(body, &m); err != nil {
		return nil, err
	}
	if event != "pull_request" {
		return nil, nil
	}
	key, _ := m["key"].(string)
	return &Job{Key: key}, nil
}

func (h *testHandler) Handle(ctx context.Context, event string, body []byte, log *slog.Logger) error {
	var m map[string]any
	if err := json.Unmarshal(body, &m); err != nil {
		return err
	}
	if m["panic"] == true {
		var nilMap map[string]int
		nilMap["x"] = 1
	}
	if reason, ok := m["refuse"].(string); ok {
		return Permanent(errors.New(reason))
	}
	if h.gate != nil {
		select {
		case <-h.gate:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if n, ok := m["fail"].(float64); ok {
		if h.attempts == nil {
			h.attempts = map[string]int{}
		}
		id := fmt.Sprint(m["id"])
		h.attempts[id]++
		if h.attempts[id] <= int(n) {
			return fmt.Errorf("attempt %d fails", h.attempts[id])
		}
	}
	h.done = append(h.done, m)
	return nil
}

func (h *testHandler) doneCount() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.done)
}

type testIntake struct {
	srv  *Server
	h    *testHandler
	http *httptest.Server
	logs *githubtest.LogBuffer
}

func newTestIntake(t testing.TB, cfg Config) *testIntake {
	t.Helper()
	logs := &githubtest.LogBuffer{}
	cfg.Secret = []byte(testSecret)
	cfg.Logger = slog.New(slog.NewJSONHandler(logs, nil))
	if cfg.Store.DataDir == "" && cfg.Store.DatabaseURL == "" {
		cfg.Store.DataDir = t.TempDir()
	}
	cfg.RetryBase = positiveOr(cfg.RetryBase, 50*time.Millisecond)
	h := &testHandler{}
	srv, err := New(cfg, h)
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv.HTTPHandler())
	t.Cleanup(func() {
		hs.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(ctx)
	})
	return &testIntake{srv: srv, h: h, http: hs, logs: logs}
}

func (a *testIntake) deliver(t testing.TB, event, delivery string, body []byte, signature string) (*http.Response, time.Duration) {
	resp, took, err := githubtest.Deliver(a.http.URL+"/webhook", event, delivery, body, signature)
	if err != nil {
		t.Fatal(err)
	}
	return resp, took
}

func mustContain(t *testing.T, s, sub string) {
	t.Helper()
	if !strings.Contains(s, sub) {
		t.Errorf("%q does not contain %q", s, sub)
	}
}

// TestRecoversPanics: a panic in a job is recovered and logged with its
// delivery, and the workers go on.
func TestRecoversPanics(t *testing.T) {
	a := newTestIntake(t, Config{Workers: 1})
	if err := a.srv.Start(); err != nil {
		t.Fatal(err)
	}
	for i, body := range []string{`{"panic":true}`, `{"key":"k"}`} {
		a.deliver(t, "pull_request", fmt.Sprint("p-", i), []byte(body), githubtest.Sign(testSecret, []byte(body)))
	}
	waitUntil(t, func() bool { return a.h.doneCount() == 1 && strings.Contains(metricsText(t, a), `result="panic"} 1`) })
	if !strings.Contains(a.logs.String(), `"delivery":"p-0"`) || !strings.Contains(a.logs.String(), "panic") {
		t.Errorf("log: %s", a.logs.String())
	}
	mustContain(t, metricsText(t, a), `planpr_webhook_deliveries_total{event="pull_request",result="panic"} 1`)
}

// FuzzWebhook sends any signed body to the intake: it must answer without
// panicking, and never 5xx but for a full queue.
func FuzzWebhook(f *testing.F) {
	f.Add("pull_request", []byte(`{"action":"opened","pull_request":{"number":1},"repository":{"full_name":"o/r"},"installation":{"id":1}}`))
	f.Add("workflow_run", []byte(`{"action":"completed","workflow_run":{"id":1,"pull_requests":[{"number":2}]}}`))
	f.Add("ping", []byte(`{"zen":"x"}`))
	f.Add("pull_request", []byte(`{"pull_request":null}`))
	f.Add("", []byte(`[`))
	a := newTestIntake(f, Config{Workers: 1})
	h := a.srv.HTTPHandler()
	n := 0
	f.Fuzz(func(t *testing.T, event string, body []byte) {
		n++
		req := httptest.NewRequest(http.MethodPost, "/webhook", bytes.NewReader(body))
		req.Header.Set("X-GitHub-Event", event)
		req.Header.Set("X-GitHub-Delivery", fmt.Sprint("d-", n))
		req.Header.Set("X-Hub-Signature-256", githubtest.Sign(testSecret, body))
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code >= 500 {
			t.Fatalf("status %d for %q: %s", rec.Code, body, rec.Body)
		}
	})
}

// promLine is one line of the Prometheus text format.
var promLine = regexp.MustCompile(`^(# (HELP|TYPE) [a-z_]+ .+|[a-z_]+(\{([a-z_]+="[^"\\\n]*",?)*\})? [0-9.e+-]+|[a-z_]+\{le="[^"]+"\} [0-9]+)$`)

func metricsText(t *testing.T, a *testIntake) string {
	t.Helper()
	resp, err := http.Get(a.http.URL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}

// TestUnsignedHeadersAddNoMetricsLabels: the X-GitHub-Event header of an
// unsigned request used to become a label (900 KB names grew memory
// without bound, a 0xFF byte broke /metrics). Labels now come from a fixed
// set, recorded after the signature check.
func TestUnsignedHeadersAddNoMetricsLabels(t *testing.T) {
	a := newTestIntake(t, Config{Workers: 1})
	huge := strings.Repeat("e", 900<<10)
	for i := range 30 {
		a.deliver(t, huge+fmt.Sprint(i), fmt.Sprint("d-", i), []byte(`{}`), "sha256=00")
	}
	a.deliver(t, "pull\xffrequest", "d-ff", []byte(`{}`), "")
	body := []byte(`{"zen":"hi"}`)
	a.deliver(t, "invented\xff"+huge, "d-signed", body, githubtest.Sign(testSecret, body)) // signed, but the header is not
	m := metricsText(t, a)
	var own strings.Builder // planpr's metrics, the runtime's aside (fixed in number)
	for _, line := range strings.Split(m, "\n") {
		if !strings.Contains(line, "go_") && !strings.Contains(line, "process_") {
			own.WriteString(line + "\n")
		}
	}
	if own.Len() > 8<<10 {
		t.Fatalf("planpr's /metrics is %d bytes", own.Len())
	}
	for _, line := range strings.Split(strings.TrimSpace(m), "\n") {
		if !promLine.MatchString(line) {
			t.Errorf("not Prometheus text: %q", line)
		}
	}
	mustContain(t, m, `planpr_webhook_deliveries_total{event="unverified",result="bad-signature"} 31`)
	mustContain(t, m, `planpr_webhook_deliveries_total{event="other",result="ignored"} 1`)
}

// TestDeliveryIDsBounded: delivery ids are headers too; one that is not
// an id is refused, not remembered.
func TestDeliveryIDsBounded(t *testing.T) {
	a := newTestIntake(t, Config{Workers: 1})
	body := []byte(`{"zen":"hi"}`)
	for _, id := range []string{strings.Repeat("a", 1<<20), "", "id with spaces", "x\xff"} {
		resp, _ := a.deliver(t, "ping", id, body, githubtest.Sign(testSecret, body))
		if resp.StatusCode != http.StatusBadRequest {
			t.Errorf("delivery id of %d bytes: %d", len(id), resp.StatusCode)
		}
	}
	if m := metricsText(t, a); !strings.Contains(m, `planpr_queue_jobs{state="available"} 0`) {
		t.Errorf("a refused delivery was queued:\n%s", m)
	}
	if resp, _ := a.deliver(t, "ping", "72d3162e-cc78-11e3-81ab-4c9367dc0958", body, githubtest.Sign(testSecret, body)); resp.StatusCode != http.StatusAccepted {
		t.Errorf("a GUID delivery id: %d", resp.StatusCode)
	}
}

// slowBody is a request body that sends its bytes only when released.
type slowBody struct {
	release chan struct{}
	r       io.Reader
}

func (b *slowBody) Read(p []byte) (int, error) {
	<-b.release
	return b.r.Read(p)
}

// TestBodiesReadWithinABudget: 40 uploads of 25 MB at once were all
// buffered (1.13 GB). Now bodies are read within a budget of bytes; past
// it a sender waits, then gets 503, and what is read stays within the
// budget.
func TestBodiesReadWithinABudget(t *testing.T) {
	a := newTestIntake(t, Config{Workers: 1, IntakeBudget: 2 * MaxBody, IntakeWait: 300 * time.Millisecond})
	release := make(chan struct{})
	var wg sync.WaitGroup
	codes := make(chan int, 40)
	for i := range 40 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			body := &slowBody{release: release, r: bytes.NewReader(make([]byte, MaxBody))}
			req, _ := http.NewRequest(http.MethodPost, a.http.URL+"/webhook", body)
			req.ContentLength = MaxBody
			req.Header.Set("X-GitHub-Delivery", fmt.Sprint("big-", i))
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				codes <- 0
				return
			}
			resp.Body.Close()
			codes <- resp.StatusCode
		}()
	}
	time.Sleep(time.Second) // every sender past the budget has waited and been refused
	close(release)
	wg.Wait()
	close(codes)
	got := map[int]int{}
	for c := range codes {
		got[c]++
	}
	// Two fit the budget (and fail their signature); the rest found no room.
	if got[http.StatusUnauthorized] != 2 || got[http.StatusServiceUnavailable] != 38 {
		t.Errorf("status codes %v", got)
	}
	m := metricsText(t, a)
	mustContain(t, m, `planpr_webhook_deliveries_total{event="unverified",result="busy"} 38`)
}

// TestShutdownWithASlowClient: one client sending its body slowly held
// the shutdown for its whole 30 s and then made it report "0 jobs left
// unfinished" and fail. The requests now have a deadline of their own,
// and a shutdown with nothing left undone succeeds.
func TestShutdownWithASlowClient(t *testing.T) {
	a := newTestIntake(t, Config{Workers: 1})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- a.srv.Run(ctx, ln, 200*time.Millisecond, time.Second) }()
	conn, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST /webhook HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n{")
	time.Sleep(100 * time.Millisecond) // the request is being read
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("shutdown: %v", err)
	}
	conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := conn.Read(make([]byte, 1)); err == nil {
		t.Error("the slow connection is still open")
	}
}

func waitUntil(t testing.TB, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatal("timed out waiting")
		}
		time.Sleep(20 * time.Millisecond)
	}
}
