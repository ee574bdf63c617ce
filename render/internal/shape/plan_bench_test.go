package shape

import (
	"os"
	"testing"

	"github.com/planpr/planpr/render/review"
	"github.com/planpr/planpr/render/tofujson"
)

// BenchmarkShapePlan shapes every change of the plan PLANPR_BENCH_PLAN
// names (go run ./testdata/genplan makes one), as the comment does but
// on one goroutine: bytes/s are those of the changes' values.
func BenchmarkShapePlan(b *testing.B) {
	path := os.Getenv("PLANPR_BENCH_PLAN")
	if path == "" {
		b.Skip("PLANPR_BENCH_PLAN names no plan")
	}
	var changes []tofujson.Change
	var keys [][]string
	size := 0
	_, err := tofujson.ReadPlan(path, tofujson.ReadOptions{Lazy: true, Borrow: true}, func(section string, rc *tofujson.ResourceChange) error {
		if section == tofujson.SectionChanges {
			for _, v := range rc.Change.RawValues() {
				size += len(v)
			}
			rc.Change.KeepValues() // with the members' places, as the comment reads them
			changes = append(changes, rc.Change)
			keys = append(keys, review.SplitAddress(rc.Address).Keys())
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(size))
	for b.Loop() {
		for i := range changes {
			Of(&changes[i], keys[i])
		}
	}
}
