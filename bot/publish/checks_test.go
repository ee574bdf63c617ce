package publish

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/planpr/planpr/bot/gh"
	"github.com/planpr/planpr/bot/githubtest"
	"github.com/planpr/planpr/render"
	"github.com/planpr/planpr/render/report"
	"github.com/planpr/planpr/render/review"
	"github.com/planpr/planpr/render/streamreport"
	"github.com/planpr/planpr/render/tofujson"
)

// TestCheckSummaryAtScale: the check of a 10,000-change plan holds its
// verdict and the comment within GitHub's 65,535 characters (the fake
// answers 422 past them, as GitHub does), with 50 of its annotations.
func TestCheckSummaryAtScale(t *testing.T) {
	dir := t.TempDir()
	if out, err := exec.Command("go", "run", "../../testdata/genplan", "-n", "10000", "-o", dir).CombinedOutput(); err != nil {
		t.Fatalf("genplan: %v\n%s", err, out)
	}
	schemas, err := tofujson.ReadSchemasFile(filepath.Join(dir, "schemas.json"))
	if err != nil {
		t.Fatal(err)
	}
	var comment, body bytes.Buffer
	o := render.CommentOptions{PlanOptions: review.PlanOptions{Schemas: schemas}, Marker: render.Marker{Key: "big"}}
	checkOpts := o
	checkOpts.MaxSize = CheckSummaryRoom
	results, err := render.Comments([]io.Writer{&comment, &body}, []render.CommentPlan{{Path: filepath.Join(dir, "plan.json")}}, []render.CommentOptions{o, checkOpts})
	if err != nil {
		t.Fatal(err)
	}
	var many []streamreport.Annotation
	for i := range 120 {
		many = append(many, streamreport.Annotation{Path: "main.tf", Line: i + 1, Level: "warning", Title: "t", Message: strings.Repeat("m", 100)})
	}
	verdict := report.Judge(results[0], nil, report.FailOn{report.FailDestroy}, report.Approval{})
	fake, api, _ := newFake(t, "t-write")
	run, err := UpsertCheck(context.Background(), api, repo, Check{Name: "planpr / big", SHA: "abc", Verdict: verdict, Title: "big",
		Summary: body.String(), Text: strings.Repeat("x", 200_000), Annotations: many})
	if err != nil {
		t.Fatal(err)
	}
	got := fake.CheckRuns("abc")
	if len(got) != 1 || run.Conclusion != "failure" {
		t.Fatalf("check runs %+v, run %+v", got, run)
	}
	c := got[0]
	if n := utf8.RuneCountInString(c.Summary); n > gh.MaxCheckText || n < gh.MaxCheckText*8/10 || c.Text != "" || len(c.Annotations) != gh.MaxAnnotations {
		t.Errorf("summary %d characters, text %d, %d annotations", n, len(c.Text), len(c.Annotations))
	}
	if !strings.Contains(c.Summary, "50 problems are marked on their lines in the Files tab; 70 more are in the comment.") ||
		!strings.Contains(c.Summary, "**❌ Fails**") || !strings.Contains(c.Summary, "<!-- planpr:v1 key=big") {
		t.Errorf("summary head:\n%s", c.Summary[:min(len(c.Summary), 1500)])
	}
}

// A check run whose answer is lost is looked for, then made again only
// when it is not there: one check run either way.
func TestUpsertCheckAfterALostAnswer(t *testing.T) {
	forEachLostAnswer(t, fmt.Sprintf("POST /repos/%s/check-runs", repo), func(t *testing.T, fake *githubtest.Server, api *gh.Client) {
		verdict := report.Judge(&render.CommentResult{}, nil, nil, report.Approval{})
		run, err := UpsertCheck(t.Context(), api, repo, Check{Name: "planpr / lost", SHA: "abc", Verdict: verdict, Title: "lost", Summary: "s"})
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
			verdict := report.JudgeFacts(report.Facts{Destroys: 1}, report.FailOn{report.FailDestroy}, approval)
			if _, err := UpsertCheck(t.Context(), api, repo, Check{Name: "planpr", SHA: "abc", Verdict: verdict, Title: "t", Summary: "s"}); err != nil {
				t.Fatal(err)
			}
			runs := fake.CheckRuns("abc")
			if len(runs) != 1 || runs[0].Conclusion != "failure" || !strings.Contains(runs[0].Summary, "could not read who added it") {
				t.Fatalf("check runs %+v, want one failure saying planpr could not read the approval", runs)
			}
		})
	}
}
