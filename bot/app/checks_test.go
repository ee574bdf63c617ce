package app

import (
	"os"
	"strings"
	"testing"

	"github.com/planpr/planpr/bot/githubtest"
	"github.com/planpr/planpr/render/report"
)

// TestAppCheckAndApproval: the App keeps a check of the plan it comments,
// judged by the repository's .github/planpr.yml on its default branch
// (never the pull request's head); the approval label added by a writer
// passes it and removing the label fails it again, the same check updated
// in place; a label by a reader does not approve; a new push removes the
// label.
func TestAppCheckAndApproval(t *testing.T) {
	a := newTestApp(t, 1)
	a.start(t)
	const head = "3484a3fb816e0859fd6e1cea078d76385ff50625"
	a.fake.AddPR(githubtest.PR{Number: 2, BaseSHA: baseSHA, HeadSHA: head, HeadRef: "b", HeadOwner: "Codertocat"})
	a.fake.AddFile("main", RepoConfigPath, []byte("fail_on: [errored, destroy]\n"))
	a.fake.AddFile(head, RepoConfigPath, []byte("fail_on: none\n")) // the head's own settings count for nothing
	plan, err := os.ReadFile("../../testdata/example/plan.json")
	if err != nil {
		t.Fatal(err)
	}
	a.fake.AddArtifact(289782451, githubtest.Artifact{ID: 1, Name: "planpr-prod", Zip: githubtest.Zip(map[string]string{
		"planpr.json": `{"pr": 2, "key": "prod"}`, "plan.json": string(plan)})})
	withDefault := func(m map[string]any) { m["repository"].(map[string]any)["default_branch"] = "main" }
	body := payload(t, "workflow_run-completed.with-pull-requests.json", withDefault)
	a.deliver(t, "workflow_run", "w-1", body, githubtest.Sign(testSecret, body))
	check := func(want string) githubtest.CheckRun {
		t.Helper()
		var runs []githubtest.CheckRun
		waitFor(t, "check "+want, func() bool {
			runs = a.fake.CheckRuns(head)
			return len(runs) == 1 && runs[0].Conclusion == want
		})
		return runs[0]
	}
	c := check("failure")
	if c.Name != "planpr / prod" || !strings.Contains(c.Summary, "1 resource destroyed (destroy is in fail-on)") || !strings.Contains(c.Summary, "<!-- planpr:v1 key=prod") {
		t.Errorf("check %q:\n%s", c.Name, c.Summary[:min(len(c.Summary), 800)])
	}
	if c.Title != "⚠️ planpr · prod: 2 to add, 2 to change, 2 to destroy" {
		t.Errorf("check title %q, want the comment's heading", c.Title)
	}
	label := func(action, login string, n int) {
		if action == "labeled" {
			a.fake.Label(2, report.LabelDestroyApproved, login)
		} else {
			a.fake.Unlabel(2, report.LabelDestroyApproved, login)
		}
		body := payload(t, "pull_request-synchronize.json", func(m map[string]any) {
			setPR(2, head, "2026-11-01T12:00:00Z")(m)
			withDefault(m)
			m["action"] = action
			m["label"] = map[string]any{"name": report.LabelDestroyApproved}
		})
		a.deliver(t, "pull_request", "l-"+action+login, body, githubtest.Sign(testSecret, body))
	}
	a.fake.SetPermission("mallory", "read")
	a.fake.SetPermission("octocat", "maintain")
	label("labeled", "mallory", 1)
	c = check("failure")
	waitFor(t, "the reader named", func() bool {
		return strings.Contains(a.fake.CheckRuns(head)[0].Summary, "added by @mallory, who cannot write")
	})
	label("unlabeled", "mallory", 2)
	label("labeled", "octocat", 3)
	c = check("success")
	if !strings.Contains(c.Summary, "approved by @octocat") || !strings.Contains(c.Summary, "will be **destroyed**") {
		t.Errorf("approved check:\n%s", c.Summary[:min(len(c.Summary), 800)])
	}
	label("unlabeled", "octocat", 4)
	check("failure")
	// A new push: the label goes.
	a.fake.Label(2, report.LabelDestroyApproved, "octocat")
	push := payload(t, "pull_request-synchronize.json", func(m map[string]any) { setPR(2, head, "2026-11-01T13:00:00Z")(m); withDefault(m) })
	a.deliver(t, "pull_request", "push-1", push, githubtest.Sign(testSecret, push))
	waitFor(t, "the approval label removed", func() bool {
		for _, l := range a.fake.Labels(2) {
			if l == report.LabelDestroyApproved {
				return false
			}
		}
		return true
	})
	a.stop(t)
}

// TestAppApprovalBindsToTheApprovedCommit: the fork-safe pattern. A
// maintainer approves at commit A; the author pushes B, which destroys as
// well, and no synchronize drops the label (workflow_run never does, and a
// reopened delivery supersedes it): B's check fails, the approval being
// for A. A labeled event while B is the head approves B.
func TestAppApprovalBindsToTheApprovedCommit(t *testing.T) {
	a := newTestApp(t, 1)
	a.start(t)
	const headA, headB = "3484a3fb816e0859fd6e1cea078d76385ff50625", "b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0"
	a.fake.AddPR(githubtest.PR{Number: 2, BaseSHA: baseSHA, HeadSHA: headA, HeadRef: "b", HeadOwner: "Codertocat"})
	a.fake.AddFile("main", RepoConfigPath, []byte("fail_on: [destroy]\n"))
	plan, err := os.ReadFile("../../testdata/example/plan.json")
	if err != nil {
		t.Fatal(err)
	}
	artifact := githubtest.Artifact{Name: "planpr-prod", Zip: githubtest.Zip(map[string]string{"planpr.json": `{"pr": 2, "key": "prod"}`, "plan.json": string(plan)})}
	withDefault := func(m map[string]any) { m["repository"].(map[string]any)["default_branch"] = "main" }
	run := func(id int64, head string) {
		artifact.ID = id
		a.fake.AddArtifact(id, artifact)
		body := payload(t, "workflow_run-completed.with-pull-requests.json", func(m map[string]any) {
			withDefault(m)
			r := m["workflow_run"].(map[string]any)
			r["id"], r["head_sha"] = id, head
			for _, p := range r["pull_requests"].([]any) {
				p.(map[string]any)["head"].(map[string]any)["sha"] = head
			}
		})
		a.deliver(t, "workflow_run", "w-"+head, body, githubtest.Sign(testSecret, body))
	}
	check := func(sha, want string) githubtest.CheckRun {
		t.Helper()
		var runs []githubtest.CheckRun
		waitFor(t, "check "+want+" on "+sha[:7], func() bool {
			runs = a.fake.CheckRuns(sha)
			return len(runs) == 1 && runs[0].Conclusion == want
		})
		return runs[0]
	}
	run(1001, headA)
	check(headA, "failure")
	a.fake.SetPermission("octocat", "maintain")
	a.fake.Label(2, report.LabelDestroyApproved, "octocat")
	// labeledAt is the approval label's labeled event, sent while head was
	// the pull request's head.
	labeledAt := func(head, at string) []byte {
		return payload(t, "pull_request-synchronize.json", func(m map[string]any) {
			setPR(2, head, at)(m)
			withDefault(m)
			m["action"], m["label"] = "labeled", map[string]any{"name": report.LabelDestroyApproved}
		})
	}
	labeled := labeledAt(headA, "2026-11-01T12:00:00Z")
	a.deliver(t, "pull_request", "label-at-A", labeled, githubtest.Sign(testSecret, labeled))
	check(headA, "success")
	// The author pushes B; its plan arrives through workflow_run.
	a.fake.AddPR(githubtest.PR{Number: 2, BaseSHA: baseSHA, HeadSHA: headB, HeadRef: "b", HeadOwner: "Codertocat"})
	run(1002, headB)
	c := check(headB, "failure")
	if !strings.Contains(c.Summary, "added by @octocat at an earlier commit") {
		t.Errorf("B's check:\n%s", c.Summary[:min(len(c.Summary), 800)])
	}
	// A late labeled delivery of A's label (sent while A was the head)
	// judges A, never B.
	a.deliver(t, "pull_request", "label-at-A-again", labeled, githubtest.Sign(testSecret, labeled))
	waitFor(t, "the late delivery worked", func() bool { return a.drained(t) && strings.Contains(a.logs.String(), `"delivery":"label-at-A-again"`) })
	waitFor(t, "the late delivery done", func() bool { return a.drained(t) })
	check(headA, "success")
	check(headB, "failure")
	// Labelled again while B is the head: B is approved.
	relabeled := labeledAt(headB, "2026-11-01T13:00:00Z")
	a.deliver(t, "pull_request", "label-at-B", relabeled, githubtest.Sign(testSecret, relabeled))
	check(headB, "success")
	a.stop(t)
}
