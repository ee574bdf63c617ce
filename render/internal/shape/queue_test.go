package shape

import (
	"fmt"
	"testing"

	"github.com/planpr/planpr/render/tofujson"
)

// A queue gives each change the shape Of gives it, in the order added,
// whichever goroutine worked it out, or says it follows the change before
// it in its bucket as Of would: 500 changes added at once outrun the
// queue's goroutine, and the reader shapes some itself.
func TestQueueShapesInOrder(t *testing.T) {
	keys := func(address string) []string { return []string{address[len("web[") : len(address)-1]} }
	q := NewQueue[int]()
	var want []Shape
	var pairs [][2]string
	for i := range 500 {
		pairs = append(pairs, [2]string{"null", fmt.Sprintf(`{"name":"web-%d","size":%d}`, i, 100+i%3)})
	}
	for i, c := range readChanges(t, pairs...) {
		rc := &tofujson.ResourceChange{Address: fmt.Sprintf("web[%d]", i), Change: c}
		want = append(want, Of(&rc.Change, keys(rc.Address)))
		q.Add(rc, keys(rc.Address), i%3) // alike sizes, one bucket
	}
	got := placedAsOf(t, q, want, 3)
	follows := 0
	for _, g := range got {
		if g.Follows {
			follows++
		}
	}
	if follows != 497 {
		t.Errorf("%d changes follow the one before them in their bucket, want 497", follows)
	}
	if !got[3].Strictly || got[0].Strict == got[1].Strict { // alike by size, apart from the key
		t.Errorf("web[3] should be strictly alike web[0], web[1] not: %v", got[:4])
	}
}

// A queue's worker compares each change with what it read of the change
// before it in its bucket: with for_each keys replaced, and updates'
// members split, it answers as Of's shapes do, and finds the alike.
func TestQueueComparesWithWhatItKept(t *testing.T) {
	var pairs [][2]string
	var keys [][]string
	for i := range 400 {
		k := fmt.Sprintf("eu-%d", i)
		before := fmt.Sprintf(`{"name":"web-%s","size":%d,"tags":{"zone":"%s"}}`, k, 2+i%2, k)
		after := fmt.Sprintf(`{"name":"web-%s","size":%d,"tags":{"zone":"%s"}}`, k, 4+i%2, k)
		pairs = append(pairs, [2]string{before, after})
		keys = append(keys, []string{k})
	}
	q := NewQueue[int]()
	var want []Shape
	for i, c := range readChanges(t, pairs...) {
		rc := &tofujson.ResourceChange{Address: fmt.Sprintf(`web["%s"]`, keys[i][0]), Change: c}
		want = append(want, Of(&rc.Change, keys[i]))
		q.Add(rc, keys[i], i%2)
	}
	follows := 0
	for _, g := range placedAsOf(t, q, want, 2) {
		if g.Follows {
			follows++
		}
	}
	if follows != 398 {
		t.Errorf("%d changes follow the one before them in their bucket, want 398", follows)
	}
}

// placedAsOf waits for q's shapes and fails t where one differs from Of's
// (want), a change that follows the one back places before it included.
func placedAsOf(t *testing.T, q *Queue[int], want []Shape, back int) []Placed {
	t.Helper()
	got, err := q.Wait()
	if err != nil {
		t.Fatal(err)
	}
	for i, g := range got {
		switch {
		case g.Loose != want[i].Loose:
			t.Fatalf("change %d: Loose %x, Of's %x", i, g.Loose, want[i].Loose)
		case g.Follows && g.Strictly != (want[i].Strict == want[i-back].Strict):
			t.Fatalf("change %d follows change %d strictly: %v, Of's shapes say otherwise", i, i-back, g.Strictly)
		case !g.Follows && g.Strict != want[i].Strict:
			t.Fatalf("change %d: Strict %x, Of's %x", i, g.Strict, want[i].Strict)
		}
	}
	return got
}
