package action

import (
	"github.com/planpr/planpr/bot/githubtest"
	"maps"
	"os"
	"path/filepath"
	"strings"
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

// TestCommentModeOffCallsNoGitHub: comment-mode off needs no token and
// makes no GitHub call at all (no GET /user, no pull request, no lock
// review), and still writes the job summary and the outputs; a gate that
// would need GitHub is refused, not skipped.
func TestCommentModeOffCallsNoGitHub(t *testing.T) {
	fake, _, _ := newFake(t, "t-write")
	ws := t.TempDir()
	plan, err := os.ReadFile("../../testdata/example/plan.json")
	if err != nil {
		t.Fatal(err)
	}
	writeFiles(t, ws, map[string]string{"envs/prod/plan.json": string(plan)})
	summary, outputs := filepath.Join(ws, "summary.md"), filepath.Join(ws, "outputs.txt")
	vars := map[string]string{"GITHUB_API_URL": fake.URL, "GITHUB_GRAPHQL_URL": fake.URL + "/graphql", "GITHUB_REPOSITORY": "o/r",
		"GITHUB_EVENT_PATH": "../../testdata/payloads/pull_request-opened.json", "GITHUB_RUN_ID": "1", "GITHUB_WORKSPACE": ws,
		"GITHUB_STEP_SUMMARY": summary, "GITHUB_OUTPUT": outputs,
		"INPUT_PLAN": filepath.Join(ws, "envs/*/plan.json"), "INPUT_COMMENT-MODE": "off", "INPUT_VERIFY": "false"}
	env := actionEnv(vars)
	if err := Run(t.Context(), env); err != nil {
		t.Fatalf("%v\n%s", err, env.Stdout)
	}
	if n := fake.CountRequests(""); n != 0 {
		t.Errorf("%d GitHub calls with comment-mode off", n)
	}
	if b, err := os.ReadFile(summary); err != nil || !strings.Contains(string(b), "2 to add, 2 to change, 2 to destroy") {
		t.Errorf("job summary: %v\n%.300s", err, b)
	}
	if b, err := os.ReadFile(outputs); err != nil || !strings.Contains(string(b), "destroy=2") || !strings.Contains(string(b), "fingerprint=") {
		t.Errorf("outputs: %v\n%s", err, b)
	}
	vars["INPUT_REVIEWED"], vars["INPUT_REVIEW-SECRET"], vars["GITHUB_EVENT_NAME"] = "required", "s3cret", "push"
	if err := Run(t.Context(), actionEnv(vars)); err == nil || !strings.Contains(err.Error(), "comment-mode off makes no GitHub call") {
		t.Errorf("a gate without GitHub: %v", err)
	}
	if n := fake.CountRequests(""); n != 0 {
		t.Errorf("%d GitHub calls by the refused gate", n)
	}
}

// quietRun runs the Action twice over the plans at paths (relative to
// the workspace, each a copy of the example plan) with the workflow's own
// token, as action.yml passes it, and returns the second run's calls:
// those of a run that finds everything as it should be.
func quietRun(t *testing.T, extra map[string]string, paths ...string) []string {
	t.Helper()
	fake, _, _ := newFake(t, "t-write")
	fake.AddPR(githubtest.PR{Number: 2, BaseSHA: "f95f852bd8fca8fcc58a9a2d6c842781e32a215e", HeadSHA: "ec26c3e57ca3a959ca5aad62de7213c562f8c821",
		HeadRef: "feature", HeadOwner: "octo", Files: []githubtest.File{{Name: "main.tf", Status: "modified"}}})
	ws := t.TempDir()
	plan, err := os.ReadFile("../../testdata/example/plan.json")
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	for _, p := range paths {
		files[p] = string(plan)
	}
	writeFiles(t, ws, files)
	vars := map[string]string{"GITHUB_API_URL": fake.URL, "GITHUB_GRAPHQL_URL": fake.URL + "/graphql", "GITHUB_REPOSITORY": "o/r",
		"GITHUB_EVENT_PATH": "../../testdata/payloads/pull_request-opened.json", "GITHUB_EVENT_NAME": "pull_request", "GITHUB_RUN_ID": "1",
		"GITHUB_WORKSPACE": ws, "INPUT_GITHUB-TOKEN": "t-write", "PLANPR_WORKFLOW_TOKEN": "true",
		"INPUT_PLAN": filepath.Join(ws, "envs/*/plan.json"), "INPUT_VERIFY": "off"}
	maps.Copy(vars, extra)
	if err := Run(t.Context(), actionEnv(vars)); err != nil {
		t.Fatal(err)
	}
	before := len(fake.Log())
	if err := Run(t.Context(), actionEnv(vars)); err != nil {
		t.Fatal(err)
	}
	calls := fake.Log()[before:]
	for _, c := range calls {
		if !strings.HasPrefix(c, "GET ") {
			t.Errorf("an unchanged run wrote: %s", c)
		}
	}
	return calls
}

// TestUnchangedUpdateRunIsQuietOnGitHub: a run of one root that finds its
// comment, labels and check as they should be writes nothing and makes 6
// calls: the pull request (its head, which the event may no longer be),
// its files (the lock files it changes), its comments (listed once for
// the upsert, the lock comment and the labels' sum), its labels and the
// commit's check runs. No GET /user: the workflow's token is
// github-actions[bot].
func TestUnchangedUpdateRunIsQuietOnGitHub(t *testing.T) {
	calls := quietRun(t, nil, "envs/prod/plan.json")
	if len(calls) > 6 {
		t.Errorf("an unchanged run made %d calls:\n%s", len(calls), strings.Join(calls, "\n"))
	}
	for _, c := range calls {
		if strings.HasPrefix(c, "GET /user") {
			t.Errorf("%s for the workflow's own token", c)
		}
	}
}

// TestUnchangedRunOfFiveRootsIsQuietOnGitHub: five roots in one comment
// cost at most 5 + 6 calls, whether the comment holds them together or
// each root has its own (comment-per: root).
func TestUnchangedRunOfFiveRootsIsQuietOnGitHub(t *testing.T) {
	var paths []string
	for _, root := range []string{"a", "b", "c", "d", "e"} {
		paths = append(paths, "envs/"+root+"/plan.json")
	}
	for _, per := range []string{"pull-request", "root"} {
		t.Run(per, func(t *testing.T) {
			calls := quietRun(t, map[string]string{"INPUT_COMMENT-PER": per}, paths...)
			if len(calls) > 11 {
				t.Errorf("an unchanged run of 5 roots made %d calls:\n%s", len(calls), strings.Join(calls, "\n"))
			}
			t.Logf("%d calls:\n%s", len(calls), strings.Join(calls, "\n"))
		})
	}
}
