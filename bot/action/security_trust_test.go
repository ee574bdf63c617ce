package action

import (
	"github.com/planpr/planpr/bot"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/planpr/planpr/bot/gh"
	"github.com/planpr/planpr/bot/githubtest"
	"github.com/planpr/planpr/render/report"
)

// actionEnv is the Action's environment for a test, as a map.
func actionEnv(vars map[string]string) Env {
	return Env{Getenv: func(k string) string { return vars[k] }, Stdout: &strings.Builder{}, Version: "test"}
}

// TestActionVerifiesTheManifestsPR: in the workflow_run pattern a fork's
// run wrote planpr.json naming PR #8, and the Action rewrote #8's comment
// ("5 to destroy" → "no changes") and removed its planpr:destroy label.
// The manifest's pull request must now have the run's head commit, in the
// run's head repository.
func TestActionVerifiesTheManifestsPR(t *testing.T) {
	const runHead = "3484a3fb816e0859fd6e1cea078d76385ff50625"
	for name, pr8 := range map[string]githubtest.PR{
		"another head":      {Number: 8, BaseSHA: "b", HeadSHA: "8888888888888888888888888888888888888888", HeadRef: "x", HeadOwner: "octo-org"},
		"same head, a fork": {Number: 8, BaseSHA: "b", HeadSHA: runHead, HeadRef: "x", HeadOwner: "mallory", HeadRepo: "mallory/octo-repo"},
		"no such pr":        {Number: 9},
	} {
		t.Run(name, func(t *testing.T) {
			fake := githubtest.New()
			t.Cleanup(fake.Close)
			if pr8.HeadSHA != "" {
				fake.AddPR(pr8)
			}
			real := report.Marker{Key: "prod", At: 1}
			fake.AddComment(8, gh.ActionsBot, real.String()+"\n5 to destroy")
			dir := t.TempDir()
			ev, err := os.ReadFile("../../testdata/payloads/workflow_run-completed.json")
			if err != nil {
				t.Fatal(err)
			}
			writeFiles(t, dir, map[string]string{
				"event.json":       string(ev),
				"plan/plan.json":   `{"format_version":"1.2","resource_changes":[]}`,
				"plan/planpr.json": `{"pr": 8, "key": "prod", "sha": "` + runHead + `"}`,
			})
			env := actionEnv(map[string]string{
				"GITHUB_REPOSITORY": "octo-org/octo-repo", "GITHUB_EVENT_PATH": filepath.Join(dir, "event.json"),
				"GITHUB_API_URL": fake.URL, "GITHUB_GRAPHQL_URL": fake.URL + "/graphql", "GITHUB_RUN_ID": "300",
				"INPUT_GITHUB-TOKEN": "t-write", "INPUT_PLAN": filepath.Join(dir, "plan/plan.json"), "INPUT_LOCK-FILES": "off",
			})
			fake.Inject() // nothing: the labels below must stay
			err = Run(t.Context(), env)
			if err == nil {
				t.Fatal("the Action accepted a manifest for another pull request")
			}
			if c := fake.Comments(8); len(c) != 1 || !strings.Contains(c[0].Body, "5 to destroy") {
				t.Errorf("PR #8's comment was rewritten: %+v", c)
			}
			for _, l := range fake.Log() {
				if !strings.HasPrefix(l, "GET ") {
					t.Errorf("wrote to GitHub: %s", l)
				}
			}
		})
	}
}

// TestActionManifestCannotClaimAReservedKey: the Action validates the
// manifest beside the plans the same way.
func TestActionManifestCannotClaimAReservedKey(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"plan/plan.json":   `{"format_version":"1.2","resource_changes":[]}`,
		"plan/planpr.json": `{"key": "lock-files"}`,
	})
	env := actionEnv(map[string]string{"GITHUB_REPOSITORY": "o/r", "INPUT_GITHUB-TOKEN": "t", "INPUT_PLAN": filepath.Join(dir, "plan/plan.json"),
		"GITHUB_EVENT_PATH": "../../testdata/payloads/pull_request-opened.json"})
	if _, err := prepare(env); err == nil || !strings.Contains(err.Error(), `key "lock-files" is planpr's own`) {
		t.Errorf("err %v", err)
	}
}

// TestJobSummaryWithinItsLimit: the job summary was cut at 1,048,576
// bytes and then given a newline, one byte over GitHub's limit, so GitHub
// dropped it whole.
func TestJobSummaryWithinItsLimit(t *testing.T) {
	summary := filepath.Join(t.TempDir(), "summary.md")
	for _, size := range []int{bot.MaxJobSummary - 2, bot.MaxJobSummary - 1, bot.MaxJobSummary, bot.MaxJobSummary + 5000} {
		os.Remove(summary)
		text := strings.Repeat("ü line of the report\n", size/22+1)[:size]
		if err := writeJobSummary(summary, text); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(summary)
		if err != nil {
			t.Fatal(err)
		}
		if len(b) > bot.MaxJobSummary || !strings.HasSuffix(string(b), "\n") || !utf8.Valid(b) {
			t.Errorf("a report of %d bytes made a summary of %d bytes", size, len(b))
		}
	}
}

// TestGlobsMatchAnyDepth: the hand-written ** failed on envs/*/**/plan.json
// ("lstat envs/*") and dir/** matched nothing.
func TestGlobsMatchAnyDepth(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"envs/prod/plan.json": "{}", "envs/prod/eu/plan.json": "{}", "envs/staging/a/b/plan.json": "{}", "other/x.json": "{}"})
	for pat, want := range map[string]int{"envs/*/**/plan.json": 3, "envs/**": 3, "**/plan.json": 3, "envs/prod/plan.json": 1, "*/*.json": 1} {
		got, err := glob(filepath.Join(dir, pat))
		if err != nil || len(got) != want {
			t.Errorf("%s: %d matches (%v), want %d", pat, len(got), err, want)
		}
	}
}
