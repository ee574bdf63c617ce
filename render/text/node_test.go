package text

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/planpr/planpr/render/internal/diff"
)

func text(n *diff.Node, o Opts) string {
	var b Buf
	Node(&b, n, 0, o)
	return b.String()
}

func str(a diff.Action, before, after any) *diff.Node {
	return &diff.Node{Kind: diff.String, Action: a, Before: before, After: after, Str: &diff.StringDiff{}}
}

func num(a diff.Action, before, after string) *diff.Node {
	n := &diff.Node{Kind: diff.Primitive, Action: a}
	if before != "" {
		n.Before = json.Number(before)
	}
	if after != "" {
		n.After = json.Number(after)
	}
	return n
}

func TestTextBlockByHand(t *testing.T) {
	tree := &diff.Node{Kind: diff.Block, Action: diff.Update, Children: fields(map[string]*diff.Node{
		"id":        str(diff.NoOp, "i-1", "i-1"),
		"size":      num(diff.Update, "1", "2"),
		"unchanged": str(diff.NoOp, "x", "x"),
		"gone":      str(diff.Delete, "old", nil),
		"secret":    {Kind: diff.Sensitive, Action: diff.Update, Inner: str(diff.NoOp, "s", "s"), AfterSensitive: true},
		"weird key": {Kind: diff.Unknown, Action: diff.Create},
	}), Blocks: []*diff.BlockGroup{{Name: "disk", Mode: "list", Items: []*diff.Node{
		{Kind: diff.Block, Action: diff.Create, Children: fields(map[string]*diff.Node{"gb": num(diff.Create, "", "10")}), Replace: true},
		{Kind: diff.Block, Action: diff.NoOp, Children: fields(map[string]*diff.Node{"gb": num(diff.NoOp, "5", "5")})},
	}}}}
	want := `{
      - gone        = "old" -> null
        id          = "i-1"
      # Warning: this attribute value will be marked as sensitive and will not
      # display in UI output after applying this change. The value is unchanged.
      ~ secret      = (sensitive value)
      ~ size        = 1 -> 2
      + "weird key" = (known after apply)
        # (1 unchanged attribute hidden)

      + disk { # forces replacement
          + gb = 10
        }

        # (1 unchanged block hidden)
    }`
	got := text(tree, Opts{})
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

func TestTextListContext(t *testing.T) {
	var elems []*diff.Node
	for _, e := range []struct {
		a    diff.Action
		b, v string
	}{{diff.NoOp, "1", "1"}, {diff.NoOp, "2", "2"}, {diff.Delete, "3", ""}, {diff.Create, "", "9"}, {diff.NoOp, "4", "4"}, {diff.NoOp, "5", "5"}, {diff.NoOp, "6", "6"}, {diff.Create, "", "7"}} {
		elems = append(elems, num(e.a, e.b, e.v))
	}
	got := text(&diff.Node{Kind: diff.List, Action: diff.Update, Elements: elems}, Opts{})
	want := `[
        # (1 unchanged element hidden)
        2,
      - 3,
      + 9,
        4,
        # (1 unchanged element hidden)
        6,
      + 7,
    ]`
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

func TestTextHeredocAndJSONString(t *testing.T) {
	h := &diff.Node{Kind: diff.String, Action: diff.Delete, Before: "a\nb", Str: &diff.StringDiff{Form: diff.Heredoc,
		Lines: []diff.Line{{Action: diff.NoOp, Text: "a"}, {Action: diff.NoOp, Text: "b"}}}}
	if got, want := text(h, Opts{}), "<<-EOT\n        a\n        b\n    EOT -> null"; got != want {
		t.Errorf("heredoc got %q, want %q", got, want)
	}
	j := &diff.Node{Kind: diff.String, Action: diff.Create, After: `{"a":1}`, Str: &diff.StringDiff{Form: diff.JSONEncoded,
		JSON: &diff.Node{Kind: diff.Object, Action: diff.Create, Children: fields(map[string]*diff.Node{"a": num(diff.Create, "", "1")})}}}
	if got, want := text(j, Opts{}), "jsonencode(\n        {\n          + a = 1\n        }\n    )"; got != want {
		t.Errorf("jsonencode got %q, want %q", got, want)
	}
}

func TestTextMapQuotesAndAlignsKeys(t *testing.T) {
	m := &diff.Node{Kind: diff.Map, Action: diff.Update, Children: fields(map[string]*diff.Node{
		"a":    str(diff.Delete, "x", nil),
		"long": str(diff.Create, nil, "y"),
	})}
	if got, want := text(m, Opts{}), "{\n      - \"a\"    = \"x\" -> null\n      + \"long\" = \"y\"\n    }"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestTextForgetHidesSymbols(t *testing.T) {
	b := &diff.Node{Kind: diff.Block, Action: diff.Delete, Children: fields(map[string]*diff.Node{"id": str(diff.Delete, "i-1", nil)})}
	if got, want := text(b, Opts{HideSymbols: true, overrideNullSuffix: true}), "{\n    id = \"i-1\"\n}"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestQuotedStringsUseGoEscaping(t *testing.T) {
	if got := primitiveText("tab\there \"q\" \x01 é"); got != `"tab\there \"q\" \x01 é"` {
		t.Errorf("got %s", got)
	}
}

func TestValidIdentifierMatchesHCL(t *testing.T) {
	for _, s := range []string{"a", "a_b", "a-b", "_x", "x1", "1x", "-x", "a.b", "", "a b", "é", "aé", "über", "a\u200b", "A-9_z"} {
		if got, want := validIdentifier(s), hclsyntax.ValidIdentifier(s); got != want {
			t.Errorf("validIdentifier(%q) = %v, hcl says %v", s, got, want)
		}
	}
}

// The JSON of a jsonencode() value is written in place on the strength of
// spansLines' guess; a guess that turns out wrong must not change the text.
func TestTextJSONStringWhateverTheLineGuess(t *testing.T) {
	jsonString := func(inner *diff.Node) *diff.Node {
		return &diff.Node{Kind: diff.String, Action: diff.Create, Str: &diff.StringDiff{Form: diff.JSONEncoded, JSON: inner}}
	}
	// spansLines says a Block fits on one line (JSON has no blocks), but
	// this one does not.
	block := &diff.Node{Kind: diff.Block, Action: diff.Create, Children: fields(map[string]*diff.Node{"a": num(diff.Create, "", "1")})}
	got := "x = " + text(jsonString(block), Opts{})
	want := "x = jsonencode(\n        {\n          + a = 1\n        }\n    )"
	if got != want {
		t.Errorf("multi-line value guessed single-line:\n%s\nwant\n%s", got, want)
	}
	// And a primitive, correctly guessed, stays on the line.
	if got, want := text(jsonString(num(diff.Create, "", "2")), Opts{}), "jsonencode(2)"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// fields lists a node's children in the order diff gives them: by name.
func fields(m map[string]*diff.Node) []diff.Field {
	out := make([]diff.Field, 0, len(m))
	for name, n := range m {
		out = append(out, diff.Field{Name: name, Node: n})
	}
	slices.SortFunc(out, func(a, b diff.Field) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// TestUnalignedListSaysSo: a list or heredoc the aligner gave up on says
// so in the text, where the reviewer reads it.
func TestUnalignedListSaysSo(t *testing.T) {
	list := &diff.Node{Kind: diff.List, Action: diff.Update, Unaligned: true, Elements: []*diff.Node{
		str(diff.Delete, "a", nil), str(diff.Create, nil, "b"),
	}}
	want := "[\n        " + unalignedNote + "\n      - \"a\",\n      + \"b\",\n    ]"
	if got := text(list, Opts{}); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	heredoc := &diff.Node{Kind: diff.String, Action: diff.Update, Str: &diff.StringDiff{Form: diff.Heredoc, Unaligned: true,
		Lines: []diff.Line{{Action: diff.Delete, Text: "a"}, {Action: diff.Create, Text: "b"}}}}
	if got := text(heredoc, Opts{}); !strings.HasSuffix(got, "EOT "+unalignedNote) {
		t.Errorf("heredoc: %q", got)
	}
}
