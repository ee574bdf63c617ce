package diff

import (
	"encoding/json"

	"github.com/planpr/planpr/render/tofujson"
)

// forDynamic diffs a value whose type the schema does not give (outputs,
// "dynamic" attributes): the shape of the JSON decides.
func forDynamic(v value) *Node {
	if n, ok := checkSensitive(v, forDynamic, Sensitive); ok {
		return n
	}
	if n, ok := checkUnknown(v, nil, forDynamic); ok {
		return n
	}
	return forJSON(v)
}

type jsonKind uint8

const (
	jsonNull jsonKind = iota
	jsonBool
	jsonNumber
	jsonString
	jsonArray
	jsonObject
)

func kindOf(x any) jsonKind {
	switch x.(type) {
	case bool:
		return jsonBool
	case json.Number, float64:
		return jsonNumber
	case string:
		return jsonString
	case []any:
		return jsonArray
	case tofujson.Object:
		return jsonObject
	}
	return jsonNull
}

// forJSON diffs two generic JSON values. Nothing below this point can
// force a replacement: replace paths do not reach into JSON.
func forJSON(v value) *Node {
	if n, ok := checkSensitive(v, forJSON, Sensitive); ok {
		n.Replace = false
		return n
	}
	if v.isUnknown() {
		if v.before == nil {
			return v.nodes.new(Node{Kind: Unknown, Action: Create})
		}
		before := v.asDelete()
		before.unknown = false
		return v.nodes.new(Node{Kind: Unknown, Action: Update, Inner: forJSON(before)})
	}
	bk, ak := kindOf(v.before), kindOf(v.after)
	deleted := ak == jsonNull && !v.afterExplicit
	created := bk == jsonNull && !v.beforeExplicit
	if bk == ak || created || deleted {
		k := bk
		if k == jsonNull {
			k = ak
		}
		return jsonOfKind(v, k)
	}
	return v.nodes.new(Node{Kind: TypeChange, Action: Update, From: jsonOfKind(v.asDelete(), bk), To: jsonOfKind(v.asCreate(), ak)})
}

func jsonOfKind(v value, k jsonKind) *Node {
	switch k {
	case jsonObject:
		m := v.asMap()
		children, action := mapChildren(m, m.allKeys(), func(in value) *Node { return forJSON(relevantOrNoOp(in)) })
		return v.nodes.new(Node{Kind: Object, Children: children, Action: action})
	case jsonArray:
		s := v.asSlice()
		elems, action := lcsPaired(s, func(a, b any) bool {
			return (kindOf(a) == jsonObject && kindOf(b) == jsonObject) || shouldDiffMultiline(a, b)
		}, forJSON)
		return v.nodes.new(Node{Kind: List, Elements: elems, Action: action})
	}
	action := Update
	beforeMissing := v.before == nil && !v.beforeExplicit
	afterMissing := v.after == nil && !v.afterExplicit
	switch {
	case beforeMissing && !afterMissing:
		action = Create
	case !beforeMissing && afterMissing:
		action = Delete
	case equalJSON(v.before, v.after):
		action = NoOp
	}
	if k == jsonString {
		return newString(v.before, v.after, action, false, v.nodes)
	}
	return v.nodes.new(Node{Kind: Primitive, Before: v.before, After: v.after, Action: action})
}
