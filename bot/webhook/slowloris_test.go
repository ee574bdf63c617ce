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

// TestA4SlowSendersCannotHoldTheIntake: 20 connections each trickling a
// 100-byte body a byte every 2 s (and reconnecting when cut off) held all
// 16 body readers, and 5 of 6 genuine deliveries got 503 after 10 s. Bodies
// are paced now: every genuine delivery is accepted.
func TestA4SlowSendersCannotHoldTheIntake(t *testing.T) {
	a := newTestIntake(t, Config{})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := NewHTTPServer(a.srv.HTTPHandler())
	go srv.Serve(LimitListener(ln))
	t.Cleanup(func() { srv.Close() })
	url := "http://" + ln.Addr().String() + "/webhook"

	ctx, stop := context.WithCancel(context.Background())
	var attackers sync.WaitGroup
	for range 20 {
		attackers.Add(1)
		go func() {
			defer attackers.Done()
			for ctx.Err() == nil {
				conn, err := net.Dial("tcp", ln.Addr().String())
				if err != nil {
					return
				}
				fmt.Fprintf(conn, "POST /webhook HTTP/1.1\r\nHost: x\r\nX-GitHub-Event: pull_request\r\nX-GitHub-Delivery: slow\r\nContent-Length: 100\r\n\r\n")
				for i := 0; i < 100 && ctx.Err() == nil; i++ {
					if _, err := conn.Write([]byte("x")); err != nil {
						break
					}
					select {
					case <-time.After(2 * time.Second):
					case <-ctx.Done():
					}
				}
				conn.Close()
			}
		}()
	}
	time.Sleep(time.Second) // the slow senders hold the readers
	var genuine sync.WaitGroup
	statuses := make([]int, 6)
	took := make([]time.Duration, 6)
	for i := range statuses {
		genuine.Add(1)
		go func() {
			defer genuine.Done()
			body := []byte(fmt.Sprintf(`{"key":"g%d"}`, i))
			resp, d, err := githubtest.Deliver(url, "pull_request", fmt.Sprintf("genuine-%d", i), body, githubtest.Sign(testSecret, body))
			if err != nil {
				t.Error(err)
				return
			}
			resp.Body.Close()
			statuses[i], took[i] = resp.StatusCode, d
		}()
	}
	genuine.Wait()
	stop()
	attackers.Wait()
	for i, s := range statuses {
		if s != http.StatusAccepted {
			t.Errorf("genuine delivery %d: %d after %v", i, s, took[i])
		}
	}
	t.Logf("genuine deliveries answered in %v", took)
	if m := metricsText(t, a); !regexpMatch(`result="slow-body"} [1-9]`, m) {
		t.Errorf("no slow bodies counted:\n%s", m)
	}
}

func regexpMatch(pattern, s string) bool { return regexp.MustCompile(pattern).MatchString(s) }
