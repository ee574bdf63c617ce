package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/planpr/planpr/bot"
	"github.com/planpr/planpr/bot/githubtest"
)

// TestAppRootsLockFileMovesIntoItsPlanComment: a pull request's lock file
// is reviewed in the lock comment until a plan's comment holds it; when
// the plan of its root arrives (an artifact whose manifest names the
// root), the plan's comment holds the lock section and the lock comment
// goes away. (That the App's report is the Action's for the same inputs
// is TestEveryRunnerBuildsTheSameReport's, in cmd/planpr.)
func TestAppRootsLockFileMovesIntoItsPlanComment(t *testing.T) {
	example := "../../testdata/example"
	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join(example, name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	lockPath := "envs/prod/.terraform.lock.hcl"
	base, head := "f95f852bd8fca8fcc58a9a2d6c842781e32a215e", "ec26c3e57ca3a959ca5aad62de7213c562f8c821"
	a := newTestApp(t, 1)
	a.start(t)
	a.fake.AddPR(githubtest.PR{Number: 2, BaseSHA: base, HeadSHA: head, HeadRef: "feature", HeadOwner: "octo-org",
		Files: []githubtest.File{{Name: lockPath, Status: "modified"}}})
	a.fake.AddFile(base, lockPath, read("before.terraform.lock.hcl"))
	a.fake.AddFile(head, lockPath, read("after.terraform.lock.hcl"))
	a.fake.AddFile(head, "envs/prod/versions.tf", read("versions.tf"))
	a.fake.AddArtifact(289782451, githubtest.Artifact{ID: 1, Name: "planpr-prod", Zip: githubtest.Zip(map[string]string{
		"planpr.json": `{"pr": 2, "key": "prod", "root": "envs/prod"}`, "plan.json": string(read("plan.json")), "plan.jsonl": string(read("plan.jsonl"))})})
	opened := payload(t, "pull_request-opened.json", setPR(2, head, "2026-11-01T10:00:00Z"))
	a.deliver(t, "pull_request", "p-1", opened, githubtest.Sign(testSecret, opened))
	waitFor(t, "the lock comment", func() bool { n, _ := countKey(a.fake, 2, bot.LocksKey); return n == 1 })
	body := payload(t, "workflow_run-completed.with-pull-requests.json", func(m map[string]any) {
		run := m["workflow_run"].(map[string]any)
		run["head_sha"] = head
		run["pull_requests"].([]any)[0].(map[string]any)["head"].(map[string]any)["sha"] = head
	})
	a.deliver(t, "workflow_run", "w-1", body, githubtest.Sign(testSecret, body))
	waitFor(t, "the plan's comment", func() bool { n, _ := countKey(a.fake, 2, "prod"); return n == 1 })
	a.stop(t)
	_, c := countKey(a.fake, 2, "prod")
	if !strings.Contains(c.Body, "### Lock file changes") || !strings.Contains(c.Body, lockPath) || !strings.Contains(c.Body, "2 to add, 2 to change, 2 to destroy") {
		t.Errorf("the plan's comment without its plan or its root's lock file:\n%s", c.Body)
	}
	if n, _ := countKey(a.fake, 2, bot.LocksKey); n != 0 {
		t.Errorf("%d lock comments beside the plan's", n)
	}
}
