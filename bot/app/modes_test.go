package app

import (
	"os"
	"testing"

	"github.com/planpr/planpr/bot/githubtest"
)

// TestAppChangesOnly: the App with PLANPR_COMMENT_MODE=changes-only
// removes a root's comment once its plan has nothing to say, and posts
// none for it.
func TestAppChangesOnly(t *testing.T) {
	a := newTestAppWith(t, 1, t.TempDir(), "", func(cfg *ServerConfig) { cfg.CommentMode = "changes-only" })
	a.start(t)
	a.fake.AddComment(2, "planpr-test[bot]", "<!-- planpr:v1 key=prod at=1 -->\n## ⚠️ planpr · prod: 1 to add, 0 to change, 0 to destroy")
	plan, err := os.ReadFile("../../testdata/terraform/nochanges/plan.json")
	if err != nil {
		t.Fatal(err)
	}
	a.fake.AddArtifact(289782451, githubtest.Artifact{ID: 1, Name: "planpr-prod", Zip: githubtest.Zip(map[string]string{
		"planpr.json": `{"pr": 2, "key": "prod"}`, "plan.json": string(plan)})})
	body := payload(t, "workflow_run-completed.with-pull-requests.json", nil)
	a.deliver(t, "workflow_run", "w-1", body, githubtest.Sign(testSecret, body))
	a.stop(t)
	if n := len(a.fake.Comments(2)); n != 0 {
		t.Errorf("%d comments: %+v", n, a.fake.Comments(2))
	}
}
