package app

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/planpr/planpr/bot/githubtest"
	"github.com/planpr/planpr/render/report"
)

// packed is an artifact in the Action's pack layout, one root a directory.
func packed(roots map[string]string) []byte {
	files := map[string]string{}
	for root, plan := range roots {
		dir := strings.ReplaceAll(root, "/", "__")
		files[dir+"/plan.json"] = plan
		files[dir+"/planpr.json"] = `{"root": "` + root + `"}`
	}
	return githubtest.Zip(files)
}

const (
	destroyPlan   = `{"format_version":"1.2","terraform_version":"1.9.0","resource_changes":[{"address":"aws_s3_bucket.logs","mode":"managed","type":"aws_s3_bucket","name":"logs","provider_name":"registry.opentofu.org/hashicorp/aws","change":{"actions":["delete"],"before":{"bucket":"logs"},"after":null,"after_unknown":{},"before_sensitive":{},"after_sensitive":false},"action_reason":"delete_because_no_resource_config"}]}`
	createPlan    = `{"format_version":"1.2","terraform_version":"1.9.0","resource_changes":[{"address":"terraform_data.a","mode":"managed","type":"terraform_data","name":"a","provider_name":"terraform.io/builtin/terraform","change":{"actions":["create"],"before":null,"after":{"input":"x"},"after_unknown":{"id":true,"output":true}}}]}`
	unchangedPlan = `{"format_version":"1.2","terraform_version":"1.9.0","resource_changes":[]}`
)

// TestAppOneCommentForManyRoots: the App keeps one comment for a pull
// request whose roots come packed: every root of every completed run of
// the head commit, a root from a second workflow's run joining it, and at
// a new head the roots no run planned shown as not planned at this commit.
func TestAppOneCommentForManyRoots(t *testing.T) {
	a := newTestApp(t, 1)
	a.start(t)
	const head = "3484a3fb816e0859fd6e1cea078d76385ff50625"
	a.fake.AddPR(githubtest.PR{Number: 2, BaseSHA: baseSHA, HeadSHA: head, HeadRef: "b", HeadOwner: "Codertocat"})
	started := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	a.fake.AddRun(githubtest.Run{ID: 777, Name: "plan-dev", HeadSHA: head, Status: "completed", Conclusion: "success", StartedAt: started})
	a.fake.AddArtifact(777, githubtest.Artifact{ID: 7, Name: "planpr-dev", Zip: packed(map[string]string{"envs/dev": createPlan})})
	a.fake.AddRun(githubtest.Run{ID: 289782451, Name: "plan", HeadSHA: head, Status: "completed", Conclusion: "success", StartedAt: started.Add(time.Minute)})
	a.fake.AddArtifact(289782451, githubtest.Artifact{ID: 1, Name: "planpr-0", Zip: packed(map[string]string{"envs/prod": destroyPlan})})
	a.fake.AddArtifact(289782451, githubtest.Artifact{ID: 2, Name: "planpr-1", Zip: packed(map[string]string{"envs/staging": unchangedPlan})})

	body := payload(t, "workflow_run-completed.with-pull-requests.json", nil)
	a.deliver(t, "workflow_run", "w-1", body, githubtest.Sign(testSecret, body))
	comment := func(want string) string {
		t.Helper()
		var got string
		waitFor(t, want, func() bool {
			cs := a.fake.Comments(2)
			if len(cs) != 1 {
				return false
			}
			got = cs[0].Body
			return strings.Contains(got, want)
		})
		return got
	}
	c := comment("| `envs/dev` | ✅ |")
	m, _ := report.ParseMarker(c)
	if m.Key != report.PullRequestKey || !strings.Contains(c, "| `envs/prod` | ⚠️ | 0 | 0 | 1 |") || !strings.Contains(c, "**No changes:** `envs/staging`") ||
		!strings.Contains(c, "`aws_s3_bucket.logs` will be **destroyed** in envs/prod") {
		t.Errorf("the pull request's comment:\n%s", c)
	}
	// A second workflow's run brings a fifth root: it joins the comment.
	a.fake.AddRun(githubtest.Run{ID: 888, Name: "plan-qa", HeadSHA: head, Status: "completed", Conclusion: "success", StartedAt: started.Add(2 * time.Minute)})
	a.fake.AddArtifact(888, githubtest.Artifact{ID: 8, Name: "planpr-qa", Zip: packed(map[string]string{"envs/qa": createPlan})})
	body = payload(t, "workflow_run-completed.with-pull-requests.json", func(m map[string]any) {
		m["workflow_run"].(map[string]any)["id"] = 888
	})
	a.deliver(t, "workflow_run", "w-2", body, githubtest.Sign(testSecret, body))
	c = comment("| `envs/qa` | ✅ |")
	for _, root := range []string{"envs/dev", "envs/prod", "envs/staging"} {
		if !strings.Contains(c, "`"+root+"`") {
			t.Errorf("%s left the comment:\n%s", root, c)
		}
	}
	// A new head planned only envs/prod: the others are not planned at it.
	const head2 = "1111111111111111111111111111111111111111"
	a.fake.AddPR(githubtest.PR{Number: 2, BaseSHA: baseSHA, HeadSHA: head2, HeadRef: "b", HeadOwner: "Codertocat"})
	a.fake.AddRun(githubtest.Run{ID: 999, Name: "plan", HeadSHA: head2, Status: "completed", Conclusion: "success", StartedAt: started.Add(time.Hour)})
	a.fake.AddArtifact(999, githubtest.Artifact{ID: 9, Name: "planpr-0", Zip: packed(map[string]string{"envs/prod": destroyPlan})})
	body = payload(t, "workflow_run-completed.with-pull-requests.json", func(m map[string]any) {
		run := m["workflow_run"].(map[string]any)
		run["id"], run["head_sha"], run["run_started_at"] = 999, head2, "2026-11-01T13:00:00Z"
		for _, p := range run["pull_requests"].([]any) {
			p.(map[string]any)["head"].(map[string]any)["sha"] = head2
		}
	})
	a.deliver(t, "workflow_run", "w-3", body, githubtest.Sign(testSecret, body))
	c = comment("`envs/qa` — not planned at this commit (last planned at 3484a3f)")
	if strings.Count(c, "not planned at this commit") < 3 {
		t.Errorf("roots gone at the new head:\n%s", c)
	}
	a.stop(t)
}

// TestAppAppliedComment: an apply's stream uploaded by a run on the base
// branch (push) after the merge becomes the merged pull request's applied
// comment, the failed resource and its error in it.
func TestAppAppliedComment(t *testing.T) {
	a := newTestApp(t, 1)
	a.start(t)
	const merge = "3484a3fb816e0859fd6e1cea078d76385ff50625"
	a.fake.AddPR(githubtest.PR{Number: 2, BaseSHA: baseSHA, HeadSHA: "ec26c3e57ca3a959ca5aad62de7213c562f8c821", HeadRef: "b", HeadOwner: "Codertocat", MergeCommitSHA: merge})
	apply, err := os.ReadFile("../../render/comment/testdata/streams/apply.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	a.fake.AddArtifact(289782451, githubtest.Artifact{ID: 1, Name: "planpr-prod", Zip: githubtest.Zip(map[string]string{
		"planpr.json": `{"key": "prod"}`, "apply.jsonl": string(apply)})})
	body := payload(t, "workflow_run-completed.with-pull-requests.json", func(m map[string]any) {
		run := m["workflow_run"].(map[string]any)
		run["event"], run["pull_requests"], run["head_branch"] = "push", []any{}, "main"
	})
	a.deliver(t, "workflow_run", "w-1", body, githubtest.Sign(testSecret, body))
	waitFor(t, "the applied comment", func() bool {
		for _, c := range a.fake.Comments(2) {
			if m, ok := report.ParseMarker(c.Body); ok && m.Key == "prod/applied" &&
				strings.Contains(c.Body, "planpr · prod · applied: Apply failed: 1 of 2 resources") && strings.Contains(c.Body, "Instance cannot be destroyed") {
				return true
			}
		}
		return false
	})
	a.stop(t)
}

// TestAppArtifactFanOutIsBoundedAndABadArtifactIsSkipped: a commit whose
// many completed runs each carry planpr artifacts (with files planpr does
// not read, and one broken zip) gets its comment: the broken one
// is named in the log and skipped, only the newest artifact of each name
// and at most artifact.JobRuns other runs are downloaded.
func TestAppArtifactFanOutIsBoundedAndABadArtifactIsSkipped(t *testing.T) {
	a := newTestApp(t, 1)
	a.start(t)
	const head = "3484a3fb816e0859fd6e1cea078d76385ff50625"
	a.fake.AddPR(githubtest.PR{Number: 2, BaseSHA: baseSHA, HeadSHA: head, HeadRef: "b", HeadOwner: "Codertocat"})
	started := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	broken := []byte("PK\x03\x04 and then nothing a zip holds")
	junk := strings.Repeat("j", 256<<10)
	for i := range 30 { // older runs: one broken, the rest a root each with junk beside it
		id := int64(100 + i)
		a.fake.AddRun(githubtest.Run{ID: id, Name: "plan-old", HeadSHA: head, Status: "completed", Conclusion: "success", StartedAt: started.Add(time.Duration(i) * time.Second)})
		zip := githubtest.Zip(map[string]string{"r/plan.json": createPlan, "r/planpr.json": `{"root": "envs/old"}`, "r/junk.bin": junk})
		if i == 29 {
			zip = broken
		}
		a.fake.AddArtifact(id, githubtest.Artifact{ID: id, Name: "planpr-old", Zip: zip})
	}
	a.fake.AddRun(githubtest.Run{ID: 289782451, Name: "plan", HeadSHA: head, Status: "completed", Conclusion: "success", StartedAt: started.Add(time.Hour)})
	a.fake.AddArtifact(289782451, githubtest.Artifact{ID: 1, Name: "planpr-0", Zip: packed(map[string]string{"envs/prod": destroyPlan})})

	body := payload(t, "workflow_run-completed.with-pull-requests.json", nil)
	a.deliver(t, "workflow_run", "w-1", body, githubtest.Sign(testSecret, body))
	waitFor(t, "the comment of envs/prod", func() bool {
		cs := a.fake.Comments(2)
		return len(cs) == 1 && strings.Contains(cs[0].Body, "`aws_s3_bucket.logs` will be **destroyed**")
	})
	downloads := 0
	for _, l := range a.fake.Log() {
		if strings.HasPrefix(l, "GET /download/") {
			downloads++
		}
	}
	// This run's artifact, and the newest planpr-old only (the broken one).
	if downloads != 2 {
		t.Errorf("%d artifacts downloaded, want 2 (the run's own and the newest of planpr-old)", downloads)
	}
	a.stop(t)
	if !strings.Contains(a.logs.String(), "artifact skipped") {
		t.Errorf("the broken artifact is not named in the log:\n%s", a.logs.String())
	}
}
