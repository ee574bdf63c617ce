package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/planpr/planpr/bot/githubtest"
	"github.com/planpr/planpr/render/report"
)

// The recipes of the README and docs/action.md are the files in
// testdata/workflows (TestDocsShowTheRecipes holds the docs to them);
// these tests run them end to end against the fake GitHub, each as the
// story a team lives through.

const (
	recipeBase = "f95f852bd8fca8fcc58a9a2d6c842781e32a215e"
	recipeHead = "ec26c3e57ca3a959ca5aad62de7213c562f8c821"
)

// recipeRepo is the repository the recipes check out: the example's
// configuration at the top, or in each of roots.
func recipeRepo(t *testing.T, roots ...string) map[string]string {
	versions, err := os.ReadFile("../../testdata/example/versions.tf")
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	if len(roots) == 0 {
		roots = []string{"."}
	}
	for _, r := range roots {
		files[r+"/versions.tf"] = string(versions)
	}
	return files
}

// payloadOf reads a payload from testdata/payloads and lets edit change it.
func payloadOf(t *testing.T, name string, edit func(m map[string]any)) map[string]any {
	t.Helper()
	raw, err := os.ReadFile("../../testdata/payloads/" + name)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	if edit != nil {
		edit(m)
	}
	return m
}

// pullRequestEvent is pull request #2's event: action (opened, labeled…)
// with label, when given, as the label the event is about.
func pullRequestEvent(t *testing.T, action, label string) map[string]any {
	return payloadOf(t, "pull_request-opened.json", func(m map[string]any) {
		m["action"] = action
		if label != "" {
			m["label"] = map[string]any{"name": label}
		}
	})
}

func recipeFake(t *testing.T) *githubtest.Server {
	fake := githubtest.New()
	t.Cleanup(fake.Close)
	fake.AddPR(githubtest.PR{Number: 2, BaseSHA: recipeBase, HeadSHA: recipeHead, HeadRef: "feature", HeadOwner: "Codertocat",
		Files: []githubtest.File{{Name: "main.tf", Status: "modified"}}})
	return fake
}

// onlyComment is the pull request's one comment of key.
func onlyComment(t *testing.T, fake *githubtest.Server, pr int, key string, r *workflowRun) string {
	t.Helper()
	var found []string
	for _, c := range fake.Comments(pr) {
		if m, ok := report.ParseMarker(c.Body); ok && m.Key == key {
			found = append(found, c.Body)
		}
	}
	if len(found) != 1 {
		t.Fatalf("%d comments of key %q on #%d, want one; the run's log:\n%s", len(found), key, pr, r.log.String())
	}
	return found[0]
}

// checkOf is the check run of that name on the commit.
func checkOf(t *testing.T, fake *githubtest.Server, sha, name string, r *workflowRun) githubtest.CheckRun {
	t.Helper()
	for _, c := range fake.CheckRuns(sha) {
		if c.Name == name {
			return c
		}
	}
	t.Fatalf("no check run %q on %s; the run's log:\n%s", name, sha, r.log.String())
	return githubtest.CheckRun{}
}

// TestRecipeOneRootModule runs the README's workflow for one root module:
// the plan's comment and check; a label that is not the approval runs
// nothing again and writes nothing.
func TestRecipeOneRootModule(t *testing.T) {
	fake := recipeFake(t)
	w := newRecipeWorld(t, fake, recipeRepo(t))
	r := w.runWorkflow("plan.yml", "pull_request", pullRequestEvent(t, "opened", ""), 100, false, nil)
	body := onlyComment(t, fake, 2, ".", r) // a root at the top is keyed "."
	for _, want := range []string{"## ⚠️ planpr: 2 to add, 2 to change, 2 to destroy", "aws_db_instance.main"} {
		if !strings.Contains(body, want) {
			t.Errorf("the comment lacks %q:\n%s", want, body)
		}
	}
	if strings.Contains(body, "values as the plan records them") {
		t.Errorf("the comment was rendered without the schemas the recipe writes:\n%s", body)
	}
	if c := checkOf(t, fake, recipeHead, "planpr", r); c.Conclusion != "success" {
		t.Errorf("check %q: %s, want success (fail-on errored,lock-alert)", c.Name, c.Conclusion)
	}
	// A push whose plan fails: the comment shows the stream's diagnostic,
	// and the check fails.
	r = w.runWorkflow("plan.yml", "pull_request", pullRequestEvent(t, "synchronize", ""), 101, false, map[string]string{"TOFU_FAIL": "all"})
	body = onlyComment(t, fake, 2, ".", r)
	for _, want := range []string{"## ❌ planpr", "Error: Unsupported argument", "main.tf#L3"} {
		if !strings.Contains(body, want) {
			t.Errorf("the failed plan's comment lacks %q:\n%s\nthe run:\n%s", want, body, r.log.String())
		}
	}
	if c := checkOf(t, fake, recipeHead, "planpr", r); c.Conclusion != "failure" {
		t.Errorf("check %q after the failed plan: %s, want failure", c.Name, c.Conclusion)
	}

	calls := len(w.tofuCalls())
	writes := len(fake.Log())
	r = w.runWorkflow("plan.yml", "pull_request", pullRequestEvent(t, "labeled", "needs-review"), 102, false, nil)
	if n := len(w.tofuCalls()); n != calls {
		t.Errorf("a label event ran tofu again: %v\n%s", w.tofuCalls()[calls:], r.log.String())
	}
	for _, call := range fake.Log()[writes:] {
		if !strings.HasPrefix(call, "GET ") {
			t.Errorf("a label event that approves nothing wrote: %s", call)
		}
	}
}

// TestRecipeMergeGateAndApply runs docs/action.md's gated review and its
// apply: the check fails on the destroy; the approval label, added by
// someone who may write, turns it green without planning again; in the
// merge queue the group's commit gets its check; after the merge the
// apply job's plan is the one reviewed, and its apply becomes the merged
// pull request's applied comment.
func TestRecipeMergeGateAndApply(t *testing.T) {
	fake := recipeFake(t)
	w := newRecipeWorld(t, fake, recipeRepo(t))
	w.secrets["PLANPR_REVIEW_SECRET"] = "an-example-secret"
	r := w.runWorkflow("gate.yml", "pull_request", pullRequestEvent(t, "opened", ""), 200, false, nil)
	review := onlyComment(t, fake, 2, "prod", r)
	if !strings.Contains(review, " rv=") {
		t.Errorf("the review carries no record for the apply gate:\n%s", review)
	}
	if c := checkOf(t, fake, recipeHead, "planpr / prod", r); c.Conclusion != "failure" {
		t.Errorf("check %q: %s, want failure (fail-on destroy)", c.Name, c.Conclusion)
	}

	calls := len(w.tofuCalls())
	fake.SetPermission("octocat", "write")
	fake.Label(2, report.LabelDestroyApproved, "octocat")
	r = w.runWorkflow("gate.yml", "pull_request", pullRequestEvent(t, "labeled", report.LabelDestroyApproved), 201, false, nil)
	if c := checkOf(t, fake, recipeHead, "planpr / prod", r); c.Conclusion != "success" {
		t.Errorf("check %q after the approval: %s, want success\n%s", c.Name, c.Conclusion, r.log.String())
	}
	if n := len(w.tofuCalls()); n != calls {
		t.Errorf("the approval ran tofu again: %v", w.tofuCalls()[calls:])
	}
	if got := onlyComment(t, fake, 2, "prod", r); got != review {
		t.Errorf("the approval changed the review's comment")
	}

	// The merge queue: the group's commit gets the check it waits for;
	// the same plan passes (approved, as the pull request was), a plan
	// the moved base changed fails, naming the difference.
	group := payloadOf(t, "merge_group-checks_requested.json", nil)
	groupHead := "9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a0b"
	r = w.runWorkflow("gate.yml", "merge_group", group, 250, false, map[string]string{"GITHUB_SHA": groupHead})
	if c := checkOf(t, fake, groupHead, "planpr / prod", r); c.Conclusion != "success" {
		t.Errorf("the queue's check: %s\n%s\n%s", c.Conclusion, c.Summary, r.log.String())
	}
	moved, _ := filepath.Abs("../../testdata/terraform/drift")
	r = w.runWorkflow("gate.yml", "merge_group", group, 251, false, map[string]string{"GITHUB_SHA": groupHead,
		"TOFU_SHOW": filepath.Join(moved, "plan.json"), "TOFU_SCHEMAS": filepath.Join(moved, "schemas.json")})
	if c := checkOf(t, fake, groupHead, "planpr / prod", r); c.Conclusion != "failure" || !strings.Contains(c.Summary, "is not the one reviewed on #2") {
		t.Errorf("the queue.s check of another plan: %s\n%s\n%s", c.Conclusion, c.Summary, r.log.String())
	}
	if got := onlyComment(t, fake, 2, "prod", r); got != review {
		t.Errorf("the queue changed the review's comment")
	}

	merge := "abcdef1234567890abcdef1234567890abcdef12"
	fake.Merge(2, merge)
	push := payloadOf(t, "pull_request-opened.json", func(m map[string]any) {
		for k := range m {
			if k != "repository" && k != "sender" {
				delete(m, k)
			}
		}
		m["ref"], m["after"], m["before"] = "refs/heads/main", merge, recipeBase
	})
	r = w.runWorkflow("apply.yml", "push", push, 300, false, nil)
	if !strings.Contains(r.log.String(), "the plan is the one reviewed on #2") {
		t.Errorf("the apply gate did not pass the reviewed plan:\n%s", r.log.String())
	}
	if !slices.ContainsFunc(w.tofuCalls(), func(c string) bool { return strings.Contains(c, "tofu apply") }) {
		t.Errorf("the apply never ran:\n%s", r.log.String())
	}
	applied := onlyComment(t, fake, 2, "prod/applied", r)
	for _, want := range []string{"## ⚠️ planpr · prod · applied: 1 added, 1 changed, 1 destroyed", "| ✅ | `aws_s3_bucket.assets` | create | complete"} {
		if !strings.Contains(applied, want) {
			t.Errorf("the applied comment lacks %q:\n%s", want, applied)
		}
	}
}

// TestRecipeMonorepo runs the README's monorepo workflow: four matrix
// jobs pack their roots (one root's plan fails), the final job posts one
// comment for the pull request, the failed root a ❌ row with its
// diagnostic, each root rendered with the schemas its job packed.
func TestRecipeMonorepo(t *testing.T) {
	roots := []string{"envs/prod", "envs/staging", "regions/prod/eu", "regions/staging/eu"}
	fake := recipeFake(t)
	w := newRecipeWorld(t, fake, recipeRepo(t, roots...))
	r := w.runWorkflow("monorepo.yml", "pull_request", pullRequestEvent(t, "opened", ""), 400, false, map[string]string{"TOFU_FAIL": "staging"})
	comments := fake.Comments(2)
	if len(comments) != 1 {
		t.Fatalf("%d comments, want one for the pull request:\n%s", len(comments), r.log.String())
	}
	body := comments[0].Body
	for _, root := range roots {
		row := "| `" + root + "` |"
		if root == "envs/staging" {
			row = "| `" + root + "` | ❌ |"
		}
		if !strings.Contains(body, row) {
			t.Errorf("no row %q in\n%s\nthe run:\n%s", row, body, r.log.String())
		}
	}
	for _, want := range []string{"Error: Unsupported argument", "envs/staging/main.tf#L3"} {
		if !strings.Contains(body, want) {
			t.Errorf("the failed root's diagnostic (%q) is not in the comment:\n%s", want, body)
		}
	}
	if strings.Contains(body, "values as the plan records them") {
		t.Errorf("the final job ignored the packed schemas:\n%s", body)
	}
	if c := checkOf(t, fake, recipeHead, "planpr", r); c.Conclusion != "failure" {
		t.Errorf("check %q: %s, want failure (a root errored)", c.Name, c.Conclusion)
	}
}

// TestRecipeForkPullRequests runs the README's fork-safe pair: the plan
// workflow (a read-only token, as a fork's run gets) plans and uploads;
// the comment workflow, started by workflow_run for the plan workflow by
// its name, downloads that run's artifact and comments, with its check.
func TestRecipeForkPullRequests(t *testing.T) {
	fake := githubtest.New()
	t.Cleanup(fake.Close)
	fake.AddPR(githubtest.PR{Number: 2, BaseSHA: recipeBase, HeadSHA: recipeHead, HeadRef: "feature", HeadOwner: "forker", HeadRepo: "forker/octo-repo"})
	w := newRecipeWorld(t, fake, recipeRepo(t))
	plan := readWorkflow(t, "fork-plan.yml")
	if len(plan.Permissions) != 1 || plan.Permissions["contents"] != "read" {
		t.Errorf("the fork's workflow asks for %v: it runs untrusted code, contents: read is all it may have", plan.Permissions)
	}
	event := pullRequestEvent(t, "opened", "")
	event["repository"].(map[string]any)["full_name"] = "octo-org/octo-repo"
	r := w.runWorkflow("fork-plan.yml", "pull_request", event, 500, true, nil)
	if len(fake.Comments(2)) != 0 || len(w.artifacts[500]) != 1 {
		t.Fatalf("the fork's run commented, or uploaded %d artifacts:\n%s", len(w.artifacts[500]), r.log.String())
	}

	comment := readWorkflow(t, "fork-comment.yml")
	if !slices.Contains(comment.waitsFor(t), plan.Name) {
		t.Fatalf("comment.yml waits for %v; the plan workflow is named %q: GitHub would never start it", comment.waitsFor(t), plan.Name)
	}
	run := payloadOf(t, "workflow_run-completed.json", func(m map[string]any) {
		wr := m["workflow_run"].(map[string]any)
		wr["id"], wr["name"], wr["head_sha"], wr["head_branch"] = 500, plan.Name, recipeHead, "feature"
		wr["head_repository"].(map[string]any)["full_name"] = "forker/octo-repo"
	})
	r = w.runWorkflow("fork-comment.yml", "workflow_run", run, 501, false, nil)
	body := onlyComment(t, fake, 2, "prod", r)
	if !strings.Contains(body, "2 to add, 2 to change, 2 to destroy") {
		t.Errorf("the comment:\n%s", body)
	}
	checkOf(t, fake, recipeHead, "planpr / prod", r)
}

// TestRecipeDrift runs the README's nightly drift workflow: a scheduled
// run whose plan finds a root changed outside the code opens its drift
// issue; the next night's plan that finds nothing closes it.
func TestRecipeDrift(t *testing.T) {
	fake := githubtest.New()
	t.Cleanup(fake.Close)
	w := newRecipeWorld(t, fake, recipeRepo(t))
	schedule := payloadOf(t, "pull_request-opened.json", func(m map[string]any) {
		for k := range m {
			if k != "repository" && k != "sender" {
				delete(m, k)
			}
		}
		m["schedule"] = "0 6 * * *"
	})
	r := w.runWorkflow("drift.yml", "schedule", schedule, 600, false, map[string]string{"GITHUB_SHA": recipeHead})
	issues := fake.Issues()
	if len(issues) != 1 || issues[0].State != "open" || !strings.HasPrefix(issues[0].Title, "planpr drift: ") || !strings.Contains(issues[0].Body, "aws_db_instance.main") {
		t.Fatalf("issues %+v\nthe run:\n%s", issues, r.log.String())
	}
	if !slices.ContainsFunc(w.tofuCalls(), func(c string) bool { return strings.Contains(c, "plan -input=false -refresh-only") }) {
		t.Errorf("the recipe's plan is not refresh-only: %v", w.tofuCalls())
	}
	nothing, _ := filepath.Abs("../../testdata/terraform/nochanges-refresh-only/plan.json")
	r = w.runWorkflow("drift.yml", "schedule", schedule, 601, false, map[string]string{"GITHUB_SHA": recipeHead, "TOFU_SHOW": nothing})
	if issues = fake.Issues(); len(issues) != 1 || issues[0].State != "closed" {
		t.Errorf("after a night without drift: %+v\nthe run:\n%s", issues, r.log.String())
	}
}
