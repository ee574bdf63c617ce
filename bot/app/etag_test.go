package app

import (
	"strings"
	"testing"

	"github.com/planpr/planpr/bot/githubtest"
)

// TestARunAnsweredAgainCostsNoRateLimit: the installation's client asks
// for what it read before with If-None-Match, so a workflow run delivered
// again (a re-run, a redelivery) that finds its comment, labels and check
// as they should be writes nothing, and every list it read before is a
// 304, which GitHub does not count against the rate limit. (The artifact
// itself is downloaded again: its URL is a new one each time.)
func TestARunAnsweredAgainCostsNoRateLimit(t *testing.T) {
	a := newTestApp(t, 1)
	a.start(t)
	a.fake.AddArtifact(289782451, githubtest.Artifact{ID: 1, Name: "planpr-prod", Zip: githubtest.Zip(map[string]string{
		"planpr.json": `{"pr": 2, "key": "prod"}`, "plan.json": runPlan})})
	body := payload(t, "workflow_run-completed.with-pull-requests.json", nil)
	labelReads := func() int { return a.fake.CountRequests("GET /repos/octo-org/octo-repo/issues/2/labels") }
	a.deliver(t, "workflow_run", "w-1", body, githubtest.Sign(testSecret, body))
	waitFor(t, "the plan comment", func() bool { n, _ := countKey(a.fake, 2, "prod"); return n == 1 })
	waitFor(t, "the first run's labels", func() bool { return labelReads() == 2 })
	// The first run wrote the labels and the check after reading them: the
	// second reads them in full once more, the third is all 304s.
	a.deliver(t, "workflow_run", "w-2", body, githubtest.Sign(testSecret, body))
	waitFor(t, "the second run's labels", func() bool { return labelReads() == 4 })
	before := len(a.fake.Log())
	a.deliver(t, "workflow_run", "w-3", body, githubtest.Sign(testSecret, body))
	waitFor(t, "the third run's labels", func() bool { return labelReads() == 6 })
	a.stop(t)
	again := a.fake.Log()[before:]
	var full []string
	for _, call := range again {
		method, _, _ := strings.Cut(call, " ")
		switch {
		case method != "GET":
			t.Errorf("the run answered again wrote: %s", call)
		case strings.HasSuffix(call, " 200") && !strings.Contains(call, "/download/") && !strings.HasPrefix(call, "GET /app "):
			full = append(full, call)
		}
	}
	if len(full) > 0 {
		t.Errorf("lists read in full again, not as 304s:\n%s\nall calls:\n%s", strings.Join(full, "\n"), strings.Join(again, "\n"))
	}
	t.Logf("%d calls:\n%s", len(again), strings.Join(again, "\n"))
}
