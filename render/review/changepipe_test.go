package review

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/planpr/planpr/render/tofujson"
)

// manyChanges writes a plan of n created resources, r[0] to r[n-1].
func manyChanges(t *testing.T, n int) string {
	t.Helper()
	var rcs []string
	for i := range n {
		rcs = append(rcs, fmt.Sprintf(`{"address":"x.r[%d]","mode":"managed","type":"x","name":"r","index":%d,"change":{"actions":["create"],"before":null,"after":{"n":%d},"after_unknown":{},"before_sensitive":false,"after_sensitive":{}}}`, i, i, i))
	}
	path := filepath.Join(t.TempDir(), "plan.json")
	plan := `{"format_version":"1.2","terraform_version":"1.9.0","resource_changes":[` + strings.Join(rcs, ",") + `]}`
	if err := os.WriteFile(path, []byte(plan), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// Changes visited beside the read are seen by Each in the plan's order,
// every one, with their values, before ReadPlan returns.
func TestBesideVisitsInOrder(t *testing.T) {
	path := manyChanges(t, 1000)
	var seen []string
	s, err := ReadPlan(path, PlanOptions{}, ScanOptions{Beside: true,
		Each: func(rc *tofujson.ResourceChange, c ChangeSummary) error {
			if err := rc.Change.Decode(); err != nil {
				return err
			}
			seen = append(seen, fmt.Sprintf("%s=%v", c.Address, rc.Change.After))
			return nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	if len(seen) != 1000 || s.Stats.Total.Add != 1000 {
		t.Fatalf("saw %d changes, counted %d", len(seen), s.Stats.Total.Add)
	}
	for i, v := range seen {
		if want := fmt.Sprintf("x.r[%d]=[{n %d}]", i, i); v != want {
			t.Fatalf("change %d is %s, want %s", i, v, want)
		}
	}
}

// The first error Each returns beside the read is the read's, located
// as the read locates it when it visits the changes itself, and no change
// after it is visited.
func TestBesideStopsAtTheFirstError(t *testing.T) {
	path := manyChanges(t, 1000)
	read := func(beside bool) (int, error) {
		visited := 0
		_, err := ReadPlan(path, PlanOptions{}, ScanOptions{Beside: beside,
			Each: func(_ *tofujson.ResourceChange, c ChangeSummary) error {
				visited++
				if c.Address == "x.r[100]" {
					return errors.New("change 100 refused")
				}
				return nil
			}})
		return visited, err
	}
	_, want := read(false)
	visited, got := read(true)
	if got == nil || want == nil || got.Error() != want.Error() || !strings.Contains(got.Error(), "change 100 refused") {
		t.Fatalf("beside the read: %v; on it: %v", got, want)
	}
	if visited != 101 {
		t.Errorf("%d changes visited, want 101 (none after the error)", visited)
	}
}
