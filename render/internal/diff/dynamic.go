package diff

import "github.com/planpr/planpr/render/tofujson"

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
	bk, ak := tofujson.KindOf(v.before), tofujson.KindOf(v.after)
	deleted := ak == tofujson.KindNull && !v.afterExplicit
	created := bk == tofujson.KindNull && !v.beforeExplicit
	if bk == ak || created || deleted {
		k := bk
		if k == tofujson.KindNull {
			k = ak
		}
		return jsonOfKind(v, k)
	}
	return v.nodes.new(Node{Kind: TypeChange, Action: Update, From: jsonOfKind(v.asDelete(), bk), To: jsonOfKind(v.asCreate(), ak)})
}

func jsonOfKind(v value, k tofujson.ValueKind) *Node {
	switch k {
	case tofujson.KindObject:
		m := v.asMap()
		children, action := mapChildren(m, m.allKeys(), func(in value) *Node { return forJSON(relevantOrNoOp(in)) })
		return v.nodes.new(Node{Kind: Object, Children: children, Action: action})
	case tofujson.KindArray:
		s := v.asSlice()
		elems, action, aligned := lcsPaired(s, func(a, b any) bool {
			return (tofujson.KindOf(a) == tofujson.KindObject && tofujson.KindOf(b) == tofujson.KindObject) || shouldDiffMultiline(a, b)
		}, forJSON)
		return v.nodes.new(Node{Kind: List, Elements: elems, Action: action, Unaligned: !aligned})
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
	if k == tofujson.KindString {
		return newString(v.before, v.after, action, false, v.nodes, v.positional)
	}
	return v.nodes.new(Node{Kind: Primitive, Before: v.before, After: v.after, Action: action})
}
