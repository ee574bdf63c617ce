package report

import (
	"strings"
	"testing"

	"github.com/planpr/planpr/render/comment"
)

// TestCostGateFailsOnGrowthPastItsLimit: cost:+AMOUNT and cost:+N% fail a
// check when a root's monthly cost grows by more, a root that cost
// nothing before fails any percentage, and the facts survive the check
// run's external_id.
func TestCostGateFailsOnGrowthPastItsLimit(t *testing.T) {
	for _, tc := range []struct {
		failOn      string
		up, upPct   string
		want        string
		wantFailure bool
	}{
		{"cost:+1000", "1361.31", "", "grows by 1361.31, over +1000", true},
		{"cost:+2000", "1361.31", "", "", false},
		{"cost:+10%", "50.00", "12.5", "grows by 12.5%, over +10%", true},
		{"cost:+20%", "50.00", "12.5", "", false},
		{"cost:+10%", "1361.31", comment.CostFromNothing, "cost nothing a month now costs 1361.31", true},
		{"cost:+10%", "", "", "", false},
	} {
		failOn, err := ParseFailOn(tc.failOn)
		if err != nil {
			t.Fatal(err)
		}
		f, ok := ParseFacts(Facts{CostUp: tc.up, CostUpPct: tc.upPct}.String())
		if !ok || f.CostUp != tc.up || f.CostUpPct != tc.upPct {
			t.Fatalf("facts read back as %+v", f)
		}
		v := JudgeFacts(f, failOn, Approval{})
		if (v.Conclusion == "failure") != tc.wantFailure || tc.want != "" && !strings.Contains(strings.Join(v.Why, "; "), tc.want) {
			t.Errorf("%s with +%s (%s%%): %s %v", tc.failOn, tc.up, tc.upPct, v.Conclusion, v.Why)
		}
	}
	for _, bad := range []string{"cost:10", "cost:+", "cost:+1e9", "cost:+-5", "cost:+ten%"} {
		if _, err := ParseFailOn(bad); err == nil {
			t.Errorf("fail-on %q accepted", bad)
		}
	}
}
