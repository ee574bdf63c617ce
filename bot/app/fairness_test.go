package app

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/planpr/planpr/bot/githubtest"
	"github.com/planpr/planpr/lockdiff/verify"
)

// TestHostilePullRequestsCannotHoldTheApp: four pull requests of one
// installation whose lock files name 16 providers each on a registry that
// never answers held all four workers for the 5-minute job timeout, and
// were retried. Verification now has a time and request budget (a slow
// registry leaves a provider unchecked and the comment still posts, once,
// not retried), and one installation holds at most half the workers: a
// benign pull request of another installation is commented at once.
func TestHostilePullRequestsCannotHoldTheApp(t *testing.T) {
	var slowHits atomic.Int64
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		slowHits.Add(1)
		select {
		case <-r.Context().Done():
		case <-time.After(10 * time.Second):
		}
	}))
	defer slow.Close()
	const benignInstallation = testInstallation + 1
	a := newTestAppWith(t, 4, t.TempDir(), "", func(cfg *ServerConfig) {
		cfg.Verifier = &verify.Verifier{Registries: map[string]string{"registry.opentofu.org": slow.URL + "/v1/providers/"},
			RequestTimeout: 300 * time.Millisecond, Timeout: 3 * time.Second}
	})
	a.fake.AddInstallation(testAppID, benignInstallation)
	a.start(t)

	var before, after strings.Builder
	for i := range 16 {
		fmt.Fprintf(&before, "provider \"registry.opentofu.org/acme/p%d\" {\n  version = \"1.0.0\"\n  hashes = [\"zh:%s\"]\n}\n", i, strings.Repeat("1", 64))
		fmt.Fprintf(&after, "provider \"registry.opentofu.org/acme/p%d\" {\n  version = \"1.1.0\"\n  hashes = [\"zh:%s\"]\n}\n", i, strings.Repeat("2", 64))
	}
	hostile := []int{10, 11, 12, 13}
	for _, n := range hostile {
		head := fmt.Sprintf("hostile%d", n)
		a.fake.AddPR(githubtest.PR{Number: n, BaseSHA: baseSHA, HeadSHA: head, HeadRef: "b", HeadOwner: "Codertocat",
			Files: []githubtest.File{{Name: "x/.terraform.lock.hcl", Status: "modified"}}})
		a.fake.AddFile(baseSHA, "x/.terraform.lock.hcl", []byte(before.String()))
		a.fake.AddFile(head, "x/.terraform.lock.hcl", []byte(after.String()))
		body := payload(t, "pull_request-opened.json", setPR(n, head, "2026-11-01T10:00:00Z"))
		a.deliver(t, "pull_request", fmt.Sprintf("hostile-%d", n), body, githubtest.Sign(testSecret, body))
	}
	waitFor(t, "the hostile reviews to ask the registry", func() bool { return slowHits.Load() >= 2 })

	// The benign pull request changes only a constraint: nothing to ask.
	a.fake.AddPR(githubtest.PR{Number: 20, BaseSHA: baseSHA, HeadSHA: "benign", HeadRef: "b", HeadOwner: "Codertocat",
		Files: []githubtest.File{{Name: "y/.terraform.lock.hcl", Status: "modified"}}})
	a.fake.AddFile(baseSHA, "y/.terraform.lock.hcl", []byte(lockBefore))
	a.fake.AddFile("benign", "y/.terraform.lock.hcl", []byte(strings.Replace(lockBefore, "hashes", "constraints = \"~> 5.0\"\n  hashes", 1)))
	body := payload(t, "pull_request-opened.json", func(m map[string]any) {
		setPR(20, "benign", "2026-11-01T10:00:00Z")(m)
		m["installation"] = map[string]any{"id": benignInstallation}
	})
	start := time.Now()
	a.deliver(t, "pull_request", "benign-20", body, githubtest.Sign(testSecret, body))
	waitFor(t, "the benign comment", func() bool { n, _ := countKey(a.fake, 20, LockKey); return n == 1 })
	benign := time.Since(start)
	hostileDone := 0
	for _, n := range hostile {
		if c, _ := countKey(a.fake, n, LockKey); c == 1 {
			hostileDone++
		}
	}
	t.Logf("the benign comment came %v after its delivery, with %d of 4 hostile reviews done", benign.Round(time.Millisecond), hostileDone)
	if hostileDone == len(hostile) {
		t.Error("the benign pull request waited for every hostile one")
	}
	a.stop(t)
	for _, n := range hostile {
		c, last := countKey(a.fake, n, LockKey)
		if c != 1 || !strings.Contains(last.Body, "the registry did not answer in time") {
			t.Errorf("PR %d: %d comments: %.400s", n, c, last.Body)
		}
	}
	if strings.Contains(a.logs.String(), `"msg":"delivery failed"`) {
		t.Errorf("a hostile review failed and is retried:\n%s", a.logs.String())
	}
}
