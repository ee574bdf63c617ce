package diff

import (
	"strings"
	"testing"

	"github.com/planpr/planpr/render/tofujson"
	"github.com/zclconf/go-cty/cty"
)

// decode reads JSON the way the plan reader does, numbers kept as text.
func decode(t *testing.T, s string) any {
	t.Helper()
	if s == "" {
		return nil
	}
	v, err := tofujson.DecodeText(s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func change(t *testing.T, before, after, unknown, bs, as string) *tofujson.Change {
	return &tofujson.Change{
		Before: decode(t, before), After: decode(t, after), AfterUnknown: decode(t, unknown),
		BeforeSensitive: decode(t, bs), AfterSensitive: decode(t, as),
	}
}

func block(attrs map[string]cty.Type) *tofujson.Block {
	b := &tofujson.Block{Attributes: map[string]*tofujson.Attribute{}}
	for name, t := range attrs {
		b.Attributes[name] = &tofujson.Attribute{Type: t}
	}
	return b
}

func TestBlockDropsNullAttributesAndTreatsEmptyStringAsNull(t *testing.T) {
	b := block(map[string]cty.Type{"a": cty.String, "b": cty.String, "c": cty.Number})
	n := ForResource(change(t, `{"a":"","b":null,"c":1}`, `{"a":null,"b":"","c":1}`, `{}`, `{}`, `{}`), b, Always())
	if n.Kind != Block || n.Action != NoOp {
		t.Fatalf("got kind %v action %v", n.Kind, n.Action)
	}
	if n.Field("a") != nil {
		t.Error(`"" -> null kept attribute a; both count as null in blocks`)
	}
	if len(n.Children) != 1 || n.Field("c").Action != NoOp {
		t.Errorf("attrs = %v", n.Children)
	}
}

func TestListUsesLongestCommonSubsequence(t *testing.T) {
	b := block(map[string]cty.Type{"l": cty.List(cty.Number)})
	n := ForResource(change(t, `{"l":[1,2,3,4,5,6]}`, `{"l":[1,2,9,4,5,6,7]}`, `{}`, `{}`, `{}`), b, Always())
	l := n.Field("l")
	var got []string
	for _, e := range l.Elements {
		got = append(got, e.Action.String())
	}
	want := "[no-op] [no-op] [delete] [create] [no-op] [no-op] [no-op] [create]"
	if strings.Join(got, " ") != want {
		t.Errorf("element actions %s, want %s", strings.Join(got, " "), want)
	}
	if l.Action != Update || n.Action != Update {
		t.Errorf("list action %v, block action %v", l.Action, n.Action)
	}
}

func TestSetMatchesEqualElements(t *testing.T) {
	b := block(map[string]cty.Type{"s": cty.Set(cty.String)})
	n := ForResource(change(t, `{"s":["a","b","c"]}`, `{"s":["c","d","a"]}`, `{}`, `{}`, `{}`), b, Always())
	var got []string
	for _, e := range n.Field("s").Elements {
		v := e.Before
		if v == nil {
			v = e.After
		}
		got = append(got, e.Action.String()+v.(string))
	}
	// Before order (matched or deleted), then the created ones in after order.
	if want := "[no-op]a [delete]b [no-op]c [create]d"; strings.Join(got, " ") != want {
		t.Errorf("set elements %v, want %s", got, want)
	}
}

func TestSensitiveValuesAreWrappedAndStatusChangesAreUpdates(t *testing.T) {
	b := block(map[string]cty.Type{"p": cty.String, "q": cty.String})
	n := ForResource(change(t, `{"p":"x","q":"y"}`, `{"p":"x","q":"y"}`, `{}`, `{"p":true}`, `{"p":true,"q":true}`), b, Always())
	p, q := n.Field("p"), n.Field("q")
	if p.Kind != Sensitive || p.Action != NoOp {
		t.Errorf("p: kind %v action %v, want an unchanged sensitive value", p.Kind, p.Action)
	}
	if q.Kind != Sensitive || q.Action != Update || q.BeforeSensitive || !q.AfterSensitive {
		t.Errorf("q: %+v, want an update that makes it sensitive", q)
	}
}

func TestUnknownAfterApply(t *testing.T) {
	b := block(map[string]cty.Type{"id": cty.String, "arn": cty.String})
	n := ForResource(change(t, `{"id":"i-1"}`, `{}`, `{"id":true,"arn":true}`, `{}`, `{}`), b, Always())
	id, arn := n.Field("id"), n.Field("arn")
	if id.Kind != Unknown || id.Action != Update || id.Inner == nil || id.Inner.Before != "i-1" {
		t.Errorf("id = %+v, want an update from i-1 to unknown", id)
	}
	if arn.Kind != Unknown || arn.Action != Create || arn.Inner != nil {
		t.Errorf("arn = %+v, want a created unknown", arn)
	}
}

func TestReplacePathsMarkTheAttribute(t *testing.T) {
	b := block(map[string]cty.Type{"ami": cty.String, "size": cty.String})
	c := change(t, `{"ami":"a","size":"s"}`, `{"ami":"b","size":"m"}`, `{}`, `{}`, `{}`)
	c.ReplacePaths = [][]any{{"ami"}}
	n := ForResource(c, b, Always())
	if !n.Field("ami").Replace || n.Field("size").Replace || n.Replace {
		t.Errorf("replace flags: ami %v size %v block %v", n.Field("ami").Replace, n.Field("size").Replace, n.Replace)
	}
}

func TestRelevantAttributesHideOtherDrift(t *testing.T) {
	b := block(map[string]cty.Type{"a": cty.String, "b": cty.String})
	rel := Relevant([]tofujson.ResourceAttr{{Resource: "x.y", Attr: []any{"a"}}, {Resource: "other", Attr: []any{"b"}}}, "x.y")
	n := ForResource(change(t, `{"a":"1","b":"1"}`, `{"a":"2","b":"2"}`, `{}`, `{}`, `{}`), b, rel)
	if n.Field("a").Action != Update || n.Field("b").Action != NoOp {
		t.Errorf("a %v, b %v: only a is relevant", n.Field("a").Action, n.Field("b").Action)
	}
	if Relevant(nil, "x.y") != nil {
		t.Error("no relevant attributes should mean no drift shown")
	}
}

func TestJSONStringsAreDiffedAsJSON(t *testing.T) {
	b := block(map[string]cty.Type{"doc": cty.String})
	n := ForResource(change(t, `{"doc":"{\"a\":1,\"b\":[1]}"}`, `{"doc":"{\"a\":2, \"b\":[1]}"}`, `{}`, `{}`, `{}`), b, Always())
	d := n.Field("doc")
	if d.Str.Form != JSONEncoded || d.Str.JSON.Kind != Object || d.Str.JSON.Field("a").Action != Update || d.Str.JSON.Field("b").Action != NoOp {
		t.Errorf("doc = %+v / %+v", d, d.Str)
	}
	ws := ForResource(change(t, `{"doc":"{\"a\":1}"}`, `{"doc":"{ \"a\": 1 }"}`, `{}`, `{}`, `{}`), b, Always())
	if !ws.Field("doc").Str.Whitespace {
		t.Error("a formatting-only JSON change is not marked as whitespace")
	}
}

func TestHeredocLineDiff(t *testing.T) {
	n := newString("a\nb\nc\n", "a\nB\nc", Update, false, nil, false)
	var got []string
	for _, l := range n.Str.Lines {
		got = append(got, l.Action.String()+l.Text)
	}
	if want := "[no-op]a [delete]b [create]B [no-op]c"; strings.Join(got, " ") != want {
		t.Errorf("lines %v, want %s", got, want)
	}
}

func TestNestedBlocksAndWriteOnly(t *testing.T) {
	b := &tofujson.Block{
		Attributes: map[string]*tofujson.Attribute{
			"secret": {WriteOnly: true, Type: cty.String},
			"name":   {Type: cty.String},
		},
		BlockTypes: map[string]*tofujson.BlockType{
			"rule": {NestingMode: tofujson.NestingSet, Block: block(map[string]cty.Type{"port": cty.Number})},
			"cfg":  {NestingMode: tofujson.NestingMap, Block: block(map[string]cty.Type{"v": cty.String})},
		},
	}
	n := ForResource(change(t, `{"name":"a","rule":[{"port":80}],"cfg":{}}`, `{"name":"b","rule":[{"port":80},{"port":443}],"cfg":{"k":{"v":"x"}}}`, `{}`, `{}`, `{}`), b, Always())
	if n.Field("secret").Kind != WriteOnly || n.Field("secret").Action != Update {
		t.Errorf("write-only attribute = %+v, want it to take the block's update", n.Field("secret"))
	}
	if len(n.Blocks) != 2 || n.Blocks[0].Name != "cfg" || n.Blocks[1].Name != "rule" {
		t.Fatalf("blocks not sorted by name: %+v", n.Blocks)
	}
	if g := n.Blocks[0]; g.Keys[0] != "k" || g.Items[0].Action != Create {
		t.Errorf("map block = %+v", g)
	}
	if g := n.Blocks[1]; len(g.Items) != 2 || g.Items[0].Action != NoOp || g.Items[1].Action != Create {
		t.Errorf("set block = %+v", g)
	}
}

func TestOutputTypeChange(t *testing.T) {
	n := ForOutput(change(t, `"a"`, `["a"]`, `false`, `false`, `false`))
	if n.Kind != TypeChange || n.From.Kind != String || n.To.Kind != List {
		t.Errorf("output = %+v", n)
	}
}
