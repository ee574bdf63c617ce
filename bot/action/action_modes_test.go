package action

import (
	"os"
	"path/filepath"
	"testing"
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
			"GITHUB_EVENT_PATH": "../../testdata/payloads/pull_request-opened.json", "GITHUB_RUN_ID": runID, "GITHUB_WORKSPACE": ws,
			"INPUT_GITHUB-TOKEN": "t-write", "INPUT_PLAN": filepath.Join(ws, "envs/*/plan.json"), "INPUT_LOCK-FILES": "off",
			"INPUT_COMMENT-MODE": "changes-only", "INPUT_VERIFY": "false"})
		if err := Run(t.Context(), env); err != nil {
			t.Fatalf("%s: %v\n%s", plan, err, env.Stdout)
		}
	}
	run("../../testdata/example/plan.json", "1")
	if n, _ := countKey(fake, 2, "prod"); n != 1 {
		t.Fatalf("a plan with changes: %d comments", n)
	}
	run("../../testdata/terraform/nochanges/plan.json", "2")
	if n, _ := countKey(fake, 2, "prod"); n != 0 {
		t.Errorf("a plan with no changes: %d comments left", n)
	}
	run("../../testdata/terraform/nochanges/plan.json", "3")
	if len(fake.Comments(2)) != 0 {
		t.Errorf("a comment was posted for nothing: %+v", fake.Comments(2))
	}
}
