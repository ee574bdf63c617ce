package report

import (
	"strings"
	"testing"

	"github.com/planpr/planpr/lockdiff"
	"github.com/planpr/planpr/render/comment"
	"github.com/planpr/planpr/render/review"
)

func TestParseFailOn(t *testing.T) {
	for in, want := range map[string]string{"": "errored,lock-alert", "destroy, replace\ndrift": "destroy,replace,drift", "none": "", "errored,errored": "errored"} {
		got, err := ParseFailOn(in)
		if err != nil || strings.Join(got, ",") != want {
			t.Errorf("ParseFailOn(%q) = %v, %v; want %s", in, got, err, want)
		}
	}
	if _, err := ParseFailOn("errored,sometimes"); err == nil || !strings.Contains(err.Error(), `fail-on "sometimes": want a list of errored, lock-alert, destroy, replace, drift`) {
		t.Errorf("bad condition: %v", err)
	}
}

// TestJudge: each condition of fail-on, the default, and the approval
// label by a writer, by a reader and by someone planpr cannot tell.
func TestJudge(t *testing.T) {
	destroys := &comment.CommentResult{Counts: review.Counts{Add: 1, Destroy: 3}, Replace: 1}
	alert := []*lockdiff.FileDiff{{Findings: []lockdiff.Finding{{Severity: lockdiff.Alert}}}}
	for _, tc := range []struct {
		name     string
		res      *comment.CommentResult
		locks    []*lockdiff.FileDiff
		failOn   string
		approval Approval
		want     string
		why      string
	}{
		{"default: destroys pass", destroys, nil, "", Approval{}, "success", "nothing in fail-on (errored, lock-alert) happened"},
		{"default: errored", &comment.CommentResult{Errored: true}, nil, "", Approval{}, "failure", "the run failed"},
		{"default: a lock alert", &comment.CommentResult{}, alert, "", Approval{}, "failure", "1 lock-file alert"},
		{"lock alert not in fail-on", &comment.CommentResult{}, alert, "errored", Approval{}, "success", ""},
		{"destroy", destroys, nil, "destroy", Approval{}, "failure", "2 resources destroyed (destroy is in fail-on); a maintainer can approve"},
		{"replace", destroys, nil, "replace", Approval{}, "failure", "1 resource replaced"},
		{"drift", &comment.CommentResult{Drift: 2}, nil, "drift", Approval{}, "failure", "2 resources changed outside the tool"},
		{"approved by a writer", destroys, nil, "destroy,replace", Approval{By: "octocat"}, "success", "approved by @octocat"},
		{"labelled by a reader", destroys, nil, "destroy", Approval{Refused: "mallory"}, "failure", "added by @mallory, who cannot write"},
		{"access unknown fails: a gate that cannot tell never passes", destroys, nil, "destroy", Approval{Unknown: true}, "failure", "could not read who added it"},
		{"approval does not excuse errors", &comment.CommentResult{Errored: true, Counts: review.Counts{Destroy: 1}}, nil, "errored,destroy", Approval{By: "octocat"}, "failure", "approved by @octocat"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := ParseFailOn(tc.failOn)
			if err != nil {
				t.Fatal(err)
			}
			v := Judge(tc.res, tc.locks, f, tc.approval)
			if v.Conclusion != tc.want || !strings.Contains(strings.Join(v.Why, "\n"), tc.why) {
				t.Errorf("%s %q, want %s with %q", v.Conclusion, v.Why, tc.want, tc.why)
			}
		})
	}
}

// TestDestroysAndReplacementsAskForOneApproval: with destroy and replace
// in fail-on, both are one reason, and the approval's sentence is said
// once.
func TestDestroysAndReplacementsAskForOneApproval(t *testing.T) {
	v := JudgeFacts(Facts{Destroys: 2, Replaces: 1}, FailOn{FailDestroy, FailReplace}, Approval{})
	if v.Conclusion != "failure" || len(v.Why) != 1 {
		t.Fatalf("%+v", v)
	}
	if n := strings.Count(v.Why[0], LabelDestroyApproved); n != 1 || !strings.Contains(v.Why[0], "2 resources destroyed (destroy is in fail-on) and 1 resource replaced (replace is in fail-on)") {
		t.Errorf("%q", v.Why[0])
	}
	v = JudgeFacts(Facts{Destroys: 2, Replaces: 1}, FailOn{FailDestroy, FailReplace}, Approval{By: "alice"})
	if v.Conclusion != "success" || len(v.Why) != 1 || strings.Count(v.Why[0], "@alice") != 1 {
		t.Errorf("approved: %+v", v)
	}
}
