package diff

import (
	"slices"

	"github.com/planpr/planpr/render/tofujson"
)

// value is one point of a change being walked: the before and after values
// with their metadata mirrors (unknown, sensitive), and the path matchers
// for replacement and relevance.
type value struct {
	before, after                 any
	beforeExplicit, afterExplicit bool
	unknown                       any
	beforeSensitive               any
	afterSensitive                any
	replace                       Matcher
	relevant                      Matcher
	nodes                         *Arena // where the nodes of the tree come from
	// positional is Terraform's rule for lists: elements of lists of the
	// same length, not reordered, are compared position by position.
	positional bool
}

func (v value) isUnknown() bool         { return isTrue(v.unknown) }
func (v value) isBeforeSensitive() bool { return isTrue(v.beforeSensitive) }
func (v value) isAfterSensitive() bool  { return isTrue(v.afterSensitive) }

// isTrue reads a mark of a metadata mirror: only true marks.
func isTrue(mark any) bool { b, _ := mark.(bool); return b }

// unchanged reports whether v diffs to NoOp all the way down: the same
// values on both sides, present on both or neither, marked sensitive
// alike, nothing unknown, and no replace path through it.
func (v value) unchanged() bool {
	return v.beforeExplicit == v.afterExplicit && !tofujson.AnyTrue(v.unknown) && !v.replace.MatchesPartial() &&
		equalJSON(v.beforeSensitive, v.afterSensitive) && equalJSON(v.before, v.after)
}

// action guesses the action for a leaf value from its two sides.
func (v value) action() Action {
	if v.before == nil && !v.beforeExplicit && (v.after != nil || v.afterExplicit) {
		return Create
	}
	if v.after == nil && !v.afterExplicit && (v.before != nil || v.beforeExplicit) {
		return Delete
	}
	if equalJSON(v.before, v.after) && v.afterExplicit == v.beforeExplicit && v.isAfterSensitive() == v.isBeforeSensitive() {
		return NoOp
	}
	return Update
}

// iterationAction is the starting action for a collection, object or
// block, before its children are folded in with fold.
func (v value) iterationAction() Action {
	switch {
	case v.before == nil && v.after == nil:
		return NoOp
	case v.before == nil:
		return Create
	case v.after == nil:
		return Delete
	}
	return NoOp
}

// fold combines a container's action with one child's.
func fold(cur, next Action) Action {
	if next == NoOp {
		return cur
	}
	if cur != next {
		return Update
	}
	return cur
}

func (v value) asNoOp() value {
	return value{
		before: v.before, after: v.before,
		beforeExplicit: v.beforeExplicit, afterExplicit: v.beforeExplicit,
		unknown:         false,
		beforeSensitive: v.beforeSensitive, afterSensitive: v.beforeSensitive,
		replace: v.replace, relevant: v.relevant, nodes: v.nodes, positional: v.positional,
	}
}

func (v value) asDelete() value {
	return value{
		before: v.before, beforeExplicit: v.beforeExplicit,
		beforeSensitive: v.beforeSensitive,
		replace:         v.replace, relevant: v.relevant, nodes: v.nodes, positional: v.positional,
	}
}

func (v value) asCreate() value {
	return value{
		after: v.after, afterExplicit: v.afterExplicit,
		unknown: v.unknown, afterSensitive: v.afterSensitive,
		replace: v.replace, relevant: v.relevant, nodes: v.nodes, positional: v.positional,
	}
}

// asMap views the value as an object or map.
func (v value) asMap() mapValue {
	side := func(x any) cursor { return cursor{o: tofujson.AsObject(x)} }
	return mapValue{
		before: side(v.before), after: side(v.after), unknown: side(v.unknown),
		beforeSensitive: side(v.beforeSensitive), afterSensitive: side(v.afterSensitive),
		replace: v.replace, relevant: v.relevant, nodes: v.nodes, positional: v.positional,
	}
}

type mapValue struct {
	before, after, unknown, beforeSensitive, afterSensitive cursor
	replace, relevant                                       Matcher
	nodes                                                   *Arena
	positional                                              bool
}

// child is the value at key. Keys asked for in order (as schemas and
// sorted keys give them) are found by stepping forward through each side.
func (m *mapValue) child(key string) value {
	b, bok := m.before.get(key)
	a, aok := m.after.get(key)
	u, _ := m.unknown.get(key)
	bs, _ := m.beforeSensitive.get(key)
	as, _ := m.afterSensitive.get(key)
	return value{
		before: b, after: a, beforeExplicit: bok, afterExplicit: aok,
		unknown: u, beforeSensitive: bs, afterSensitive: as,
		replace: m.replace.Key(key), relevant: m.relevant.Key(key), nodes: m.nodes, positional: m.positional,
	}
}

// cursor looks names up in an Object, stepping forward from the last name
// found: a walk in name order costs one pass over the members.
type cursor struct {
	o  tofujson.Object
	at int // o[:at] are named at or before the last name asked for
}

func (c *cursor) get(name string) (any, bool) {
	o, i := c.o, c.at
	if i < len(o) && o[i].Name == name { // the next member: the usual case
		c.at = i + 1
		return o[i].Value, true
	}
	if i > 0 && o[i-1].Name >= name {
		// Asked again or out of order: find the place again.
		i, _ = o[:i].Index(name)
	}
	for ; i < len(o); i++ {
		if o[i].Name == name {
			c.at = i + 1
			return o[i].Value, true
		}
		if o[i].Name > name {
			break
		}
	}
	c.at = i
	return nil, false
}

// explicitKeys are the keys of the before and after values.
func (m *mapValue) explicitKeys() []string {
	return m.nodes.unionKeys(m.before.o, m.after.o)
}

// allKeys also includes keys that only the unknown or sensitive mirrors
// mention.
func (m *mapValue) allKeys() []string {
	return m.nodes.unionKeys(m.before.o, m.after.o, m.unknown.o, m.afterSensitive.o, m.beforeSensitive.o)
}

// unionKeys merges the objects' names, sorted, in a slice from a when a
// is not nil.
func (a *Arena) unionKeys(objects ...tofujson.Object) []string {
	n := 0
	for _, o := range objects {
		n = max(n, len(o))
	}
	keys := a.newStrings(n)
	for _, o := range objects {
		if len(keys) == 0 {
			for _, m := range o {
				keys = append(keys, m.Name)
			}
			continue
		}
		for _, m := range o {
			if i, found := slices.BinarySearch(keys, m.Name); !found {
				keys = slices.Insert(keys, i, m.Name)
			}
		}
	}
	return keys
}

// asSlice views the value as a list, set or tuple.
func (v value) asSlice() sliceValue {
	return sliceValue{
		before: toSlice(v.before), after: toSlice(v.after), unknown: toSlice(v.unknown),
		beforeSensitive: toSlice(v.beforeSensitive), afterSensitive: toSlice(v.afterSensitive),
		replace: v.replace, relevant: v.relevant, nodes: v.nodes, positional: v.positional,
	}
}

type sliceValue struct {
	before, after, unknown, beforeSensitive, afterSensitive []any
	replace, relevant                                       Matcher
	nodes                                                   *Arena
	positional                                              bool
}

// child pairs before[bi] with after[ai]; an index out of range means that
// side is absent.
func (s sliceValue) child(bi, ai int) value {
	b, bok := at(s.before, bi)
	a, aok := at(s.after, ai)
	u, _ := at(s.unknown, ai)
	bs, _ := at(s.beforeSensitive, bi)
	as, _ := at(s.afterSensitive, ai)
	idx := bi
	if bi < 0 || bi >= len(s.before) {
		idx = ai
	}
	return value{
		before: b, after: a, beforeExplicit: bok, afterExplicit: aok,
		unknown: u, beforeSensitive: bs, afterSensitive: as,
		replace: s.replace.Index(idx), relevant: s.relevant.Index(idx), nodes: s.nodes, positional: s.positional,
	}
}

func at(xs []any, i int) (any, bool) {
	if xs == nil || i < 0 || i >= len(xs) {
		return nil, false
	}
	return xs[i], true
}

func toSlice(x any) []any { s, _ := x.([]any); return s }
