package diff

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/planpr/planpr/render/tofujson"
	"github.com/zclconf/go-cty/cty"
)

// Trees built in an Arena, one after another with a Reset between, must
// be the trees built without one: every kind of node, enough of them to
// fill several blocks, and sensitive block groups (made outside forBlock).
func TestArenaBuildsTheSameTrees(t *testing.T) {
	b := &tofujson.Block{
		Attributes: map[string]*tofujson.Attribute{
			"doc":  {Type: cty.String},
			"l":    {Type: cty.List(cty.Number)},
			"m":    {Type: cty.Map(cty.String)},
			"dyn":  {Type: cty.DynamicPseudoType},
			"pass": {Type: cty.String},
			"wo":   {WriteOnly: true, Type: cty.String},
		},
		BlockTypes: map[string]*tofujson.BlockType{
			"rule": {NestingMode: tofujson.NestingSet, Block: block(map[string]cty.Type{"port": cty.Number})},
		},
	}
	var changes []*tofujson.Change
	for i := range 40 {
		changes = append(changes, change(t,
			fmt.Sprintf(`{"doc":"{\"a\":%d}","l":[1,2,3],"m":{"k":"v"},"dyn":{"x":[1,{"y":"z"}]},"pass":"p","rule":[{"port":%d}]}`, i, i),
			fmt.Sprintf(`{"doc":"{\"a\":%d,\"b\":[1]}","l":[1,9,3,%d],"m":{"k":"w","n":"x\ny"},"dyn":"s","pass":"q","rule":[{"port":%d},{"port":1}]}`, i+1, i, i),
			`{"m":{"n":true}}`, `{"pass":true,"rule":true}`, `{"pass":true}`))
	}
	var a Arena
	for round := range 2 {
		for i, c := range changes {
			got := a.ForResource(c, b, Always())
			want := ForResource(c, b, Always())
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("round %d, change %d: the arena's tree differs", round, i)
			}
			if i%20 == 19 {
				a.Reset()
			}
		}
		a.Reset()
	}
	if len(a.blocks) < 2 {
		t.Fatalf("the arena used %d blocks; the test means to fill several", len(a.blocks))
	}
	for _, n := range a.blocks[0][:8] {
		if !reflect.DeepEqual(n, Node{}) {
			t.Fatalf("Reset left a node holding %+v", n)
		}
	}
}
