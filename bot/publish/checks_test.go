package publish

import (
	"context"
	"fmt"
	"github.com/planpr/planpr/render/inputs"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/planpr/planpr/bot/gh"
	"github.com/planpr/planpr/bot/githubtest"
	"github.com/planpr/planpr/render/report"
	"github.com/planpr/planpr/render/review"
	"github.com/planpr/planpr/render/tofujson"
)

// TestCheckSummaryAtScale: the check of a 10,000-change plan holds its
// verdict and the comment within GitHub's 65,535 characters (the fake
// answers 422 past them, as GitHub does), and its annotations, 50 a
// request (the fake refuses more, as GitHub does), 500 at most.
func TestCheckSummaryAtScale(t *testing.T) {
	dir := t.TempDir()
	if out, err := exec.Command("go", "run", "../../testdata/genplan", "-n", "10000", "-o", dir).CombinedOutput(); err != nil {
		t.Fatalf("genplan: %v\n%s", err, out)
	}
	schemas, err := tofujson.ReadSchemasFile(filepath.Join(dir, "schemas.json"))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := report.Build(context.Background(), report.Request{Plans: []inputs.Root{{Path: filepath.Join(dir, "plan.json")}},
		Plan: review.PlanOptions{Schemas: schemas}, Marker: report.Marker{Key: "big"}, NoFingerprint: true, CheckRoom: CheckSummaryRoom})
	if err != nil {
		t.Fatal(err)
	}
	var many []report.Annotation
	for i := range 620 {
		many = append(many, report.Annotation{Path: "main.tf", Line: i + 1, Level: "warning", Title: "t", Message: strings.Repeat("m", 100)})
	}
	fake, api, _ := newFake(t, "t-write")
	run, _, err := UpsertCheck(context.Background(), api, repo, Check{Name: "planpr / big", SHA: "abc", App: actions, Facts: report.FactsOf(rep.Result, nil),
		FailOn: report.FailOn{report.FailDestroy}, Title: "big", Summary: rep.Check, Text: strings.Repeat("x", 200_000), Annotations: many})
	if err != nil {
		t.Fatal(err)
	}
	got := fake.CheckRuns("abc")
	if len(got) != 1 || run.Conclusion != "failure" {
		t.Fatalf("check runs %+v, run %+v", got, run)
	}
	c := got[0]
	if n := utf8.RuneCountInString(c.Summary); n > gh.MaxCheckText || n < gh.MaxCheckText*8/10 || c.Text != "" || len(c.Annotations) != 500 {
		t.Errorf("summary %d characters, text %d, %d annotations", n, len(c.Text), len(c.Annotations))
	}
	if c.Annotations[0].StartLine != 1 || c.Annotations[499].StartLine != 500 {
		t.Errorf("annotations from line %d to %d", c.Annotations[0].StartLine, c.Annotations[499].StartLine)
	}
	if n := fake.CountRequests("PATCH /repos/octo/infra/check-runs/"); n != 9 {
		t.Errorf("%d requests after the first for 500 annotations, want 9", n)
	}
	if !strings.Contains(c.Summary, "500 problems are marked on their lines in the Files tab; 120 more are in the comment.") ||
		!strings.Contains(c.Summary, "**❌ Fails**") || !strings.Contains(c.Summary, "<!-- planpr:v1 key=big") {
		t.Errorf("summary head:\n%s", c.Summary[:min(len(c.Summary), 1500)])
	}
}

// A check run whose answer is lost is looked for, then made again only
// when it is not there: one check run either way.
func TestUpsertCheckAfterALostAnswer(t *testing.T) {
	forEachLostAnswer(t, fmt.Sprintf("POST /repos/%s/check-runs", repo), func(t *testing.T, fake *githubtest.Server, api *gh.Client) {
		run, _, err := UpsertCheck(t.Context(), api, repo, Check{Name: "planpr / lost", SHA: "abc", App: actions, Title: "lost", Summary: "s"})
		if err != nil || run == nil || run.Name != "planpr / lost" {
			t.Fatalf("%+v %v", run, err)
		}
		if got := fake.CheckRuns("abc"); len(got) != 1 {
			t.Errorf("%d check runs\n%s", len(got), strings.Join(fake.Log(), "\n"))
		}
	})
}

// TestApprovalWhoseAuthorCannotBeReadFailsTheGate: when the labeller's
// access cannot be read (a bot's 404, a 5xx past the retries) the check
// fails saying so; it is never neutral, which branch protection passes.
func TestApprovalWhoseAuthorCannotBeReadFailsTheGate(t *testing.T) {
	t.Parallel()
	const permission = "GET /repos/octo/infra/collaborators/deploy-bot/permission"
	for name, faults := range map[string][]githubtest.Fault{
		"a bot's 404":          {{Match: permission, Status: 404, Message: "Not Found"}},
		"5xx past the retries": {{Match: permission, Status: 502}, {Match: permission, Status: 502}, {Match: permission, Status: 502}, {Match: permission, Status: 502}, {Match: permission, Status: 502}, {Match: permission, Status: 502}},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			fake, api, _ := newFake(t, "t-write")
			fake.Label(7, report.LabelDestroyApproved, "deploy-bot")
			fake.Inject(faults...)
			approval := ReadApproval(t.Context(), api, repo, 7, []string{report.LabelDestroyApproved})
			if !approval.Unknown {
				t.Fatalf("approval %+v, want unknown", approval)
			}
			if _, _, err := UpsertCheck(t.Context(), api, repo, Check{Name: "planpr", SHA: "abc", App: actions, PR: 7, Facts: report.Facts{Destroys: 1},
				FailOn: report.FailOn{report.FailDestroy}, Approval: approval, Title: "t", Summary: "s"}); err != nil {
				t.Fatal(err)
			}
			runs := fake.CheckRuns("abc")
			if len(runs) != 1 || runs[0].Conclusion != "failure" || !strings.Contains(runs[0].Summary, "could not read who added it") {
				t.Fatalf("check runs %+v, want one failure saying planpr could not read the approval", runs)
			}
		})
	}
}

// destroying is a check of a plan that destroys, with destroy in fail-on.
func destroying(sha string, pr int, approval report.Approval, labelledHere bool) Check {
	return Check{Name: "planpr / prod", SHA: sha, App: actions, PR: pr, Facts: report.Facts{Destroys: 1}, FailOn: report.FailOn{report.FailDestroy},
		Approval: approval, LabelledHere: labelledHere, Title: "t", Summary: "s"}
}

// TestApprovalBindsToTheApprovedCommit: the label approves the commit its
// labeled event came at; a later commit is not approved while the label
// stays (whatever event judges it), until the label is given again there.
func TestApprovalBindsToTheApprovedCommit(t *testing.T) {
	t.Parallel()
	fake, api, _ := newFake(t, "t-write")
	alice := report.Approval{By: "alice"}
	conclusion := func(sha string) (string, string) {
		runs := fake.CheckRuns(sha)
		if len(runs) != 1 {
			t.Fatalf("%d check runs on %s", len(runs), sha)
		}
		return runs[0].Conclusion, runs[0].Summary
	}
	// The label's own event at commit A approves A.
	if _, v, err := UpsertCheck(t.Context(), api, repo, destroying("aaaa", 7, alice, true)); err != nil || v.Conclusion != "success" {
		t.Fatalf("at A: %+v %v", v, err)
	}
	// Judged again at A by another event (a workflow_run): still approved.
	if _, v, _ := UpsertCheck(t.Context(), api, repo, destroying("aaaa", 7, alice, false)); v.Conclusion != "success" {
		t.Errorf("at A again: %+v", v)
	}
	// The author pushes B; the label is still there, no drop happened.
	if _, v, _ := UpsertCheck(t.Context(), api, repo, destroying("bbbb", 7, alice, false)); v.Conclusion != "failure" {
		t.Errorf("at B: %+v", v)
	}
	if c, summary := conclusion("bbbb"); c != "failure" || !strings.Contains(summary, "added by @alice at an earlier commit") {
		t.Errorf("at B: %s\n%s", c, summary)
	}
	// A rejudge for another event than the label's at B changes nothing.
	if _, err := Rejudge(t.Context(), api, repo, "bbbb", actions, 7, report.FailOn{report.FailDestroy}, alice, false); err != nil {
		t.Fatal(err)
	}
	if c, _ := conclusion("bbbb"); c != "failure" {
		t.Errorf("at B after a rejudge without the label's event: %s", c)
	}
	// Alice labels again while B is the head: B is approved.
	if _, err := Rejudge(t.Context(), api, repo, "bbbb", actions, 7, report.FailOn{report.FailDestroy}, alice, true); err != nil {
		t.Fatal(err)
	}
	if c, summary := conclusion("bbbb"); c != "success" || !strings.Contains(summary, "approved by @alice") {
		t.Errorf("at B labelled again: %s\n%s", c, summary)
	}
}

// TestAnotherPullRequestsFailureIsNeverTurnedIntoSuccess: two pull
// requests with one head commit (one into main that destroys, one into
// legacy that does not): the second's run keeps the commit's check
// failing while the first is open and fails, and says why; once the first
// is closed the second's verdict holds alone.
func TestAnotherPullRequestsFailureIsNeverTurnedIntoSuccess(t *testing.T) {
	t.Parallel()
	fake, api, _ := newFake(t, "t-write")
	fake.AddPR(githubtest.PR{Number: 1, HeadSHA: "cccc"})
	fake.AddPR(githubtest.PR{Number: 2, HeadSHA: "cccc"})
	if _, v, _ := UpsertCheck(t.Context(), api, repo, destroying("cccc", 1, report.Approval{}, false)); v.Conclusion != "failure" {
		t.Fatalf("#1: %+v", v)
	}
	calm := Check{Name: "planpr / prod", SHA: "cccc", App: actions, PR: 2, FailOn: report.FailOn{report.FailDestroy}, Title: "t", Summary: "s"}
	_, v, err := UpsertCheck(t.Context(), api, repo, calm)
	if err != nil || v.Conclusion != "failure" || !strings.Contains(strings.Join(v.Why, "\n"), "pull request #1, whose head is this same commit, fails") {
		t.Fatalf("#2 while #1 fails: %+v %v", v, err)
	}
	// #2 again: #1 still fails.
	if _, v, _ := UpsertCheck(t.Context(), api, repo, calm); v.Conclusion != "failure" {
		t.Errorf("#2 again: %+v", v)
	}
	// #1 is closed: #2's own verdict stands.
	fake.AddPR(githubtest.PR{Number: 1, HeadSHA: "cccc", Closed: true})
	if _, v, _ := UpsertCheck(t.Context(), api, repo, calm); v.Conclusion != "success" {
		t.Errorf("#2 once #1 is closed: %+v", v)
	}
	if runs := fake.CheckRuns("cccc"); len(runs) != 1 {
		t.Errorf("%d check runs", len(runs))
	}
}

// TestAnotherAppsCheckRunOfTheSameNameIsLeftAlone: a check run named
// "planpr / prod" made by another app (or a fork's workflow job of that
// name) is neither updated nor judged again; planpr keeps its own.
func TestAnotherAppsCheckRunOfTheSameNameIsLeftAlone(t *testing.T) {
	t.Parallel()
	fake, api, _ := newFake(t, "t-write")
	fake.AddCheckRun(githubtest.CheckRun{Name: "planpr / prod", HeadSHA: "dddd", Status: "completed", Conclusion: "success", App: "impostor",
		ExternalID: report.Facts{}.String()})
	fake.AddCheckRun(githubtest.CheckRun{Name: "planpr / prod", HeadSHA: "dddd", Status: "completed", Conclusion: "success", App: actions}) // a workflow job so named
	if _, v, err := UpsertCheck(t.Context(), api, repo, destroying("dddd", 7, report.Approval{}, false)); err != nil || v.Conclusion != "failure" {
		t.Fatalf("%+v %v", v, err)
	}
	if _, err := Rejudge(t.Context(), api, repo, "dddd", actions, 7, report.FailOn{report.FailDestroy}, report.Approval{By: "alice"}, true); err != nil {
		t.Fatal(err)
	}
	runs := fake.CheckRuns("dddd")
	if len(runs) != 3 || runs[0].App != "impostor" || runs[0].Updates != 0 || runs[1].Updates != 0 || runs[2].App != actions || runs[2].Conclusion != "success" {
		t.Fatalf("check runs %+v", runs)
	}
}

// TestUpsertCheckWritesNothingUnchanged: a run whose check would say
// what it says already writes nothing; a changed report writes it.
func TestUpsertCheckWritesNothingUnchanged(t *testing.T) {
	fake, api, _ := newFake(t, "t-write")
	c := Check{Name: "planpr / same", SHA: "abc", App: actions, Title: "same", Summary: "s", DetailsURL: "https://github.com/o/r/pull/1#issuecomment-1"}
	for range 2 {
		if _, _, err := UpsertCheck(t.Context(), api, repo, c); err != nil {
			t.Fatal(err)
		}
	}
	if n := fake.CountRequests("PATCH "); n != 0 {
		t.Errorf("%d updates of an unchanged check\n%s", n, strings.Join(fake.Log(), "\n"))
	}
	c.Summary = "changed"
	if _, _, err := UpsertCheck(t.Context(), api, repo, c); err != nil {
		t.Fatal(err)
	}
	if n := fake.CountRequests("PATCH "); n != 1 {
		t.Errorf("%d updates of a changed check, want 1", n)
	}
}
