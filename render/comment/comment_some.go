package comment

import (
	"fmt"
	"strings"

	"github.com/planpr/planpr/render/internal/words"
	"github.com/planpr/planpr/render/mask"
	"github.com/planpr/planpr/render/md"
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

// outputsLeftOut stands for output changes a shortened comment has no
// room for.
const outputsLeftOut = "_Changes to outputs: left out to fit._\n\n"

// showSomeOutputs shows, in what room is left once everything else is in,
// the first changes of the outputs the budget left out, and how many more.
func showSomeOutputs(sections []*planSection, room int, undo *[]func()) int {
	for _, s := range sections {
		if !s.outputsHidden || s.outputs == "" {
			continue
		}
		lines := strings.SplitAfter(s.outputs, "\n")
		var starts []int // the lines where an output's change begins: "  + name = …"
		for i, l := range lines {
			if len(l) > 2 && l[0] == ' ' && l[1] == ' ' && l[2] != ' ' {
				starts = append(starts, i)
			}
		}
		show := func(k int) string { // the first k of them
			more := fmt.Sprintf("_… and %s, all in %s._\n\n", words.Count(len(starts)-k, "more output change"), s.fullText)
			return "#### Changes to outputs\n\n" + md.DiffBlock(strings.Join(lines[:starts[k]], "")) + "\n" + more
		}
		k, fits := 0, func(k int) bool { return len(show(k))-len(outputsLeftOut) <= room }
		for lo, hi := 1, len(starts)-1; lo <= hi; { // the most that fit
			if mid := (lo + hi) / 2; fits(mid) {
				k, lo = mid, mid+1
			} else {
				hi = mid - 1
			}
		}
		if k > 0 {
			s.outputsCut = show(k)
			room -= len(s.outputsCut) - len(outputsLeftOut)
			*undo = append(*undo, func() { s.outputsCut = "" })
		}
	}
	return room
}
