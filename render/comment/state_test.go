package comment

import (
	"bytes"
	"os"
	"strings"
	"testing"

	txt "github.com/planpr/planpr/render/text"

	"github.com/planpr/planpr/render/review"
	"github.com/planpr/planpr/render/tofujson"
)

func stateSchemas(t *testing.T) *tofujson.Schemas {
	t.Helper()
	s, err := tofujson.ReadSchemasFile("testdata/states/schemas.json")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestStateTextMatchesOpenTofu: each fixture reproduces one of OpenTofu's
// own state renderer tests; its .txt is the text OpenTofu expects.
func TestStateTextMatchesOpenTofu(t *testing.T) {
	for _, name := range []string{"basic", "deposed", "outputs", "empty"} {
		t.Run(name, func(t *testing.T) {
			want, err := os.ReadFile("testdata/states/" + name + ".txt")
			if err != nil {
				t.Fatal(err)
			}
			var got bytes.Buffer
			if err := txt.StateText(&got, "testdata/states/"+name+".json", review.PlanOptions{Schemas: stateSchemas(t)}); err != nil {
				t.Fatal(err)
			}
			if got.String() != string(want) {
				t.Errorf("got:\n%s\nwant:\n%s", got.String(), want)
			}
		})
	}
}

func TestStateGolden(t *testing.T) {
	var text bytes.Buffer
	if err := txt.StateText(&text, "testdata/states/modules.json", review.PlanOptions{Schemas: stateSchemas(t)}); err != nil {
		t.Fatal(err)
	}
	golden(t, "state-modules.txt", text.Bytes())
	var noschema bytes.Buffer
	if err := txt.StateText(&noschema, "testdata/states/modules.json", review.PlanOptions{}); err != nil {
		t.Fatal(err)
	}
	golden(t, "state-modules-noschemas.txt", noschema.Bytes())
	var md bytes.Buffer
	if _, err := StateMarkdown(&md, "testdata/states/modules.json", CommentOptions{PlanOptions: review.PlanOptions{Schemas: stateSchemas(t)}, Marker: Marker{Key: "state"}, Version: "test"}); err != nil {
		t.Fatal(err)
	}
	golden(t, "state-modules.md", md.Bytes())
	kinds, err := tofujson.ReadSchemasFile("testdata/states/kinds-schemas.json")
	if err != nil {
		t.Fatal(err)
	}
	var all bytes.Buffer
	if err := txt.StateText(&all, "testdata/states/kinds.json", review.PlanOptions{Schemas: kinds}); err != nil {
		t.Fatal(err)
	}
	// Every value kind and nesting mode: primitives (a number kept as
	// written), map, set, list, tuple, object, dynamic, sensitive, nested
	// attributes single/list/set/map, blocks single/group/list/set/map.
	golden(t, "state-kinds.txt", all.Bytes())
}

func TestStateTextQuirks(t *testing.T) {
	var got bytes.Buffer
	if err := txt.StateText(&got, "testdata/states/modules.json", review.PlanOptions{Schemas: stateSchemas(t)}); err != nil {
		t.Fatal(err)
	}
	s := got.String()
	for _, want := range []string{
		"# module.a.test_resource.y: (tainted)\n",
		"    foo     = (sensitive value)\n",
		// A child module's first resource after its parent's: two newlines.
		"}\n\n\n# module.a.module.b.data.test_data_source.d:\n",
		// OpenTofu passes "first" to child modules by value, so a sibling
		// of a module with resources starts without a blank line when the
		// root module has none.
		"}\n# module.c[\"k\"].test_resource.z:\n",
		"\n\nOutputs:\n\ndb_password = (sensitive value)\n",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("missing %q in:\n%s", want, s)
		}
	}
}

func TestStateMarkdownMasksAndFits(t *testing.T) {
	var md bytes.Buffer
	res, err := StateMarkdown(&md, "testdata/states/modules.json", CommentOptions{PlanOptions: review.PlanOptions{Schemas: stateSchemas(t)}, Marker: Marker{Key: "s"}})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(md.String(), "hunter2") {
		t.Error("a value marked sensitive somewhere shows elsewhere")
	}
	if res.Masked == 0 || !strings.Contains(md.String(), "sensitive values masked") {
		t.Errorf("masked %d", res.Masked)
	}
	for _, max := range []int{1500, 900} {
		var small bytes.Buffer
		res, err := StateMarkdown(&small, "testdata/states/modules.json", CommentOptions{PlanOptions: review.PlanOptions{Schemas: stateSchemas(t)}, Marker: Marker{Key: "s"}, MaxSize: max})
		if err != nil {
			t.Fatal(err)
		}
		if small.Len() > max || res.Level == LevelFull || !strings.Contains(small.String(), "4 resources in 3 modules") {
			t.Errorf("max %d: size %d level %d:\n%s", max, small.Len(), res.Level, small.String())
		}
	}
}

func TestStateBadInput(t *testing.T) {
	path := writePlan(t, map[string]any{"format_version": "2.0", "values": map[string]any{}})
	if err := txt.StateText(&bytes.Buffer{}, path, review.PlanOptions{}); err == nil || !strings.Contains(err.Error(), `unsupported state format_version "2.0"`) {
		t.Errorf("err = %v", err)
	}
	other, _ := tofujson.DecodeSchemas("o.json", []byte(`{"format_version":"1.0","provider_schemas":{}}`))
	if err := txt.StateText(&bytes.Buffer{}, "testdata/states/basic.json", review.PlanOptions{Schemas: other, SchemasFile: "o.json"}); err == nil || !strings.Contains(err.Error(), "no schema for data source") {
		t.Errorf("err = %v", err)
	}
	if kind, err := tofujson.DocumentKind("testdata/states/basic.json"); kind != "state" || err != nil {
		t.Errorf("kind %q %v", kind, err)
	}
	if kind, err := tofujson.DocumentKind("testdata/plans/drift.json"); kind != "plan" || err != nil {
		t.Errorf("kind %q %v", kind, err)
	}
}
