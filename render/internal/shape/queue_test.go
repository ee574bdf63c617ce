package shape

import (
	"fmt"
	"slices"
	"testing"

	"github.com/planpr/planpr/render/tofujson"
)

// A queue gives each change the shape Of gives it, in the order added,
// whichever goroutine worked it out: 500 changes added at once outrun
// the queue's goroutine, and the reader shapes some itself.
func TestQueueShapesInOrder(t *testing.T) {
	keys := func(address string) []string { return []string{address[len("web[") : len(address)-1]} }
	q := NewQueue()
	var want []Shape
	var pairs [][2]string
	for i := range 500 {
		pairs = append(pairs, [2]string{"null", fmt.Sprintf(`{"name":"web-%d","size":%d}`, i, 100+i%3)})
	}
	for i, c := range readChanges(t, pairs...) {
		rc := &tofujson.ResourceChange{Address: fmt.Sprintf("web[%d]", i), Change: c}
		want = append(want, Of(&rc.Change, keys(rc.Address)))
		q.Add(rc, keys(rc.Address))
	}
	got, err := q.Wait()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, want) {
		t.Fatal("the queue's shapes differ from Of's")
	}
	if got[0] != got[3] || got[0] == got[1] { // alike by size, apart from the key
		t.Errorf("web[0] and web[3] should be alike, web[0] and web[1] not: %v", got[:4])
	}
}
