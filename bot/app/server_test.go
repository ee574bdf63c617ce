package app

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"github.com/planpr/planpr/render/report"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/planpr/planpr/bot/gh"
	"github.com/planpr/planpr/bot/githubtest"
	"github.com/planpr/planpr/bot/webhook/pgtest"
)

const (
	testAppID        = 777
	testInstallation = 42
	testSecret       = "webhook-secret"
)

var (
	keyOnce sync.Once
	keyPEM  []byte
)

func appKey(t testing.TB) []byte {
	keyOnce.Do(func() {
		k, err := rsa.GenerateKey(rand.Reader, 2048)
		if err != nil {
			t.Fatal(err)
		}
		keyPEM = pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(k)})
	})
	return keyPEM
}

type testApp struct {
	fake *githubtest.Server
	srv  *Server
	http *httptest.Server
	logs *githubtest.LogBuffer
}

func newTestApp(t testing.TB, workers int) *testApp {
	t.Helper()
	return newTestAppOn(t, workers, t.TempDir(), "")
}

// newTestAppOn is an App whose queue is SQLite in dataDir, or PostgreSQL
// at databaseURL.
func newTestAppOn(t testing.TB, workers int, dataDir, databaseURL string) *testApp {
	t.Helper()
	return newTestAppWith(t, workers, dataDir, databaseURL, nil)
}

// newTestAppWith is newTestAppOn with its configuration edited.
func newTestAppWith(t testing.TB, workers int, dataDir, databaseURL string, edit func(*ServerConfig)) *testApp {
	t.Helper()
	fake := githubtest.New()
	t.Cleanup(fake.Close)
	fake.AddInstallation(testAppID, testInstallation)
	logs := &githubtest.LogBuffer{}
	cfg := ServerConfig{
		AppID: testAppID, PrivateKey: appKey(t), WebhookSecret: []byte(testSecret),
		APIURL: fake.URL, GraphQLURL: fake.URL + "/graphql", Workers: workers, DataDir: dataDir, DatabaseURL: databaseURL, Redeliver: -1,
		Logger: slog.New(slog.NewJSONHandler(logs, nil)), Version: "test",
		Retry: &gh.RetryTransport{Sleep: func(time.Duration) { time.Sleep(5 * time.Millisecond) }, Attempts: 8},
	}
	if edit != nil {
		edit(&cfg)
	}
	srv, err := NewServer(cfg)
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv.Handler())
	t.Cleanup(func() {
		hs.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(ctx)
		for _, line := range logs.RepeatedKeys() {
			t.Errorf("a log line repeats a key: %s", line)
		}
	})
	return &testApp{fake: fake, srv: srv, http: hs, logs: logs}
}

func (a *testApp) start(t testing.TB) {
	t.Helper()
	if err := a.srv.Start(); err != nil {
		t.Fatal(err)
	}
}

// stop waits for the queue to drain, then shuts the App down.
func (a *testApp) stop(t testing.TB) error {
	t.Helper()
	waitWithin(t, 2*time.Minute, "the queue to drain", func() bool { return a.drained(t) }) // long under -race
	return a.srv.Shutdown(context.Background())
}

// drained reports whether the queue has nothing waiting or running.
func (a *testApp) drained(t testing.TB) bool {
	resp, err := http.Get(a.http.URL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return strings.Contains(string(b), "planpr_queue_depth 0\n") && strings.Contains(string(b), `planpr_queue_jobs{state="running"} 0`)
}

func (a *testApp) deliver(t testing.TB, event, delivery string, body []byte, signature string) (*http.Response, time.Duration) {
	resp, took, err := githubtest.Deliver(a.http.URL+"/webhook", event, delivery, body, signature)
	if err != nil {
		t.Fatal(err)
	}
	return resp, took
}

// payload reads a webhook payload of testdata/payloads and changes only
// what the test needs.
func payload(t testing.TB, name string, edit func(map[string]any)) []byte {
	t.Helper()
	b, err := os.ReadFile("../../testdata/payloads/" + strings.TrimSuffix(name, ".json") + ".json")
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	m["installation"] = map[string]any{"id": testInstallation}
	if edit != nil {
		edit(m)
	}
	out, _ := json.Marshal(m)
	return out
}

func setPR(number int, headSHA, updated string) func(map[string]any) {
	return func(m map[string]any) {
		m["number"] = number
		pr := m["pull_request"].(map[string]any)
		pr["number"] = number
		pr["head"].(map[string]any)["sha"] = headSHA
		pr["updated_at"] = updated
	}
}

const (
	baseSHA    = "f95f852bd8fca8fcc58a9a2d6c842781e32a215e"
	lockBefore = "provider \"registry.opentofu.org/hashicorp/aws\" {\n  version = \"5.9.0\"\n  hashes = [\"h1:a=\", \"zh:1111\"]\n}\n"
	lockAfter  = "provider \"registry.opentofu.org/hashicorp/aws\" {\n  version = \"6.0.0\"\n  hashes = [\"h1:b=\", \"zh:2222\"]\n}\n"
)

// addLockPR stores a pull request that upgrades a provider in its lock file.
func (a *testApp) addLockPR(n int, head string) {
	a.fake.AddPR(githubtest.PR{Number: n, BaseSHA: baseSHA, HeadSHA: head, HeadRef: "b", HeadOwner: "Codertocat",
		Files: []githubtest.File{{Name: "envs/prod/.terraform.lock.hcl", Status: "modified"}, {Name: "README.md", Status: "modified"}}})
	a.fake.AddFile(baseSHA, "envs/prod/.terraform.lock.hcl", []byte(lockBefore))
	a.fake.AddFile(head, "envs/prod/.terraform.lock.hcl", []byte(lockAfter))
	a.fake.AddFile(head, "envs/prod/main.tf", []byte("terraform {\n  required_providers {\n    aws = { source = \"hashicorp/aws\", version = \"~> 5.0\" }\n  }\n}\n"))
}

// waitFor polls until cond holds or the time is up.
func waitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	waitWithin(t, 20*time.Second, what, cond)
}

func waitWithin(t testing.TB, d time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		if cond() {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("timed out waiting for %s", what)
}

func TestServerReviewsLockFilesOnPullRequest(t *testing.T) {
	a := newTestApp(t, 2)
	a.start(t)
	a.addLockPR(2, "head1")
	body := payload(t, "pull_request-opened.json", setPR(2, "head1", "2026-11-01T10:00:00Z"))
	resp, _ := a.deliver(t, "pull_request", "d-1", body, githubtest.Sign(testSecret, body))
	if resp.StatusCode != http.StatusAccepted {
		t.Fatalf("status %d", resp.StatusCode)
	}
	waitFor(t, "the lock comment", func() bool { n, _ := countKey(a.fake, 2, LockKey); return n == 1 })
	_, c := countKey(a.fake, 2, LockKey)
	mustContain(t, c.Body, "sha=head1")
	mustContain(t, c.Body, "planpr · lock files")
	mustContain(t, c.Body, "5.9.0 → 6.0.0")
	mustContain(t, c.Body, "a new major version may break configuration")
	mustContain(t, c.Body, "does not satisfy the constraint")
	mustContain(t, c.Body, "envs/prod/main.tf:3")

	// A redelivery of the same delivery is done once.
	resp, _ = a.deliver(t, "pull_request", "d-1", body, githubtest.Sign(testSecret, body))
	if resp.StatusCode != http.StatusOK {
		t.Errorf("redelivery: status %d", resp.StatusCode)
	}
	// A newer push updates the same comment; an older delivery afterwards changes nothing.
	a.addLockPR(2, "head2")
	newer := payload(t, "pull_request-synchronize.json", setPR(2, "head2", "2026-11-01T11:00:00Z"))
	a.deliver(t, "pull_request", "d-2", newer, githubtest.Sign(testSecret, newer))
	waitFor(t, "the update", func() bool { _, c := countKey(a.fake, 2, LockKey); return strings.Contains(c.Body, "sha=head2") })
	a.deliver(t, "pull_request", "d-3", body, githubtest.Sign(testSecret, body))
	a.stop(t)
	if n, c := countKey(a.fake, 2, LockKey); n != 1 || !strings.Contains(c.Body, "sha=head2") {
		t.Errorf("%d comments; the last: %.80q", n, c.Body)
	}
	if creates := a.fake.CountRequests("POST /repos/Codertocat/Hello-World/issues/2/comments"); creates != 1 {
		t.Errorf("%d comments created", creates)
	}
}

func TestServerRejectsBadSignatures(t *testing.T) {
	a := newTestApp(t, 1)
	a.start(t)
	a.addLockPR(2, "head1")
	body := payload(t, "pull_request-opened.json", setPR(2, "head1", "2026-11-01T10:00:00Z"))
	for name, sig := range map[string]string{"missing": "", "wrong": githubtest.Sign(testSecret, []byte("other")), "sha1": "sha1=abc", "garbage": "sha256=zz"} {
		resp, _ := a.deliver(t, "pull_request", "bad-"+name, body, sig)
		if resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("%s signature: status %d", name, resp.StatusCode)
		}
	}
	a.srv.Shutdown(t.Context())
	if log := a.fake.Log(); len(log) != 0 {
		t.Errorf("GitHub was called after bad signatures: %v", log)
	}
	if strings.Contains(a.logs.String(), "Hello-World") || strings.Contains(a.logs.String(), testSecret) {
		t.Errorf("the log says more than the delivery id: %s", a.logs.String())
	}
	if !strings.Contains(a.logs.String(), `"delivery":"bad-wrong"`) {
		t.Errorf("the log does not name the delivery: %s", a.logs.String())
	}
}

const runPlan = `{"format_version":"1.2","terraform_version":"1.9.0","resource_changes":[{"address":"a_b.c","mode":"managed","type":"a_b","name":"c","provider_name":"p","change":{"actions":["delete"],"before":{"id":"x"},"after":null,"after_unknown":false,"before_sensitive":{},"after_sensitive":false}}]}`

func TestServerCommentsPlansFromWorkflowRunArtifacts(t *testing.T) {
	a := newTestApp(t, 2)
	a.start(t)
	a.fake.AddArtifact(289782451, githubtest.Artifact{ID: 1, Name: "planpr-prod", Zip: githubtest.Zip(map[string]string{
		"planpr.json": `{"pr": 2, "key": "prod"}`, "plan.json": runPlan})})
	a.fake.AddArtifact(289782451, githubtest.Artifact{ID: 2, Name: "coverage", Zip: githubtest.Zip(map[string]string{"x": "y"})})
	body := payload(t, "workflow_run-completed.with-pull-requests.json", nil)
	resp, _ := a.deliver(t, "workflow_run", "w-1", body, githubtest.Sign(testSecret, body))
	if resp.StatusCode != http.StatusAccepted {
		t.Fatalf("status %d", resp.StatusCode)
	}
	waitFor(t, "the plan comment", func() bool { n, _ := countKey(a.fake, 2, "prod"); return n == 1 })
	_, c := countKey(a.fake, 2, "prod")
	mustContain(t, c.Body, "0 to add, 0 to change, 1 to destroy")
	mustContain(t, c.Body, "planpr-prod/plan.json")
	mustContain(t, c.Body, "run=289782451")
	mustContain(t, c.Body, "[run](https://github.com/octo-org/octo-repo/actions/runs/289782451)") // the footer links the plan's run
	if strings.Contains(c.Body, os.TempDir()) {
		t.Error("the comment shows the server's temporary directory")
	}
	for _, l := range a.fake.Log() {
		if strings.Contains(l, "/download/") && !strings.HasSuffix(l, " 200") {
			t.Errorf("download: %s", l)
		}
	}
	a.stop(t)
	if n := a.fake.CountRequests("GET /download/"); n != 1 {
		t.Errorf("the artifact was downloaded %d times, want once", n)
	}
	// The App sets the labels the Action would: this plan destroys.
	if labels := a.fake.Labels(2); !slices.Contains(labels, report.LabelDestroy) {
		t.Errorf("labels %v, want %s", labels, report.LabelDestroy)
	}
}

func TestServerRefusesAManifestForAnotherPR(t *testing.T) {
	a := newTestApp(t, 1)
	a.start(t)
	a.fake.AddPR(githubtest.PR{Number: 99, BaseSHA: "b", HeadSHA: "someone-else", HeadRef: "x", HeadOwner: "y"})
	a.fake.AddArtifact(289782451, githubtest.Artifact{ID: 1, Name: "planpr", Zip: githubtest.Zip(map[string]string{
		"planpr.json": `{"pr": 99}`, "plan.json": runPlan})})
	body := payload(t, "workflow_run-completed.json", nil)
	a.deliver(t, "workflow_run", "w-2", body, githubtest.Sign(testSecret, body))
	a.stop(t)
	if len(a.fake.Comments(99)) != 0 {
		t.Error("commented on a pull request the run does not belong to")
	}
	if !strings.Contains(a.logs.String(), "refused") {
		t.Errorf("log: %s", a.logs.String())
	}
}

// TestServerKeepsABurstWhileStopped: deliveries that come while nothing
// works the queue are all kept (202), and done once it starts; a delivery
// kept is a duplicate when redelivered.
func TestServerKeepsABurstWhileStopped(t *testing.T) {
	a := newTestApp(t, 1)
	a.addLockPR(2, "h")
	for i := 0; i < 3; i++ {
		body := payload(t, "pull_request-opened.json", setPR(2, "h", "2026-11-01T10:00:00Z"))
		if resp, _ := a.deliver(t, "pull_request", fmt.Sprintf("q-%d", i), body, githubtest.Sign(testSecret, body)); resp.StatusCode != http.StatusAccepted {
			t.Errorf("delivery %d: %d", i, resp.StatusCode)
		}
	}
	a.start(t)
	waitFor(t, "the queue to drain", func() bool { return a.drained(t) })
	if n, _ := countKey(a.fake, 2, LockKey); n != 1 {
		t.Errorf("%d lock comments", n)
	}
	body := payload(t, "pull_request-opened.json", setPR(2, "h", "2026-11-01T10:00:00Z"))
	if resp, _ := a.deliver(t, "pull_request", "q-1", body, githubtest.Sign(testSecret, body)); resp.StatusCode != http.StatusOK {
		t.Errorf("redelivery of a kept delivery: %d", resp.StatusCode)
	}
}

func TestServerHealthAndMetrics(t *testing.T) {
	a := newTestApp(t, 1)
	a.start(t)
	resp, err := http.Get(a.http.URL + "/healthz")
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("healthz: %v %v", resp, err)
	}
	body := []byte(`{"zen":"hi"}`)
	a.deliver(t, "ping", "ping-1", body, githubtest.Sign(testSecret, body))
	resp, _ = http.Get(a.http.URL + "/metrics")
	b, _ := io.ReadAll(resp.Body)
	for _, want := range []string{`planpr_webhook_deliveries_total{event="ping",result="ignored"} 1`, "planpr_queue_depth 0", `planpr_queue_jobs{state="completed"}`,
		"planpr_github_requests_total", "planpr_job_duration_seconds_count", "planpr_job_latency_seconds_count", "planpr_redeliveries_total",
		"go_goroutines ", "go_memstats_heap_alloc_bytes ", "process_open_fds "} { // the runtime's and the process's, by the Prometheus client's collectors
		mustContain(t, string(b), want)
	}
	a.srv.Shutdown(t.Context())
	resp, _ = http.Get(a.http.URL + "/healthz")
	if resp.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("healthz while shutting down: %d", resp.StatusCode)
	}
}

// TestServerLoad sends 500 signed deliveries, 50 at a time, for 20 pull
// requests (25 pushes each, the last one the pull request's head), on
// loopback, with the queue on SQLite and on PostgreSQL: every delivery is
// answered 202 (kept), each pull request ends with one lock comment, for
// its newest head, in at most three comment writes; the time to 202 is
// measured. Then the same with the fake GitHub failing one request in ten.
func TestServerLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("load test")
	}
	stores := map[string]func(t *testing.T) (string, string){
		"sqlite":   func(t *testing.T) (string, string) { return t.TempDir(), "" },
		"postgres": func(t *testing.T) (string, string) { return "", pgtest.Start(t) },
	}
	for _, store := range []string{"sqlite", "postgres"} {
		for _, failEvery := range []int{0, 10} {
			t.Run(fmt.Sprintf("%s/fail-every-%d", store, failEvery), func(t *testing.T) {
				dir, url := stores[store](t)
				a := newTestAppOn(t, 8, dir, url)
				a.start(t)
				for pr := 1; pr <= 20; pr++ {
					a.addLockPR(pr, fmt.Sprintf("head-%d-24", pr))
				}
				a.fake.FailEvery(failEvery)
				var mu sync.Mutex
				var latencies []time.Duration
				codes := map[int]int{}
				sem := make(chan struct{}, 50)
				var wg sync.WaitGroup
				for i := 0; i < 500; i++ {
					wg.Add(1)
					sem <- struct{}{}
					go func() {
						defer func() { <-sem; wg.Done() }()
						pr, push := i%20+1, i/20
						body := payload(t, "pull_request-synchronize.json", setPR(pr, fmt.Sprintf("head-%d-%d", pr, push), fmt.Sprintf("2026-11-01T10:%02d:00Z", push)))
						resp, d := a.deliver(t, "pull_request", fmt.Sprintf("load-%d-%d", failEvery, i), body, githubtest.Sign(testSecret, body))
						mu.Lock()
						latencies = append(latencies, d)
						codes[resp.StatusCode]++
						mu.Unlock()
					}()
				}
				wg.Wait()
				if err := a.stop(t); err != nil {
					t.Fatal(err)
				}
				if codes[http.StatusAccepted] != 500 {
					t.Fatalf("status codes %v: deliveries refused", codes)
				}
				writes := 0
				for pr := 1; pr <= 20; pr++ {
					n, c := countKey(a.fake, pr, LockKey)
					if n != 1 || !strings.Contains(c.Body, fmt.Sprintf("sha=head-%d-24", pr)) {
						t.Errorf("PR %d has %d lock comments; the last: %.100q", pr, n, c.Body)
					}
					// Creations that succeeded: one the fake failed (502) is
					// retried, and how often that lands on a create depends
					// on how the load interleaves.
					creates := 0
					for _, l := range a.fake.Log() {
						if l == fmt.Sprintf("POST /repos/Codertocat/Hello-World/issues/%d/comments 201", pr) {
							creates++
						}
					}
					if creates > 3 {
						t.Errorf("PR %d: %d comment creations", pr, creates)
					}
					writes += creates
				}
				writes += a.fake.CountRequests("PATCH /repos/Codertocat/Hello-World/issues/comments/")
				if writes > 3*20 {
					t.Errorf("%d comment writes for 20 pull requests", writes)
				}
				sort.Slice(latencies, func(i, j int) bool { return latencies[i] < latencies[j] })
				p50, p99 := latencies[len(latencies)/2], latencies[len(latencies)*99/100]
				resp, err := http.Get(a.http.URL + "/metrics")
				if err != nil {
					t.Fatal(err)
				}
				var m bytes.Buffer
				m.ReadFrom(resp.Body)
				resp.Body.Close()
				t.Logf("%s: 500 deliveries, 50 at a time, 20 PRs, GitHub failing 1 in %d: time to 202 p50 %v, p99 %v, max %v; %d comment writes; GitHub requests %d, errors %d",
					store, max(failEvery, 0), p50, p99, latencies[len(latencies)-1], writes, a.srv.retry.Calls.Load(), a.srv.retry.Errors.Load())
				if strings.Contains(m.String(), `result="failed"`) || strings.Contains(m.String(), `result="refused"`) {
					t.Errorf("some deliveries failed:\n%s", m.String())
				}
			})
		}
	}
}

// TestCompareFallback: when GitHub answers 404 for the merge base (a
// force-pushed base), the lock files are compared with the pull request's
// base commit and the comment says so: the review is never dropped.
func TestCompareFallback(t *testing.T) {
	a := newTestApp(t, 1)
	a.start(t)
	a.addLockPR(2, "head1")
	a.fake.Inject(githubtest.Fault{Match: "GET /repos/Codertocat/Hello-World/compare/", Status: http.StatusNotFound, Message: "Not Found"})
	body := payload(t, "pull_request-opened.json", setPR(2, "head1", "2026-11-01T10:00:00Z"))
	a.deliver(t, "pull_request", "d-1", body, githubtest.Sign(testSecret, body))
	waitFor(t, "the lock comment", func() bool { n, _ := countKey(a.fake, 2, LockKey); return n == 1 })
	a.stop(t)
	_, c := countKey(a.fake, 2, LockKey)
	mustContain(t, c.Body, "5.9.0 → 6.0.0")
	mustContain(t, c.Body, "Compared with the pull request's base commit f95f852: GitHub could not compute where the branch left its base")
}

// TestServerSeparateMetrics: with a metrics listener of its own, /metrics
// is served there, not beside the public webhook.
func TestServerSeparateMetrics(t *testing.T) {
	a := newTestAppWith(t, 1, t.TempDir(), "", func(cfg *ServerConfig) { cfg.SeparateMetrics = true })
	a.start(t)
	defer a.srv.Shutdown(context.Background()) // nothing queued: no drain to wait for (stop reads /metrics)
	if resp, err := http.Get(a.http.URL + "/metrics"); err != nil || resp.StatusCode != http.StatusNotFound {
		t.Errorf("/metrics beside the webhook: %v %v", resp, err)
	}
	metrics := httptest.NewServer(a.srv.MetricsHandler())
	defer metrics.Close()
	resp, err := http.Get(metrics.URL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	for _, want := range []string{"planpr_queue_depth 0", "go_goroutines ", "process_cpu_seconds_total "} {
		mustContain(t, string(b), want)
	}
	if resp, _ := http.Post(metrics.URL+"/webhook", "application/json", nil); resp.StatusCode == http.StatusAccepted || resp.StatusCode == http.StatusUnauthorized {
		t.Errorf("the metrics listener serves the webhook: %d", resp.StatusCode)
	}
}
