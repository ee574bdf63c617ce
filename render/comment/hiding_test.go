package comment

import (
	"github.com/planpr/planpr/flavor"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/planpr/planpr/render/review"
	txt "github.com/planpr/planpr/render/text"

	"github.com/planpr/planpr/render/internal/diff"
	"github.com/planpr/planpr/render/tofujson"
)

// The text pipeline builds the trees of updates and replacements without
// what they hide. For every such change of the conformance plans, the
// example and a generated plan, with schemas and without, the text must
// be what the whole tree gives.
func TestHidingUnchangedChangesNoText(t *testing.T) {
	type input struct{ plan, schemas string }
	var inputs []input
	dirs, _ := filepath.Glob("../../../shared/conformance/equivalence/*")
	for _, d := range dirs {
		inputs = append(inputs, input{filepath.Join(d, "plan.json"), filepath.Join(d, "schemas.json")})
	}
	inputs = append(inputs, input{"../../testdata/example/plan.json", "../../testdata/example/schemas.json"})
	gen := t.TempDir()
	if out, err := exec.Command("go", "run", "../../testdata/genplan", "-n", "400", "-o", gen).CombinedOutput(); err != nil {
		t.Fatalf("genplan: %v\n%s", err, out)
	}
	inputs = append(inputs, input{filepath.Join(gen, "plan.json"), filepath.Join(gen, "schemas.json")})

	checked := 0
	var nodes diff.Arena
	for _, in := range inputs {
		if _, err := os.Stat(in.plan); err != nil {
			continue
		}
		schemas, err := tofujson.ReadSchemasFile(in.schemas)
		if err != nil {
			t.Fatal(err)
		}
		p, err := tofujson.ReadPlanFile(in.plan, nil)
		if err != nil {
			t.Fatal(err)
		}
		config := review.IndexConfiguration(p.Configuration)
		for _, o := range []review.PlanOptions{{Schemas: schemas}, {}} {
			_, err := tofujson.ReadPlanFile(in.plan, func(_ string, rc *tofujson.ResourceChange) error {
				action, _ := tofujson.ParseActions(rc.Change.Actions)
				if !txt.HidesUnchanged(rc, action, flavor.OpenTofu) {
					return nil
				}
				block, err := o.SchemaFor(rc, config)
				if err != nil {
					return err
				}
				want := txt.ResourceText(rc, action, diff.ForResource(&rc.Change, block, diff.Always()), txt.CauseChange, flavor.OpenTofu)
				got := txt.ResourceText(rc, action, nodes.ForResourceHidingUnchanged(&rc.Change, block, diff.Always(), txt.IsImportant), txt.CauseChange, flavor.OpenTofu)
				nodes.Reset()
				if got != want {
					t.Errorf("%s, %s (schemas: %v): hiding what is unchanged changed the text:\n%s\nwant\n%s", in.plan, rc.Address, o.Schemas != nil, got, want)
				}
				checked++
				return nil
			}, tofujson.SectionChanges)
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	if checked < 300 {
		t.Errorf("only %d changes checked", checked)
	}
}
