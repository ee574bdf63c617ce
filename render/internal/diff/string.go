package diff

import (
	"encoding/json"
	"errors"
	"strings"

	"github.com/planpr/planpr/render/tofujson"
)

// evaluated is a string value classified the way OpenTofu's renderer sees
// it: null, JSON text, multi-line text, or a plain one-liner.
type evaluated struct {
	text      string // multi-line text is trimmed of surrounding space
	json      any
	isJSON    bool
	multiline bool
	null      bool
}

func evaluate(x any, nodes *Arena) evaluated {
	s, ok := x.(string)
	if !ok {
		return evaluated{text: "null", null: true}
	}
	if strings.HasPrefix(s, "{") || strings.HasPrefix(s, "[") {
		if j, ok := decodeJSONText(s); ok {
			return evaluated{text: s, json: j, isJSON: true}
		}
	}
	if strings.Contains(s, "\n") {
		return evaluated{text: strings.TrimSpace(s), multiline: true}
	}
	return evaluated{text: s}
}

// decodeJSONText decodes the JSON value a string starts with. Like
// OpenTofu, one JSON value at the start is enough: trailing text after it
// is ignored.
func decodeJSONText(s string) (any, bool) {
	// jsontext is quick, and stricter than encoding/json (invalid UTF-8 and
	// lone surrogates are errors): what it accepts, encoding/json decodes
	// the same way.
	j, err := tofujson.DecodeText(s)
	switch {
	case err == nil:
		return j, true
	case errors.Is(err, tofujson.ErrTooDeep):
		return nil, false // shown as the string it is
	}
	var slow any // not j: decoding into it would allocate j every call
	long := json.NewDecoder(strings.NewReader(s))
	long.UseNumber()
	if err := long.Decode(&slow); err != nil {
		return nil, false
	}
	return tofujson.Objects(slow), true
}

// plainString is the StringDiff of every plain string; nothing changes it.
var plainString = &StringDiff{Form: Plain}

// newString builds the node for a string value changing by action.
func newString(before, after any, action Action, replace bool, nodes *Arena, positional bool) *Node {
	n := nodes.new(Node{Kind: String, Before: before, After: after, Action: action, Replace: replace, Str: plainString})
	switch action {
	case Create, NoOp:
		ev := evaluate(after, nodes)
		switch {
		case ev.isJSON && action == NoOp:
			n.Str = jsonEncoded(ev.json, ev.json, action, nodes, positional)
		case ev.isJSON:
			n.Str = jsonEncoded(nil, ev.json, action, nodes, positional)
		case ev.multiline:
			n.Str = heredoc(ev.text, nodes)
		}
	case Delete:
		ev := evaluate(before, nodes)
		switch {
		case ev.null:
		case ev.isJSON:
			n.Str = jsonEncoded(ev.json, nil, action, nodes, positional)
		case ev.multiline:
			n.Str = heredoc(ev.text, nodes)
		}
	default:
		eb, ea := evaluate(before, nodes), evaluate(after, nodes)
		switch {
		case eb.isJSON && ea.isJSON:
			n.Str = jsonEncoded(eb.json, ea.json, action, nodes, positional)
		case eb.isJSON || ea.isJSON:
			return nodes.new(Node{Kind: TypeChange, Action: action, Replace: replace,
				From: newString(before, nil, Delete, false, nodes, positional), To: newString(nil, after, Create, false, nodes, positional)})
		case eb.multiline || ea.multiline:
			lines, aligned := lineDiff(nodes.splitLines(eb.text), nodes.splitLines(ea.text), positional, nodes)
			n.Str = &StringDiff{Form: Heredoc, Lines: lines, Unaligned: !aligned}
		}
	}
	return n
}

func heredoc(text string, nodes *Arena) *StringDiff {
	sd := &StringDiff{Form: Heredoc, Lines: nodes.newLines(strings.Count(text, "\n") + 1)}
	for l := range strings.SplitSeq(text, "\n") {
		sd.Lines = append(sd.Lines, Line{Action: NoOp, Text: l})
	}
	return sd
}

func lineDiff(before, after []string, positional bool, nodes *Arena) ([]Line, bool) {
	out := nodes.newLines(len(before) + len(after))
	never := func(string, string) bool { return false }
	same := func(a, b string) bool { return a == b }
	aligned := walkSlice(before, after, same, never, positional, func(bi, ai int) {
		switch {
		case bi >= len(before):
			out = append(out, Line{Action: Create, Text: after[ai]})
		case ai >= len(after):
			out = append(out, Line{Action: Delete, Text: before[bi]})
		case before[bi] != after[ai]: // paired by position (Terraform)
			out = append(out, Line{Action: Delete, Text: before[bi]}, Line{Action: Create, Text: after[ai]})
		default:
			out = append(out, Line{Action: NoOp, Text: before[bi]})
		}
	})
	return out, aligned
}

// jsonEncoded diffs the decoded JSON of a string attribute.
func jsonEncoded(before, after any, action Action, nodes *Arena, positional bool) *StringDiff {
	j := forJSON(value{
		before: before, after: after,
		beforeExplicit: action != Create, afterExplicit: action != Delete,
		unknown: false, beforeSensitive: false, afterSensitive: false,
		replace: Paths(nil, false), relevant: Always(), nodes: nodes, positional: positional,
	})
	return &StringDiff{Form: JSONEncoded, JSON: j, Whitespace: j.Action == NoOp && action == Update}
}
