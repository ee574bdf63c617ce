package diff

import (
	"github.com/planpr/planpr/render/tofujson"
	"github.com/zclconf/go-cty/cty"
)

// forAttribute diffs one attribute of a block or nested object.
// parentAction is the action of the enclosing block so far; write-only
// attributes, whose values are always null, take it as their own.
func forAttribute(v value, attr *tofujson.Attribute, parentAction Action) *Node {
	if attr.WriteOnly {
		if parentAction == NoOp && v.replace.Matches() {
			parentAction = Update
		}
		return v.nodes.new(Node{Kind: WriteOnly, Action: parentAction, Replace: v.replace.Matches()})
	}
	if attr.NestedType != nil {
		return forNested(v, attr.NestedType)
	}
	return forType(v, attr.Type)
}

// forNested diffs a nested attribute type (nested_type).
func forNested(v value, nt *tofujson.NestedType) *Node {
	if n, ok := checkSensitive(v, func(in value) *Node { return forNested(in, nt) }, Sensitive); ok {
		return n
	}
	if n, ok := checkUnknown(v, func() any { return allTrue(nt.Attributes) }, func(in value) *Node { return forNested(in, nt) }); ok {
		return n
	}
	single := &tofujson.NestedType{Attributes: nt.Attributes, NestingMode: tofujson.NestingSingle}
	elem := func(in value) *Node { return forNested(in, single) }
	switch nt.NestingMode {
	case tofujson.NestingList:
		elems, action := indexPaired(v, elem)
		return v.nodes.new(Node{Kind: List, Nested: true, Elements: elems, Action: action, Replace: v.replace.Matches()})
	case tofujson.NestingSet:
		elems, action := setElements(v, elem)
		return v.nodes.new(Node{Kind: Set, Nested: true, Elements: elems, Action: action, Replace: v.replace.Matches()})
	case tofujson.NestingMap:
		m := v.asMap()
		children, action := mapChildren(m, m.explicitKeys(), func(in value) *Node {
			return elem(relevantOrNoOp(in))
		})
		return v.nodes.new(Node{Kind: Map, Nested: true, Children: children, Action: action, Replace: v.replace.Matches()})
	default: // single, group
		children, action := objectChildren(v, nt.Attributes, forAttribute)
		return v.nodes.new(Node{Kind: Object, Nested: true, Children: children, Action: action, Replace: v.replace.Matches()})
	}
}

// forType diffs a value of a plain attribute type.
func forType(v value, t cty.Type) *Node {
	if n, ok := checkSensitive(v, func(in value) *Node { return forType(in, t) }, Sensitive); ok {
		return n
	}
	if n, ok := checkUnknown(v, nil, func(in value) *Node { return forType(in, t) }); ok {
		return n
	}
	switch {
	case t == cty.NilType || t == cty.DynamicPseudoType:
		return forDynamic(v)
	case t == cty.String:
		return newString(v.before, v.after, v.action(), v.replace.Matches(), v.nodes, v.positional)
	case t.IsPrimitiveType():
		return v.nodes.new(Node{Kind: Primitive, Before: v.before, After: v.after, Action: v.action(), Replace: v.replace.Matches()})
	case t.IsObjectType():
		children, action := objectChildren(v, t.AttributeTypes(), func(in value, et cty.Type, _ Action) *Node { return forType(in, et) })
		return v.nodes.new(Node{Kind: Object, Children: children, Action: action, Replace: v.replace.Matches()})
	case t.IsMapType():
		m := v.asMap()
		et := t.ElementType()
		children, action := mapChildren(m, m.allKeys(), func(in value) *Node { return forType(relevantOrNoOp(in), et) })
		return v.nodes.new(Node{Kind: Map, Children: children, Action: action, Replace: v.replace.Matches()})
	case t.IsListType():
		et := t.ElementType()
		s := v.asSlice()
		elems, action, aligned := lcsPaired(s, func(a, b any) bool {
			return et.IsObjectType() || shouldDiffMultiline(a, b)
		}, func(in value) *Node { return forType(in, et) })
		return v.nodes.new(Node{Kind: List, Elements: elems, Action: action, Replace: v.replace.Matches(), Unaligned: !aligned})
	case t.IsTupleType():
		ets := t.TupleElementTypes()
		s := v.asSlice()
		action := v.iterationAction()
		elems := v.nodes.newNodes(len(ets))
		for i, et := range ets {
			e := forType(relevantOrNoOp(s.child(i, i)), et)
			elems = append(elems, e)
			action = fold(action, e.Action)
		}
		return v.nodes.new(Node{Kind: List, Elements: elems, Action: action, Replace: v.replace.Matches()})
	case t.IsSetType():
		et := t.ElementType()
		elems, action := setElements(v, func(in value) *Node { return forType(in, et) })
		return v.nodes.new(Node{Kind: Set, Elements: elems, Action: action, Replace: v.replace.Matches()})
	}
	// Capsule types never appear in provider schemas; show the value as JSON.
	return forDynamic(v)
}

// checkSensitive wraps the diff of a value marked sensitive (on either side)
// in a node of the given kind, computing the hidden inner diff without the
// sensitivity marks.
func checkSensitive(v value, inner func(value) *Node, kind Kind) (*Node, bool) {
	bs, as := v.isBeforeSensitive(), v.isAfterSensitive()
	if !bs && !as {
		return nil, false
	}
	clear := v
	clear.beforeSensitive, clear.afterSensitive = false, false
	in := inner(clear)
	action := in.Action
	nullNoOp := v.before == nil && !v.beforeExplicit && v.after == nil && !v.afterExplicit
	if action == NoOp && bs != as && !nullNoOp {
		action = Update
	}
	return v.nodes.new(Node{Kind: kind, Inner: in, BeforeSensitive: bs, AfterSensitive: as, Action: action, Replace: v.replace.Matches()}), true
}

// checkUnknown turns a value unknown after apply into an Unknown node. An
// update shows the before value as if deleted, with its children marked
// unknown (the mirror childUnknown returns; nil for none) rather than
// deleted.
func checkUnknown(v value, childUnknown func() any, inner func(value) *Node) (*Node, bool) {
	if !v.isUnknown() {
		return nil, false
	}
	v.afterExplicit = true
	n := v.nodes.new(Node{Kind: Unknown, Action: v.action(), Replace: v.replace.Matches()})
	if v.before != nil {
		before := v.asDelete()
		before.unknown = false
		if childUnknown != nil {
			before.unknown = childUnknown()
		}
		n.Inner = inner(before)
	}
	return n, true
}

// allTrue is an unknown mirror marking every attribute unknown.
func allTrue[T any](m map[string]T) tofujson.Object {
	out := make(tofujson.Object, 0, len(m))
	for k := range m {
		out = append(out, tofujson.Member{Name: k, Value: true})
	}
	return tofujson.Sorted(out)
}

// relevantOrNoOp shows values outside the relevant attributes (drift) as
// unchanged.
func relevantOrNoOp(v value) value {
	if !v.relevant.MatchesPartial() {
		return v.asNoOp()
	}
	return v
}
