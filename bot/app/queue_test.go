package app

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/planpr/planpr/bot/gh"
	"github.com/planpr/planpr/bot/githubtest"
	"github.com/planpr/planpr/bot/webhook/pgtest"
)

// TestServerRedeliversMissedDeliveries: the App's deliveries GitHub could
// not hand over are redelivered, once each, through the App's API.
func TestServerRedeliversMissedDeliveries(t *testing.T) {
	fake := githubtest.New()
	defer fake.Close()
	fake.AddInstallation(testAppID, testInstallation)
	now := time.Now()
	for i, d := range []githubtest.HookDelivery{
		{GUID: "11111111-aaaa", StatusCode: 202}, {GUID: "22222222-bbbb", StatusCode: 0}, {GUID: "33333333-cccc", StatusCode: 503},
		{GUID: "44444444-dddd", StatusCode: 502}, {GUID: "44444444-dddd", StatusCode: 200},
	} {
		d.ID, d.DeliveredAt, d.Event = int64(100+i), now.Add(-time.Duration(10-i)*time.Minute), "pull_request"
		fake.AddHookDelivery(d)
	}
	srv, err := NewServer(ServerConfig{AppID: testAppID, PrivateKey: appKey(t), WebhookSecret: []byte(testSecret), APIURL: fake.URL,
		DataDir: t.TempDir(), Redeliver: 100 * time.Millisecond, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the redeliveries", func() bool { r := fake.Redeliveries(); return r[101] == 1 && r[102] == 1 })
	time.Sleep(400 * time.Millisecond) // more sweeps ask nothing more
	srv.Shutdown(context.Background())
	if got := fmt.Sprint(fake.Redeliveries()); got != "map[101:1 102:1]" {
		t.Errorf("redeliveries %s", got)
	}
}

// TestServerTwoReplicasOnePostgres: two replicas share a PostgreSQL
// queue and are sent the same deliveries: each delivery is kept and
// processed once, and each pull request gets one comment.
func TestServerTwoReplicasOnePostgres(t *testing.T) {
	url := pgtest.Start(t)
	fake := githubtest.New()
	defer fake.Close()
	fake.AddInstallation(testAppID, testInstallation)
	a := &testApp{fake: fake}
	for pr := 1; pr <= 10; pr++ {
		a.addLockPR(pr, fmt.Sprintf("head-%d", pr))
	}
	var logs [2]*githubtest.LogBuffer
	var urls [2]string
	var servers [2]*Server
	for i := range servers {
		logs[i] = &githubtest.LogBuffer{}
		srv, err := NewServer(ServerConfig{AppID: testAppID, PrivateKey: appKey(t), WebhookSecret: []byte(testSecret), APIURL: fake.URL,
			GraphQLURL: fake.URL + "/graphql", DatabaseURL: url, Workers: 4, Redeliver: -1, Logger: slog.New(slog.NewJSONHandler(logs[i], nil)),
			Retry: &gh.RetryTransport{Sleep: func(time.Duration) { time.Sleep(5 * time.Millisecond) }, Attempts: 8}})
		if err != nil {
			t.Fatal(err)
		}
		if err := srv.Start(); err != nil {
			t.Fatal(err)
		}
		hs := httptest.NewServer(srv.Handler())
		defer hs.Close()
		servers[i], urls[i] = srv, hs.URL
	}
	codes := map[int]int{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for pr := 1; pr <= 10; pr++ {
		body := payload(t, "pull_request-synchronize.json", setPR(pr, fmt.Sprintf("head-%d", pr), "2026-11-01T10:00:00Z"))
		for _, u := range urls { // the same delivery to both replicas, at once
			wg.Add(1)
			go func() {
				defer wg.Done()
				resp, _, err := githubtest.Deliver(u+"/webhook", "pull_request", fmt.Sprintf("two-%d", pr), body, githubtest.Sign(testSecret, body))
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				codes[resp.StatusCode]++
				mu.Unlock()
			}()
		}
	}
	wg.Wait()
	if codes[http.StatusAccepted] != 10 || codes[http.StatusOK] != 10 {
		t.Errorf("status codes %v: want each delivery kept once (202) and a duplicate (200)", codes)
	}
	waitFor(t, "the comments", func() bool {
		for pr := 1; pr <= 10; pr++ {
			if n, _ := countKey(fake, pr, LockKey); n != 1 {
				return false
			}
		}
		return true
	})
	for _, srv := range servers {
		srv.Shutdown(context.Background())
	}
	done := strings.Count(logs[0].String(), `"msg":"delivery done"`) + strings.Count(logs[1].String(), `"msg":"delivery done"`)
	if done != 10 {
		t.Errorf("%d deliveries processed, want 10 (each once)", done)
	}
	for pr := 1; pr <= 10; pr++ {
		if n, _ := countKey(fake, pr, LockKey); n != 1 {
			t.Errorf("PR %d has %d lock comments", pr, n)
		}
	}
	t.Logf("replica 0 processed %d, replica 1 %d", strings.Count(logs[0].String(), `"msg":"delivery done"`), strings.Count(logs[1].String(), `"msg":"delivery done"`))
}
