package bot

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/planpr/planpr/bot/gh"
	"github.com/planpr/planpr/bot/githubtest"
	"github.com/planpr/planpr/bot/publish"
	"github.com/planpr/planpr/render/report"
)

// TestManifestCannotClaimTheLockKey: an artifact's manifest naming the
// lock comment's key replaced the lock review with a no-op plan. Reserved
// keys are refused, and the lock review stays.
func TestManifestCannotClaimTheLockKey(t *testing.T) {
	a := newTestApp(t, 1)
	a.start(t)
	a.addLockPR(2, "3484a3fb816e0859fd6e1cea078d76385ff50625")
	pr := payload(t, "pull_request-opened.json", setPR(2, "3484a3fb816e0859fd6e1cea078d76385ff50625", "2026-11-01T10:00:00Z"))
	a.deliver(t, "pull_request", "d-1", pr, githubtest.Sign(testSecret, pr))
	waitFor(t, "the lock review", func() bool { n, _ := countKey(a.fake, 2, LockKey); return n == 1 })
	_, review := countKey(a.fake, 2, LockKey)

	noop := `{"format_version":"1.2","resource_changes":[]}`
	for i, key := range []string{LockKey, LocksKey, "../x", "a key", strings.Repeat("k", 200)} {
		a.fake.AddArtifact(289782451, githubtest.Artifact{ID: int64(10 + i), Name: "planpr-" + string(rune('a'+i)), Zip: githubtest.Zip(map[string]string{
			"planpr.json": `{"pr": 2, "key": "` + key + `"}`, "plan.json": noop})})
	}
	run := payload(t, "workflow_run-completed.with-pull-requests.json", nil)
	a.deliver(t, "workflow_run", "w-1", run, githubtest.Sign(testSecret, run))
	a.stop(t)
	if n, c := countKey(a.fake, 2, LockKey); n != 1 || c.Body != review.Body {
		t.Errorf("the lock review was replaced: %d comments, %.200q", n, c.Body)
	}
	if len(a.fake.Comments(2)) != 1 {
		t.Errorf("%d comments: a manifest's key was used", len(a.fake.Comments(2)))
	}
	mustContain(t, a.logs.String(), "is planpr's own and cannot come from a manifest")
}

// TestOneClockOrdersEveryComment: plan comments were ordered by run id
// (~1.2e10) and the lock comment by updated_at seconds (~1.7e9), so a plan
// comment's order silenced every later lock review. Every marker now
// carries the Unix time of what triggered it, and the run id orders
// nothing.
func TestOneClockOrdersEveryComment(t *testing.T) {
	a := newTestApp(t, 1)
	a.start(t)
	a.addLockPR(2, "head1")
	// A comment of the old format, with a run id for its order.
	old := report.Marker{Key: LockKey, Run: 12000000000}
	a.fake.AddComment(2, a.fake.AppSlug()+"[bot]", old.String()+"\nold review")
	pr := payload(t, "pull_request-opened.json", setPR(2, "head1", "2026-11-01T10:00:00Z"))
	a.deliver(t, "pull_request", "d-1", pr, githubtest.Sign(testSecret, pr))
	waitFor(t, "the lock review", func() bool { _, c := countKey(a.fake, 2, LockKey); return strings.Contains(c.Body, "sha=head1") })
	_, c := countKey(a.fake, 2, LockKey)
	if m, _ := report.ParseMarker(c.Body); m.At != 1793527200 {
		t.Errorf("the lock review is ordered by %d, want the pull request's updated_at 1793527200", m.At)
	}
	a.fake.AddArtifact(289782451, githubtest.Artifact{ID: 1, Name: "planpr-prod", Zip: githubtest.Zip(map[string]string{"plan.json": runPlan})})
	run := payload(t, "workflow_run-completed.with-pull-requests.json", nil)
	a.deliver(t, "workflow_run", "w-1", run, githubtest.Sign(testSecret, run))
	waitFor(t, "the plan comment", func() bool { n, _ := countKey(a.fake, 2, "planpr-prod"); return n == 1 })
	a.stop(t)
	_, p := countKey(a.fake, 2, "planpr-prod")
	if m, _ := report.ParseMarker(p.Body); m.At != 1601915629 || m.Run != 289782451 {
		t.Errorf("the plan comment's marker %+v: want the run's run_started_at 1601915629 as its order", m)
	}
}

// TestOnlyPlanprsOwnCommentsCount: anyone can write a comment starting
// with a marker. One claiming the newest order froze planpr, and older
// ones were edited, deleted or hidden. Only comments by planpr's own login
// count now.
func TestOnlyPlanprsOwnCommentsCount(t *testing.T) {
	for _, mode := range []publish.CommentMode{publish.ModeUpdate, publish.ModeRecreate, publish.ModeHideAndNew} {
		t.Run(string(mode), func(t *testing.T) {
			fake, c, _ := newFake(t, "t-write")
			frozen := "<!-- planpr:v1 key=prod at=9223372036854775807 -->\nI am not planpr"
			older := "<!-- planpr:v1 key=prod at=1 -->\nnor am I"
			fake.AddComment(5, "mallory", frozen)
			fake.AddComment(5, "mallory", older)
			m := report.Marker{Key: "prod", At: 1700000000}
			res, err := publish.Upsert(t.Context(), c, repo, 5, gh.ActionsBot, m, bodyFor(m, "the plan"), mode)
			if err != nil {
				t.Fatal(err)
			}
			if res.Action == "skipped-older" {
				t.Fatal("a user's comment froze planpr")
			}
			comments := fake.Comments(5)
			if len(comments) != 3 || comments[0].Body != frozen || comments[1].Body != older || comments[0].Minimized || comments[1].Minimized {
				t.Fatalf("users' comments were touched: %+v", comments)
			}
			if comments[2].User != gh.ActionsBot || comments[2].Body != bodyFor(m, "the plan") {
				t.Errorf("planpr's comment: %+v", comments[2])
			}
		})
	}
}

// TestTheAppCountsOnlyItsBot: the App's comments are those of its own
// bot login (GET /app gives the slug); a user's lock-files marker is left
// alone.
func TestTheAppCountsOnlyItsBot(t *testing.T) {
	a := newTestApp(t, 1)
	a.start(t)
	a.addLockPR(2, "head1")
	fakeReview := "<!-- planpr:v1 key=locks at=9223372036854775807 -->\n## ✅ planpr: nothing to see"
	a.fake.AddComment(2, "mallory", fakeReview)
	pr := payload(t, "pull_request-opened.json", setPR(2, "head1", "2026-11-01T10:00:00Z"))
	a.deliver(t, "pull_request", "d-1", pr, githubtest.Sign(testSecret, pr))
	a.stop(t)
	comments := a.fake.Comments(2)
	if len(comments) != 2 || comments[0].Body != fakeReview || comments[1].User != "planpr-test[bot]" || !strings.Contains(comments[1].Body, "5.9.0 → 6.0.0") {
		t.Fatalf("comments: %+v", comments)
	}
}

// actionEnv is the Action's environment for a test, as a map.
func actionEnv(vars map[string]string) ActionEnv {
	return ActionEnv{Getenv: func(k string) string { return vars[k] }, Stdout: &strings.Builder{}, Version: "test"}
}

// writeFiles writes files under dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
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
			ev, err := os.ReadFile("../testdata/payloads/workflow_run-completed.json")
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
			err = RunAction(t.Context(), env)
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
	env := actionEnv(map[string]string{"GITHUB_REPOSITORY": "o/r", "INPUT_GITHUB-TOKEN": "t", "INPUT_PLAN": filepath.Join(dir, "plan/plan.json")})
	if _, err := prepare(env); err == nil || !strings.Contains(err.Error(), `key "lock-files" is planpr's own`) {
		t.Errorf("err %v", err)
	}
}

// TestJobSummaryWithinItsLimit: the job summary was cut at 1,048,576
// bytes and then given a newline, one byte over GitHub's limit, so GitHub
// dropped it whole.
func TestJobSummaryWithinItsLimit(t *testing.T) {
	summary := filepath.Join(t.TempDir(), "summary.md")
	for _, size := range []int{MaxJobSummary - 2, MaxJobSummary - 1, MaxJobSummary, MaxJobSummary + 5000} {
		os.Remove(summary)
		text := strings.Repeat("ü line of the report\n", size/22+1)[:size]
		if err := writeJobSummary(summary, text); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(summary)
		if err != nil {
			t.Fatal(err)
		}
		if len(b) > MaxJobSummary || !strings.HasSuffix(string(b), "\n") || !utf8.Valid(b) {
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
