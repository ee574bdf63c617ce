package bot

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/planpr/planpr/bot/githubtest"
)

// TestCommentModeChangesOnly: with comment-mode changes-only a root keeps
// its comment while its plan changes something, and once it has nothing
// to say the comment goes and no new one is posted.
func TestCommentModeChangesOnly(t *testing.T) {
	fake, _, _ := newFake(t, "t-write")
	ws := t.TempDir()
	run := func(plan, runID string) {
		t.Helper()
		b, err := os.ReadFile(plan)
		if err != nil {
			t.Fatal(err)
		}
		writeFiles(t, ws, map[string]string{"envs/prod/plan.json": string(b)})
		env := actionEnv(map[string]string{"GITHUB_API_URL": fake.URL, "GITHUB_GRAPHQL_URL": fake.URL + "/graphql", "GITHUB_REPOSITORY": "o/r",
			"GITHUB_EVENT_PATH": "../testdata/payloads/pull_request-opened.json", "GITHUB_RUN_ID": runID, "GITHUB_WORKSPACE": ws,
			"INPUT_GITHUB-TOKEN": "t-write", "INPUT_PLAN": filepath.Join(ws, "envs/*/plan.json"), "INPUT_LOCK-FILES": "off",
			"INPUT_COMMENT-MODE": "changes-only", "INPUT_VERIFY": "false"})
		if err := RunAction(t.Context(), env); err != nil {
			t.Fatalf("%s: %v\n%s", plan, err, env.Stdout)
		}
	}
	run("../testdata/example/plan.json", "1")
	if n, _ := countKey(fake, 2, "prod"); n != 1 {
		t.Fatalf("a plan with changes: %d comments", n)
	}
	run("../testdata/terraform/nochanges/plan.json", "2")
	if n, _ := countKey(fake, 2, "prod"); n != 0 {
		t.Errorf("a plan with no changes: %d comments left", n)
	}
	run("../testdata/terraform/nochanges/plan.json", "3")
	if len(fake.Comments(2)) != 0 {
		t.Errorf("a comment was posted for nothing: %+v", fake.Comments(2))
	}
}

// TestAppChangesOnly: the App with PLANPR_COMMENT_MODE=changes-only
// removes a root's comment once its plan has nothing to say, and posts
// none for it.
func TestAppChangesOnly(t *testing.T) {
	a := newTestAppWith(t, 1, t.TempDir(), "", func(cfg *ServerConfig) { cfg.CommentMode = "changes-only" })
	a.start(t)
	a.fake.AddComment(2, "planpr-test[bot]", "<!-- planpr:v1 key=prod at=1 -->\n## ⚠️ planpr · prod: 1 to add, 0 to change, 0 to destroy")
	plan, err := os.ReadFile("../testdata/terraform/nochanges/plan.json")
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
