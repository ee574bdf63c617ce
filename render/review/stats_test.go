package review

import (
	"math/rand/v2"
	"testing"

	"github.com/planpr/planpr/render/internal/diff"
)

// TestStatsTotalsAreSumsOfCounts: the "Plan:" line's totals, kept one
// change at a time, are always the sums of the counts by action.
func TestStatsTotalsAreSumsOfCounts(t *testing.T) {
	actions := []diff.Action{diff.NoOp, diff.Create, diff.Read, diff.Update, diff.Delete, diff.DeleteThenCreate,
		diff.CreateThenDelete, diff.Forget, diff.ForgetThenCreate, diff.CreateThenForget}
	r := rand.New(rand.NewPCG(7, 8))
	var st Stats
	for i := range 5000 {
		st.add(ChangeSummary{Action: actions[r.IntN(len(actions))], Moved: r.IntN(9) == 0, Importing: r.IntN(9) == 0, Mode: "managed"})
		n := st.Counts
		want := Counts{
			Import: st.Imported, Forget: n[diff.Forget] + n[diff.ForgetThenCreate] + n[diff.CreateThenForget],
			Add:     n[diff.Create] + n[diff.DeleteThenCreate] + n[diff.CreateThenDelete] + n[diff.ForgetThenCreate] + n[diff.CreateThenForget],
			Change:  n[diff.Update],
			Destroy: n[diff.Delete] + n[diff.DeleteThenCreate] + n[diff.CreateThenDelete],
		}
		if st.Total != want {
			t.Fatalf("after %d changes: totals %+v, the counts %v sum to %+v", i+1, st.Total, n, want)
		}
	}
}
