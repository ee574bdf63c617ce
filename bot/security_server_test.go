package bot

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/planpr/planpr/bot/gh"
)

// promLine is one line of the Prometheus text format.
var promLine = regexp.MustCompile(`^(# (HELP|TYPE) [a-z_]+ .+|[a-z_]+(\{([a-z_]+="[^"\\\n]*",?)*\})? [0-9.e+-]+|[a-z_]+\{le="[^"]+"\} [0-9]+)$`)

func metricsText(t *testing.T, a *testApp) string {
	t.Helper()
	resp, err := http.Get(a.http.URL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}

// TestH5UnsignedHeadersAddNoMetricsLabels: the X-GitHub-Event header of an
// unsigned request used to become a label (900 KB names grew memory
// without bound, a 0xFF byte broke /metrics). Labels now come from a fixed
// set, recorded after the signature check.
func TestH5UnsignedHeadersAddNoMetricsLabels(t *testing.T) {
	a := newTestApp(t, 1, 5)
	huge := strings.Repeat("e", 900<<10)
	for i := range 30 {
		a.deliver(t, huge+fmt.Sprint(i), fmt.Sprint("d-", i), []byte(`{}`), "sha256=00")
	}
	a.deliver(t, "pull\xffrequest", "d-ff", []byte(`{}`), "")
	body := []byte(`{"zen":"hi"}`)
	a.deliver(t, "invented\xff"+huge, "d-signed", body, sign(body)) // signed, but the header is not
	m := metricsText(t, a)
	if len(m) > 8<<10 {
		t.Fatalf("/metrics is %d bytes", len(m))
	}
	for _, line := range strings.Split(strings.TrimSpace(m), "\n") {
		if !promLine.MatchString(line) {
			t.Errorf("not Prometheus text: %q", line)
		}
	}
	mustContain(t, m, `planpr_webhook_deliveries_total{event="unverified",result="bad-signature"} 31`)
	mustContain(t, m, `planpr_webhook_deliveries_total{event="other",result="ignored"} 1`)
}

// TestH5DeliveryIDsBounded: delivery ids are headers too; one that is not
// an id is refused, not remembered.
func TestH5DeliveryIDsBounded(t *testing.T) {
	a := newTestApp(t, 1, 5)
	body := []byte(`{"zen":"hi"}`)
	for _, id := range []string{strings.Repeat("a", 1<<20), "", "id with spaces", "x\xff"} {
		resp, _ := a.deliver(t, "ping", id, body, sign(body))
		if resp.StatusCode != http.StatusBadRequest {
			t.Errorf("delivery id of %d bytes: %d", len(id), resp.StatusCode)
		}
	}
	if n := len(a.srv.seen.ids); n != 0 {
		t.Errorf("%d delivery ids remembered", n)
	}
	if resp, _ := a.deliver(t, "ping", "72d3162e-cc78-11e3-81ab-4c9367dc0958", body, sign(body)); resp.StatusCode != http.StatusAccepted {
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

// TestH5BodiesReadWithinABudget: 40 uploads of 25 MB at once were all
// buffered (1.13 GB). Now bodies are read within a budget of bytes and of
// readers; past it a sender waits, then gets 503, and what is read stays
// within the budget.
func TestH5BodiesReadWithinABudget(t *testing.T) {
	a := newTestApp(t, 1, 5)
	a.srv.intake = newIntake(2*MaxWebhookBody, 16, 300*time.Millisecond)
	release := make(chan struct{})
	var wg sync.WaitGroup
	codes := make(chan int, 40)
	for i := range 40 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			body := &slowBody{release: release, r: bytes.NewReader(make([]byte, MaxWebhookBody))}
			req, _ := http.NewRequest(http.MethodPost, a.http.URL+"/webhook", body)
			req.ContentLength = MaxWebhookBody
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

// TestL5ShutdownWithASlowClient: one client sending its body slowly held
// the shutdown for its whole 30 s and then made it report "0 jobs left
// unfinished" and fail. The requests now have a deadline of their own,
// and a shutdown with nothing left undone succeeds.
func TestL5ShutdownWithASlowClient(t *testing.T) {
	a := newTestApp(t, 1, 5)
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

// TestM7ConfigFetchesBounded: a pull request whose root module holds 1,000
// .tf files made 1,007 API requests per delivery: the App now fetches at
// most maxConfigFiles of them, the likely ones first.
func TestM7ConfigFetchesBounded(t *testing.T) {
	a := newTestApp(t, 1, 10)
	a.srv.Start()
	a.addLockPR(2, "head1")
	for i := range 1000 {
		a.fake.AddFile("head1", fmt.Sprintf("envs/prod/r%04d.tf", i), []byte("resource \"aws_s3_bucket\" \"b\" {}\n"))
	}
	body := payload(t, "pull_request-opened.json", setPR(2, "head1", "2026-11-01T10:00:00Z"))
	a.deliver(t, "pull_request", "d-1", body, sign(body))
	a.srv.Shutdown(t.Context())
	if n, c := countKey(a.fake, 2, LockKey); n != 1 || !strings.Contains(c.Body, "envs/prod/main.tf:3") {
		t.Fatalf("%d lock comments; main.tf (a likely file) was not read: %.300q", n, c.Body)
	}
	if n := countRequests(a.fake, "GET /repos/Codertocat/Hello-World/contents/"); n > maxConfigFiles+4 {
		t.Errorf("%d contents requests for one delivery", n)
	}
}

// TestM7LargeFilesAreNotFetched: blob fetches had no size limit; a lock
// file over gh.MaxFileFetch is refused from its size, unread.
func TestM7LargeFilesAreNotFetched(t *testing.T) {
	fake, c, _ := newFake(t, "t-write")
	fake.AddFile("abc", "big/.terraform.lock.hcl", bytes.Repeat([]byte("# padding\n"), gh.MaxFileFetch/10+1))
	_, _, err := c.FileAt(t.Context(), repo, "big/.terraform.lock.hcl", "abc")
	if !errors.Is(err, gh.ErrFileTooLarge) {
		t.Errorf("err = %v", err)
	}
	if n := countRequests(fake, "GET /repos/octo/infra/git/blobs/"); n != 0 {
		t.Errorf("%d blob fetches", n)
	}
}
