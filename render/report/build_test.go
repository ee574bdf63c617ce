package report

import (
	"strings"
	"testing"

	"github.com/planpr/planpr/render/comment"
	"github.com/planpr/planpr/render/review"
	"github.com/planpr/planpr/render/tofujson"
)

const examplePlan = "../../testdata/example/plan.json"

// TestBuildGivesEveryBodyFromOneRequest: the comment, the job summary,
// the check's body and the machine summary come from one Build, each
// within its limit, the fingerprint in the marker and the outputs.
func TestBuildGivesEveryBodyFromOneRequest(t *testing.T) {
	files := tofujson.NewFiles()
	defer files.Close()
	rep, err := Build(t.Context(), Request{Plans: []comment.CommentPlan{{Name: "prod", Path: examplePlan}}, Plan: review.PlanOptions{Files: files},
		Marker: comment.Marker{Key: "prod"}, Title: Title("prod"), JobSummaryBytes: 1 << 20, CheckRoom: 3000, Summary: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Fingerprint) != 64 || !strings.Contains(rep.Comment, "fp="+rep.Fingerprint) || rep.Marker.Fingerprint != rep.Fingerprint {
		t.Errorf("fingerprint %q not in the marker: %.200s", rep.Fingerprint, rep.Comment)
	}
	for name, body := range map[string]string{"comment": rep.Comment, "job summary": rep.JobSummary, "check": rep.Check} {
		if !strings.Contains(body, "2 to add, 2 to change, 2 to destroy") {
			t.Errorf("%s: no counts: %.300s", name, body)
		}
	}
	if len([]rune(rep.Check)) > 3000 {
		t.Errorf("the check's body is %d characters, over its 3000", len([]rune(rep.Check)))
	}
	out := rep.Outputs()
	if out["fingerprint"] != rep.Fingerprint || out["destroy"] != "2" || !strings.HasPrefix(out["summary"], "{") {
		t.Errorf("outputs %v", out)
	}
	if got := rep.Labels(); len(got) != 1 || got[0] != LabelDestroy {
		t.Errorf("labels %q", got)
	}
}

// TestBuildWithoutFingerprint: `planpr render` publishes none.
func TestBuildWithoutFingerprint(t *testing.T) {
	rep, err := Build(t.Context(), Request{Plans: []comment.CommentPlan{{Path: examplePlan}}, Marker: comment.Marker{Key: "k"}, NoFingerprint: true})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Fingerprint != "" || strings.Contains(rep.Comment, "fp=") || rep.JobSummary != "" || rep.Check != "" || rep.Summary != "" {
		t.Errorf("bodies not asked for, or a fingerprint: %q %q %q %q", rep.Fingerprint, rep.JobSummary, rep.Check, rep.Summary)
	}
}

// TestJobSummaryDoesNotReferToItself: a shortened job summary sends the
// reader to the plan files, never to the job summary.
func TestJobSummaryDoesNotReferToItself(t *testing.T) {
	rep, err := Build(t.Context(), Request{Plans: []comment.CommentPlan{{Path: examplePlan}}, Marker: comment.Marker{Key: "k"},
		FullText: "the [job summary](https://github.com/o/r/actions/runs/1) of this run", JobSummaryBytes: 2000}) // as if the plan were larger than a job summary holds
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(rep.JobSummary, "Shortened") || strings.Contains(rep.JobSummary, "job summary") || !strings.Contains(rep.JobSummary, "plan files") {
		t.Errorf("the job summary's note:\n%s", rep.JobSummary)
	}
}

// TestLocksRequestHoldsOnlyTheLockFiles: the lock comment's request reads
// no plan, publishes no fingerprint, and keeps the base's links.
func TestLocksRequestHoldsOnlyTheLockFiles(t *testing.T) {
	base := Request{Plans: []comment.CommentPlan{{Path: examplePlan}}, Version: "1.2.3", RunURL: "https://github.com/o/r/actions/runs/9", CheckRoom: 3000}
	req := LocksRequest(base, comment.Marker{Key: LocksKey}, nil)
	if len(req.Plans) != 0 || !req.NoFingerprint || req.Title != Title(LocksKey) || req.RunURL != base.RunURL || req.Version != "1.2.3" || req.CheckRoom != 3000 {
		t.Errorf("%+v", req)
	}
}

// TestMergeOutputsSumsTheRoots: several comments' outputs sum their
// counts, say any change, error or failure, and keep the first's links.
func TestMergeOutputsSumsTheRoots(t *testing.T) {
	got := MergeOutputs([]map[string]string{
		{"add": "1", "change": "0", "destroy": "2", "lock-alerts": "0", "has-changes": "true", "errored": "false", "conclusion": "success", "comment-url": "u1"},
		{"add": "3", "change": "1", "destroy": "0", "lock-alerts": "1", "has-changes": "false", "errored": "true", "conclusion": "failure", "comment-url": "u2"},
	})
	want := map[string]string{"add": "4", "change": "1", "destroy": "2", "lock-alerts": "1", "has-changes": "true", "errored": "true", "conclusion": "failure", "comment-url": "u1"}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %q, want %q", k, got[k], v)
		}
	}
}
