package shape

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/planpr/planpr/render/tofujson"
)

// readChanges writes each pair of before and after values as a change of
// a plan, and reads them back as the comment does: lazily, with where
// their members begin.
func readChanges(t testing.TB, pairs ...[2]string) []tofujson.Change {
	t.Helper()
	var elems []string
	for _, p := range pairs {
		elems = append(elems, `{"address":"x.y","mode":"managed","type":"x","name":"y","change":{"actions":["update"],`+
			`"before":`+p[0]+`,"after":`+p[1]+`,"after_unknown":{},"before_sensitive":{},"after_sensitive":{}}}`)
	}
	path := filepath.Join(t.TempDir(), "plan.json")
	if err := os.WriteFile(path, []byte(`{"format_version":"1.2","resource_changes":[`+strings.Join(elems, ",")+`]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	var changes []tofujson.Change
	_, err := tofujson.ReadPlan(path, tofujson.ReadOptions{Lazy: true}, func(_ string, rc *tofujson.ResourceChange) error {
		changes = append(changes, rc.Change)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return changes
}
