package render

import (
	"github.com/planpr/planpr/render/mask"
	"github.com/planpr/planpr/render/review"
)

// someNames names as many of ms as fit in room, the rest in one pattern
// (review.Members.NamedWithin): for a group too large to name exactly in
// what is left of the budget. Destroyed and replaced changes are named so
// first: a reviewer reads which records go before anything else.
func someNames(ms *review.Members, room int, m *mask.Masker) string {
	return ms.NamedWithin(room, func(s string) string { return safeCode(m, s) })
}

// nameSomeAlike names some of a picked group's other members within
// room more than its line in one pattern takes; it returns the room left.
func (s *planSection) nameSomeAlike(g *diffGroup, room int, m *mask.Masker, undo *[]func()) int {
	if g.Count < 2 || s.exactAlike[g] || s.someAlike[g] != "" {
		return room
	}
	coarse := alikeLine(g, false, m)
	names := someNames(alikeMembers(g), room+len(coarse)-len(alikeHead(g))-len(alikeTail), m)
	if names == "" {
		return room
	}
	s.someAlike[g] = alikeHead(g) + names + alikeTail
	*undo = append(*undo, func() { delete(s.someAlike, g) })
	return room - (len(s.someAlike[g]) - len(coarse))
}

// nameSomeListed names some of a listed group's members within room more
// than its line in one pattern takes; it returns the room left.
func nameSomeListed(g *listedGroup, room int, m *mask.Masker, undo *[]func()) int {
	if g.mode != listCoarse {
		return room
	}
	coarse := len(g.line(m))
	if g.some = someNames(&g.Members, room+coarse-len(g.lineWith("")), m); g.some == "" {
		return room
	}
	g.mode = listSome
	*undo = append(*undo, func() { g.mode, g.some = listCoarse, "" })
	return room - (len(g.line(m)) - coarse)
}
