package comment

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	txt "github.com/planpr/planpr/render/text"

	"github.com/planpr/planpr/render/review"
	"github.com/planpr/planpr/render/tofujson"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata/golden")

// golden compares got with testdata/golden/NAME, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run `go test ./render/comment -update` to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs (run `go test ./render/comment -update` and review the diff):\n%s", path, firstDifference(got, want))
	}
}

// firstDifference shows where got and want part, a few lines around.
func firstDifference(got, want []byte) string {
	g, w := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	i := 0
	for i < len(g) && i < len(w) && g[i] == w[i] {
		i++
	}
	from := max(0, i-3)
	return fmt.Sprintf("first difference at line %d\n--- got\n%s\n--- want\n%s", i+1,
		strings.Join(g[from:min(len(g), i+5)], "\n"), strings.Join(w[from:min(len(w), i+5)], "\n"))
}

func TestPlanTextGolden(t *testing.T) {
	schemas, err := tofujson.ReadSchemasFile("../../testdata/example/schemas.json")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		golden, plan string
		opts         review.PlanOptions
	}{
		{"example.txt", "../../testdata/example/plan.json", review.PlanOptions{Schemas: schemas}},
		{"example-noschemas.txt", "../../testdata/example/plan.json", review.PlanOptions{}},
		{"drift.txt", "testdata/plans/drift.json", review.PlanOptions{Schemas: schemas}},
		{"drift-refresh-only.txt", "testdata/plans/drift.json", review.PlanOptions{Schemas: schemas, Mode: review.ModeRefreshOnly}},
		{"nochanges.txt", "testdata/plans/nochanges.json", review.PlanOptions{Schemas: schemas}},
		{"nochanges-targeted.txt", "testdata/plans/nochanges.json", review.PlanOptions{Schemas: schemas, Targeted: true}},
		{"nochanges-destroy.txt", "testdata/plans/nochanges.json", review.PlanOptions{Schemas: schemas, Mode: review.ModeDestroy}},
		// Terraform only: changes deferred to a later plan, actions invoked.
		{"terraform-deferred.txt", "testdata/plans/terraform-deferred.json", review.PlanOptions{}},
		{"terraform-actions.txt", "testdata/plans/terraform-actions.json", review.PlanOptions{}},
	}
	for _, tt := range tests {
		t.Run(tt.golden, func(t *testing.T) {
			var out bytes.Buffer
			if err := txt.PlanText(&out, tt.plan, tt.opts); err != nil {
				t.Fatal(err)
			}
			golden(t, tt.golden, out.Bytes())
		})
	}
}

func TestPlanTextNeedsMatchingSchemas(t *testing.T) {
	other, err := tofujson.DecodeSchemas("other.json", []byte(`{"format_version":"1.0","provider_schemas":{"registry.opentofu.org/hashicorp/null":{"resource_schemas":{}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	err = txt.PlanText(&out, "../../testdata/example/plan.json", review.PlanOptions{Schemas: other, SchemasFile: "other.json"})
	if err == nil || !bytes.Contains([]byte(err.Error()), []byte(`other.json: no schema for resource type "aws_db_instance" of provider "registry.opentofu.org/hashicorp/aws"`)) {
		t.Errorf("err = %v", err)
	}
}
