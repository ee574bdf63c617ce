package webhook

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"regexp"
	"sync"
	"testing"
	"time"

	"github.com/planpr/planpr/bot/githubtest"
)

// TestSlowSendersNeverHoldAGenuineDelivery: 60 senders trickling a body
// of unknown length (chunked) and 60 trickling a declared one, a byte
// every 2 s and reconnecting when cut off, plus 3 declaring the largest
// body and sending nothing, held the body readers: genuine deliveries
// waited 5–10 s, at GitHub's 10 s limit. A body of unknown length is now
// refused at once, small bodies have a lane large ones cannot fill, and
// nothing else caps the readers: every genuine delivery is accepted
// without waiting for room (how long it took is logged; the closing
// figures come from the benchmark beside this test).
func TestSlowSendersNeverHoldAGenuineDelivery(t *testing.T) {
	a, url, stop := slowSenders(t, 60, 60, 3)
	time.Sleep(2500 * time.Millisecond) // past the grace: the first slow bodies are cut off
	statuses, took := genuineDeliveries(t, url, 6)
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if regexpMatch(`result="slow-body"} [1-9]`, metricsText(t, a)) {
			break // the pacing has cut a slow sender off
		}
	}
	stop()
	for i, s := range statuses {
		if s != http.StatusAccepted {
			t.Errorf("genuine delivery %d: %d after %v", i, s, took[i])
		}
	}
	t.Logf("genuine deliveries answered in %v", took)
	m := metricsText(t, a)
	for _, want := range []string{`result="slow-body"} [1-9]`, `result="no-length"} [1-9]`} {
		if !regexpMatch(want, m) {
			t.Errorf("%s not counted:\n%s", want, m)
		}
	}
	if regexpMatch(`result="busy"} [1-9]`, m) {
		t.Errorf("a delivery waited for room and was refused")
	}
}

// BenchmarkGenuineDeliveryUnderSlowSenders: how long a genuine delivery
// takes to be accepted while 120 slow senders (half chunked) and 3
// senders of the largest body hold connections open.
func BenchmarkGenuineDeliveryUnderSlowSenders(b *testing.B) {
	_, url, stop := slowSenders(b, 60, 60, 3)
	defer stop()
	time.Sleep(2500 * time.Millisecond)
	b.ResetTimer()
	var worst time.Duration
	for i := range b.N {
		statuses, took := genuineDeliveries(b, url, 1)
		if statuses[0] != http.StatusAccepted {
			b.Fatalf("delivery %d: %d", i, statuses[0])
		}
		worst = max(worst, took[0])
	}
	b.ReportMetric(float64(worst.Microseconds())/1000, "worst-ms")
}

// slowSenders starts an intake and the hostile senders against it: chunked
// and declared-length tricklers (a byte every 2 s, reconnecting when cut
// off) and senders that declare MaxBody and send nothing. stop ends them.
func slowSenders(t testing.TB, chunked, declared, huge int) (*testIntake, string, func()) {
	a := newTestIntake(t, Config{})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := NewHTTPServer(a.srv.HTTPHandler())
	go srv.Serve(LimitListener(ln))
	t.Cleanup(func() { srv.Close() })
	ctx, cancel := context.WithCancel(context.Background())
	var attackers sync.WaitGroup
	sender := func(head string, trickle bool) {
		defer attackers.Done()
		for ctx.Err() == nil {
			conn, err := net.Dial("tcp", ln.Addr().String())
			if err != nil {
				return
			}
			fmt.Fprint(conn, "POST /webhook HTTP/1.1\r\nHost: x\r\nX-GitHub-Event: pull_request\r\nX-GitHub-Delivery: slow\r\n"+head+"\r\n")
			for i := 0; i < 100 && ctx.Err() == nil; i++ {
				if trickle {
					if _, err := conn.Write([]byte("x")); err != nil {
						break
					}
				}
				select {
				case <-time.After(2 * time.Second):
				case <-ctx.Done():
				}
			}
			conn.Close()
		}
	}
	for range chunked {
		attackers.Add(1)
		go sender("Transfer-Encoding: chunked\r\n", true)
	}
	for range declared {
		attackers.Add(1)
		go sender("Content-Length: 100\r\n", true)
	}
	for range huge {
		attackers.Add(1)
		go sender(fmt.Sprintf("Content-Length: %d\r\n", MaxBody), false)
	}
	return a, "http://" + ln.Addr().String() + "/webhook", func() { cancel(); attackers.Wait() }
}

// genuineDeliveries sends n signed deliveries at once and returns their
// statuses and how long each took.
func genuineDeliveries(t testing.TB, url string, n int) ([]int, []time.Duration) {
	var genuine sync.WaitGroup
	statuses := make([]int, n)
	took := make([]time.Duration, n)
	for i := range statuses {
		genuine.Add(1)
		go func() {
			defer genuine.Done()
			body := []byte(fmt.Sprintf(`{"key":"g%d-%d"}`, i, time.Now().UnixNano()))
			resp, d, err := githubtest.Deliver(url, "pull_request", fmt.Sprintf("genuine-%d-%d", i, time.Now().UnixNano()), body, githubtest.Sign(testSecret, body))
			if err != nil {
				t.Error(err)
				return
			}
			resp.Body.Close()
			statuses[i], took[i] = resp.StatusCode, d
		}()
	}
	genuine.Wait()
	return statuses, took
}

func regexpMatch(pattern, s string) bool { return regexp.MustCompile(pattern).MatchString(s) }
