package shape

import (
	"os"
	"strings"
	"testing"

	"github.com/planpr/planpr/render/review"
	"github.com/planpr/planpr/render/tofujson"
)

// planChanges reads every change of the plan PLANPR_BENCH_PLAN names (go
// run ./testdata/genplan makes one) as the comment does, with its keys
// and a bucket (address pattern and actions); size is the bytes of their
// values.
func planChanges(b *testing.B) (changes []tofujson.Change, keys [][]string, buckets []string, size int) {
	path := os.Getenv("PLANPR_BENCH_PLAN")
	if path == "" {
		b.Skip("PLANPR_BENCH_PLAN names no plan")
	}
	_, err := tofujson.ReadPlan(path, tofujson.ReadOptions{Lazy: true}, func(section string, rc *tofujson.ResourceChange) error {
		if section == tofujson.SectionChanges {
			for _, v := range rc.Change.RawValues() {
				size += len(v)
			}
			at := review.SplitAddress(rc.Address)
			changes = append(changes, rc.Change)
			keys = append(keys, at.Keys())
			buckets = append(buckets, at.Pattern+" "+strings.Join(rc.Change.Actions, ","))
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	return changes, keys, buckets, size
}

// BenchmarkShapePlan hashes every change of a plan with Of, on one
// goroutine: bytes/s are those of the changes' values.
func BenchmarkShapePlan(b *testing.B) {
	changes, keys, _, size := planChanges(b)
	b.SetBytes(int64(size))
	for b.Loop() {
		for i := range changes {
			Of(&changes[i], keys[i])
		}
	}
}

// BenchmarkPlacePlan places every change of a plan as a Queue's worker
// does, on one goroutine: compared with the one before it in its bucket
// (read when it was placed), hashed when that cannot tell.
func BenchmarkPlacePlan(b *testing.B) {
	changes, keys, buckets, size := planChanges(b)
	items := make([]queued, len(changes))
	last, ids := map[string]int{}, map[string]int32{}
	for i := range changes {
		if _, ok := ids[buckets[i]]; !ok {
			ids[buckets[i]] = int32(len(ids))
		}
		id := ids[buckets[i]]
		items[i] = queued{i: int32(i), bucket: id, change: changes[i], keys: keys[i]}
		if j, ok := last[buckets[i]]; ok {
			items[i].prev, items[i].hasPrev = previous{int32(j), id, changes[j], keys[j]}, true
		}
		last[buckets[i]] = i
	}
	b.SetBytes(int64(size))
	for b.Loop() {
		pl := &placer{kept: map[int32]keptRead{}}
		for _, q := range items {
			pl.place(q)
		}
	}
}
