package inputs

import (
	"reflect"
	"testing"
)

// TestReportsGoToTheRootsTheyAreAbout: one rule for every runner — a
// report in a plan's directory is that root's; a scanner's or policy
// engine's elsewhere is every root's; an Infracost estimate elsewhere is
// the only root's, and beside several an error; a root without a plan
// gets none; config says each root's configuration when it has findings.
func TestReportsGoToTheRootsTheyAreAbout(t *testing.T) {
	roots := func() []Root {
		return []Root{{Name: "prod", Path: "envs/prod/plan.json"}, {Name: "staging", Path: "envs/staging/plan.json"}, {Name: "failed", Streams: []string{"envs/x/plan.jsonl"}}}
	}
	rs := roots()
	err := WithReports(rs, []File{
		{Path: "envs/prod/tfsec.sarif", Kind: Findings}, {Path: "scans/trivy.sarif", Kind: Findings},
		{Path: "envs/staging/conftest.json", Kind: Policy}, {Path: "envs/prod/infracost.json", Kind: Cost},
	}, func(r Root) string { return "/ws/" + r.Name })
	if err != nil {
		t.Fatal(err)
	}
	want := []Root{
		{Name: "prod", Path: "envs/prod/plan.json", Findings: []string{"envs/prod/tfsec.sarif", "scans/trivy.sarif"}, Config: "/ws/prod", Costs: []string{"envs/prod/infracost.json"}},
		{Name: "staging", Path: "envs/staging/plan.json", Findings: []string{"scans/trivy.sarif"}, Config: "/ws/staging", Policies: []string{"envs/staging/conftest.json"}},
		{Name: "failed", Streams: []string{"envs/x/plan.jsonl"}},
	}
	if !reflect.DeepEqual(rs, want) {
		t.Errorf("got  %+v\nwant %+v", rs, want)
	}
	if err := WithReports(roots(), []File{{Path: "costs/infracost.json", Kind: Cost}}, nil); err == nil {
		t.Error("an estimate beside no plan of two roots was given to one")
	}
	one := []Root{{Name: "prod", Path: "envs/prod/plan.json"}}
	if err := WithReports(one, []File{{Path: "costs/infracost.json", Kind: Cost}}, nil); err != nil || len(one[0].Costs) != 1 {
		t.Errorf("the only root's estimate: %v %+v", err, one)
	}
}
