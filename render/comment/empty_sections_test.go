package comment

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNoEmptyStreamSection: a plan's stream that adds nothing to the plan
// (its version line and its counts, as `tofu plan -json` writes beside a
// plan that succeeded) leaves no empty "Log" heading; one with a warning
// keeps its section.
func TestNoEmptyStreamSection(t *testing.T) {
	dir := t.TempDir()
	plan := filepath.Join(dir, "plan.json")
	b, err := os.ReadFile("../../testdata/example/plan.json")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(plan, b, 0o644)
	example, err := os.ReadFile("../../testdata/example/plan.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	version, counts, _ := strings.Cut(string(example), "\n")
	version += "\n"
	warning := `{"@level":"warn","@message":"Warning: Deprecated attribute","@module":"tofu.ui","type":"diagnostic","diagnostic":{"severity":"warning","summary":"Deprecated attribute","detail":"use another"}}` + "\n"
	for name, tc := range map[string]struct {
		stream  string
		section bool
	}{
		"nothing beside the plan": {version + counts, false},
		"a warning":               {version + warning + counts, true},
	} {
		stream := filepath.Join(dir, "plan.jsonl")
		os.WriteFile(stream, []byte(tc.stream), 0o644)
		var out strings.Builder
		if _, err := Comment(&out, []CommentPlan{{Path: plan, Streams: []string{stream}}}, CommentOptions{}); err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(out.String(), "#### Log"); got != tc.section {
			t.Errorf("%s: a Log section %v, want %v:\n%s", name, got, tc.section, out.String())
		}
	}
}
