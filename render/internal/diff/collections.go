package diff

import (
	"slices"
)

// objectChildren diffs each attribute of an object (or nested object)
// whose attributes are described by attrs. Attributes null on both sides
// are dropped entirely.
func objectChildren[T any](v value, attrs map[string]T, compute func(value, T, Action) *Node) ([]Field, Action) {
	m := v.asMap()
	action := v.iterationAction()
	out := v.nodes.newFields(len(attrs))
	names := v.nodes.newStrings(len(attrs))
	for name := range attrs {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		c := relevantOrNoOp(m.child(name))
		c.beforeExplicit, c.afterExplicit = false, false
		n := compute(c, attrs[name], action)
		if n.Action == NoOp && c.before == nil && c.after == nil {
			continue
		}
		out = append(out, Field{name, n})
		action = fold(action, n.Action)
	}
	return out, action
}

// mapChildren diffs each key of a map; keys must be sorted.
func mapChildren(m mapValue, keys []string, compute func(value) *Node) ([]Field, Action) {
	action := NoOp
	switch {
	case m.before.o != nil && m.after.o == nil:
		action = Delete
	case m.before.o == nil && m.after.o != nil:
		action = Create
	}
	out := m.nodes.newFields(len(keys))[:len(keys)]
	for i, k := range keys {
		n := compute(m.child(k))
		out[i] = Field{k, n}
		action = fold(action, n.Action)
	}
	return out, action
}

// indexPaired diffs element i before against element i after (nested
// lists and list blocks).
func indexPaired(v value, compute func(value) *Node) ([]*Node, Action) {
	s := v.asSlice()
	action := v.iterationAction()
	var out []*Node
	for i := 0; i < len(s.before) || i < len(s.after); i++ {
		n := compute(relevantOrNoOp(s.child(i, i)))
		out = append(out, n)
		action = fold(action, n.Action)
	}
	return out, action
}

// lcsPaired diffs a list by its longest common subsequence, pairing a
// removed and an added element as one update where shouldDiff says so.
// It reports false when the list was too long and too changed to align
// (see lcs).
func lcsPaired(s sliceValue, shouldDiff func(a, b any) bool, compute func(value) *Node) ([]*Node, Action, bool) {
	action := NoOp
	switch {
	case s.before != nil && s.after == nil:
		action = Delete
	case s.before == nil && s.after != nil:
		action = Create
	}
	out := s.nodes.newNodes(len(s.before) + len(s.after))
	aligned := walkSlice(s.before, s.after, equalJSON, shouldDiff, s.positional, func(bi, ai int) {
		c := s.child(bi, ai)
		// Every element of a relevant list is relevant.
		c.relevant = Always()
		n := compute(c)
		out = append(out, n)
		action = fold(action, n.Action)
	})
	return out, action, aligned
}

// setElements matches each before element with an equal after element;
// matched pairs are unchanged, the rest deleted (in before order) or
// created (in after order).
func setElements(v value, compute func(value) *Node) ([]*Node, Action) {
	s := v.asSlice()
	action := v.iterationAction()
	matchOf := make([]int, len(s.before))
	taken := make([]bool, len(s.after))
	for i := range s.before {
		matchOf[i] = -1
		bs, _ := at(s.beforeSensitive, i)
		for j := range s.after {
			if taken[j] {
				continue
			}
			// What s.child(i, j) would tell, without building it.
			as, _ := at(s.afterSensitive, j)
			u, _ := at(s.unknown, j)
			// No break: OpenTofu marks every equal after element as taken
			// and keeps the last as the match.
			if equalJSON(s.before[i], s.after[j]) && isTrue(bs) == isTrue(as) && !isTrue(u) {
				matchOf[i] = j
				taken[j] = true
			}
		}
	}
	out := v.nodes.newNodes(len(s.before) + len(s.after))
	add := func(c value) {
		c.relevant = Always()
		n := compute(c)
		out = append(out, n)
		action = fold(action, n.Action)
	}
	for i := range s.before {
		if j := matchOf[i]; j >= 0 {
			add(s.child(i, j))
		} else {
			add(s.child(i, len(s.after)))
		}
	}
	for j := range s.after {
		if !taken[j] {
			add(s.child(len(s.before), j))
		}
	}
	return out, action
}
