package diff

import (
	"testing"

	"github.com/planpr/planpr/render/tofujson"
	"github.com/zclconf/go-cty/cty"
)

// sameButHidden checks that hid is full with some NoOp subtrees left
// unbuilt, and counts them.
func sameButHidden(t *testing.T, path string, full, hid *Node) int {
	t.Helper()
	if hid.Kind == Unchanged {
		if full.Action != NoOp {
			t.Errorf("%s: left unbuilt, but it changes (%v)", path, full.Action)
		}
		return 1
	}
	if full.Kind != hid.Kind || full.Action != hid.Action || full.Replace != hid.Replace ||
		len(full.Children) != len(hid.Children) || len(full.Blocks) != len(hid.Blocks) {
		t.Fatalf("%s: built differently: %+v\nwant %+v", path, hid, full)
	}
	hidden := 0
	for i, f := range full.Children {
		hidden += sameButHidden(t, path+"."+f.Name, f.Node, hid.Children[i].Node)
	}
	for i, g := range full.Blocks {
		if len(g.Items) != len(hid.Blocks[i].Items) {
			t.Fatalf("%s.%s: %d blocks, want %d", path, g.Name, len(hid.Blocks[i].Items), len(g.Items))
		}
		for j, item := range g.Items {
			hidden += sameButHidden(t, path+"."+g.Name, item, hid.Blocks[i].Items[j])
		}
	}
	return hidden
}

func TestHidingUnchangedLeavesOnlyNoOpsUnbuilt(t *testing.T) {
	inner := block(map[string]cty.Type{"size": cty.Number, "kind": cty.String})
	b := block(map[string]cty.Type{
		"id": cty.String, "tags": cty.Map(cty.String), "same": cty.String, "changed": cty.String,
		"became_sensitive": cty.String, "computed": cty.String, "replaced": cty.Number,
		"obj": cty.Object(map[string]cty.Type{"a": cty.String}),
	})
	b.BlockTypes = map[string]*tofujson.BlockType{
		"disk": {NestingMode: tofujson.NestingList, Block: inner},
		"ebs":  {NestingMode: tofujson.NestingSet, Block: inner},
		"root": {NestingMode: tofujson.NestingSingle, Block: inner},
	}
	before := `{"id":"i-1","tags":{"a":"b"},"same":"s","changed":"x","became_sensitive":"p","computed":null,"replaced":1,"obj":{"a":"z"},
		"disk":[{"size":1,"kind":"a"},{"size":2,"kind":"b"}],"ebs":[{"size":3,"kind":"c"},{"size":4,"kind":"d"}],"root":{"size":5,"kind":"e"}}`
	after := `{"id":"i-1","tags":{"a":"b"},"same":"s","changed":"y","became_sensitive":"p","computed":null,"replaced":1,"obj":{"a":"z"},
		"disk":[{"size":1,"kind":"a"},{"size":9,"kind":"b"}],"ebs":[{"size":3,"kind":"c"},{"size":8,"kind":"d"}],"root":{"size":5,"kind":"e"}}`
	c := change(t, before, after, `{"computed":true}`, `{}`, `{"became_sensitive":true}`)
	c.ReplacePaths = [][]any{{"replaced"}}
	full := ForResource(c, b, Always())

	var a Arena
	shown := func(name string) bool { return name == "id" || name == "tags" }
	hid := a.ForResourceHidingUnchanged(c, b, Always(), shown)
	// same, obj, the unchanged disk, ebs and root, and the changed disk's
	// kind (a changed set element is a deletion and a creation).
	if got := sameButHidden(t, "resource", full, hid); got != 6 {
		t.Errorf("%d values left unbuilt, want 6", got)
	}
	for _, name := range []string{"id", "tags", "changed", "became_sensitive", "computed", "replaced"} {
		if n := hid.Field(name); n == nil || n.Kind == Unchanged {
			t.Errorf("%s was left unbuilt: it is always shown, changes or forces replacement", name)
		}
	}
	if a.hiding || a.shown != nil {
		t.Error("the arena still hides after the tree is built")
	}
	// Without hiding, the same arena builds everything.
	a.Reset()
	if got := sameButHidden(t, "resource", full, a.ForResource(c, b, Always())); got != 0 {
		t.Errorf("ForResource left %d values unbuilt", got)
	}
}
