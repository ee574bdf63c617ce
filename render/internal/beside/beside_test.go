package beside

import (
	"errors"
	"slices"
	"testing"
)

// TestInOrderFromBothGoroutines: 2,000 items added at once outrun the
// worker's goroutine, so the adding one does some; Wait gives every
// result in the order added.
func TestInOrderFromBothGoroutines(t *testing.T) {
	w := Start(func(i int) (int, error) { return i * i, nil })
	var want []int
	for i := range 2000 {
		if err := w.Add(i); err != nil {
			t.Fatal(err)
		}
		want = append(want, i*i)
	}
	got, err := w.Wait()
	if err != nil || !slices.Equal(got, want) {
		t.Fatalf("Wait = %v…, %v", got[:min(5, len(got))], err)
	}
	if len(w.ours) == 0 || w.theirs.Len() == 0 {
		t.Logf("done here %d, there %d: one goroutine did all", len(w.ours), w.theirs.Len())
	}
}

// TestErrors: do's error comes from Add when done there, and from Wait
// when the worker's goroutine met it.
func TestErrors(t *testing.T) {
	bad := errors.New("bad item")
	w := Start(func(i int) (int, error) {
		if i == 3 {
			return 0, bad
		}
		return i, nil
	})
	var addErr error
	for i := range 100 {
		addErr = errors.Join(addErr, w.Add(i))
	}
	_, waitErr := w.Wait()
	if !errors.Is(addErr, bad) && !errors.Is(waitErr, bad) {
		t.Fatalf("item 3's error was lost: Add %v, Wait %v", addErr, waitErr)
	}
}
