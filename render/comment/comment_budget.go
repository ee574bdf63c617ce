package comment

import (
	"slices"

	"github.com/planpr/planpr/render/mask"
	"github.com/planpr/planpr/render/review"
)

// assembleSlack is room kept for what picking diffs changes elsewhere in
// a shortened comment (the counts of what was left out).
const assembleSlack = 256

// fillBudget assembles a shortened comment that fills its budget: first
// what must be there (the title, the warning box, the tables, the lock
// section, every destroyed or replaced change named), then, in order of
// priority while each piece fits, one diff for each group of alike
// changes (the first of each kind of change before the rest, the
// riskiest first: destroys and replacements, updates, creations, reads),
// the other changes' addresses, and last the exact members of every
// group. What it cannot name it counts, and says where the full plan is.
//
// Each piece's size is estimated as it is added, and the comment measured
// after: a comment over its limit gives back the last pieces added until
// it fits. When even what must be there does not fit, the comment
// returned does not fit either, and the caller shortens it to its summary.
func fillBudget(sections []*planSection, o CommentOptions, res *CommentResult, boxLines int, m *mask.Masker) string {
	limit := o.MaxSize // in characters, measured here in bytes: never more
	if o.MaxBytes > 0 {
		limit = min(limit, o.MaxBytes)
	}
	for _, s := range sections {
		s.picked, s.exactAlike, s.someAlike, s.coarse, s.unnamed = nil, map[*diffGroup]bool{}, map[*diffGroup]string{}, map[string]bool{}, map[string]bool{}
		s.listAll, s.outputsHidden, s.driftHidden, s.outputsCut = false, false, false, ""
		s.fullText = o.fullText()
		s.listed = s.listing()
	}
	measure := func() string { return assembleOnce(sections, o, res, LevelReduced, boxLines, m) }
	text := measure()
	for !o.fits(text) { // every destroy named: exactly where it fits; outputs shed first when too many roots
		if !hideLargestOutputs(sections) && !hideLargestDrift(sections) && !coarsenLargestRisky(sections, m) && !hideRisky(sections, len(text)-limit+limit/10, m) {
			return text
		}
		text = measure()
	}
	var undo []func()
	// A diff of each kind of change, the riskiest first.
	pickDiffs(sections, limit, limit-len(text)-assembleSlack, true, m, &undo)
	text = measure()
	// Every other change named in one pattern when that is short (a
	// quarter of the budget at most): a reviewer then knows every address
	// the plan touches before more diffs are spent.
	if listAll(sections, true); len(measure())-len(text) > min(limit/4, limit-len(text)-assembleSlack) {
		listAll(sections, false)
	} else {
		undo = append(undo, func() { listAll(sections, false) })
	}
	text = measure()
	pickDiffs(sections, limit, limit-len(text)-assembleSlack, false, m, &undo)
	text = measure()
	room := limit - len(text) - assembleSlack
	room = listRest(sections, room, m, &undo)
	room = refine(sections, room, m, &undo)
	showSomeOutputs(sections, room, &undo)
	text = measure()
	for !o.fits(text) && len(undo) > 0 {
		undo[len(undo)-1]()
		undo = undo[:len(undo)-1]
		text = measure()
	}
	return text
}

// hideLargestOutputs leaves out the largest output diff of the roots
// (a comment of many roots whose names alone fill it); false when none is
// left.
func hideLargestOutputs(sections []*planSection) bool {
	var largest *planSection
	for _, s := range sections {
		if !s.outputsHidden && s.outputs != "" && (largest == nil || len(s.outputs) > len(largest.outputs)) {
			largest = s
		}
	}
	if largest == nil {
		return false
	}
	largest.outputsHidden = true
	return true
}

// hideLargestDrift leaves out the list of what changed outside the tool
// in the root with the most of it (its count stays); false when none is
// left.
func hideLargestDrift(sections []*planSection) bool {
	var largest *planSection
	for _, s := range sections {
		if !s.driftHidden && len(s.drift) > 0 && (largest == nil || len(s.drift) > len(largest.drift)) {
			largest = s
		}
	}
	if largest == nil {
		return false
	}
	largest.driftHidden = true
	return true
}

// listAll names the changes that need not be named in one pattern each,
// or hides them all (for the budget to list later).
func listAll(sections []*planSection, named bool) {
	for _, s := range sections {
		s.listAll = named
		for _, g := range s.listed {
			if !g.risky() {
				g.mode = listHidden
				if named {
					g.mode = listCoarse
				}
			}
		}
	}
}

// coarsenLargestRisky names the destroyed or replaced changes of the
// group whose exact names are longest in one pattern; false when none is
// left to make shorter.
func coarsenLargestRisky(sections []*planSection, m *mask.Masker) bool {
	var longest *listedGroup
	var in *planSection
	size := 0
	for _, s := range sections {
		for _, g := range s.listed {
			if g.mode != listExact {
				continue
			}
			if n := len(g.memberNames(true, m)); n > size && n > len(g.memberNames(false, m)) {
				longest, in, size = g, s, n
			}
		}
	}
	if longest == nil {
		return false
	}
	longest.mode = listCoarse
	in.coarse[longest.key()] = true
	return true
}

// hideRisky leaves unnamed, from the end of the listing, groups of
// destroyed or replaced changes whose lines add up to overflow bytes, for
// when even their patterns do not fit (the listing then counts them and
// says where they are); false when none is left to hide. The caller
// hides a tenth of the budget more: room for a diff of each kind.
func hideRisky(sections []*planSection, overflow int, m *mask.Masker) bool {
	hid := false
	for i := len(sections) - 1; i >= 0 && overflow > 0; i-- {
		s := sections[i]
		for j := len(s.listed) - 1; j >= 0 && overflow > 0; j-- {
			if g := s.listed[j]; g.risky() && g.mode != listHidden {
				overflow -= len(g.line(m))
				g.mode, s.unnamed[g.key()], hid = listHidden, true, true
			}
		}
	}
	return hid
}

// pickDiffs chooses the diffs a shortened comment of limit characters
// shows within room, from every section, in the order of their groups
// (see groupChanges) but the first of each kind in any section before
// the rest (only those with leadOnly), skipping one that does not fit for
// smaller ones after it.
// The members of a picked group of destroyed or replaced changes are
// named beside its diff as the listing named them: exactly, or in one
// pattern where the budget made the listing do so.
func pickDiffs(sections []*planSection, limit, room int, leadOnly bool, m *mask.Masker, undo *[]func()) {
	type candidate struct {
		s *planSection
		g *diffGroup
	}
	var lead, rest []candidate
	for _, s := range sections {
		l, r := leadFirst(s.repsFor(limit))
		for _, g := range l {
			lead = append(lead, candidate{s, g})
		}
		for _, g := range r {
			rest = append(rest, candidate{s, g})
		}
	}
	candidates := lead
	if !leadOnly {
		candidates = append(lead, rest...)
	}
	for _, c := range candidates {
		if slices.Contains(c.s.picked, c.g) {
			continue
		}
		// Destroyed or replaced members move from the listing to the line
		// beside their diff, named as the listing named them: exactly
		// costs their names only once.
		key := groupKey(c.g.ChangeGroup)
		exact := isRiskyGroup(c.g) && !c.s.coarse[key] && !c.s.unnamed[key]
		cost := len(c.g.rep.LaidOut) + len(alikeLine(c.g, exact, m))
		if exact {
			cost -= len(memberNames(&c.g.Members, true, m))
		}
		if cost <= room {
			s, g := c.s, c.g
			s.picked = append(s.picked, g)
			s.exactAlike[g] = exact
			room -= cost
			*undo = append(*undo, func() {
				s.picked = slices.DeleteFunc(s.picked, func(p *diffGroup) bool { return p == g })
				delete(s.exactAlike, g)
				s.listed = s.listing()
			})
		}
	}
	for _, s := range sections {
		slices.SortStableFunc(s.picked, byRiskAndSize)
		s.listed = s.listing()
	}
}

func isRiskyGroup(g *diffGroup) bool { return review.IsRisky(g.Example.Action) }

// listRest names, in one pattern each and while they fit, the groups of
// changes the listing only counts, in its order. It returns the room
// left.
func listRest(sections []*planSection, room int, m *mask.Masker, undo *[]func()) int {
	for _, s := range sections {
		for _, g := range s.listed {
			if g.mode != listHidden {
				continue
			}
			g.mode = listCoarse
			if cost := len(g.line(m)); cost > room {
				g.mode = listHidden
				continue
			} else {
				room -= cost
			}
			*undo = append(*undo, func() { g.mode = listHidden })
		}
	}
	return room
}

// refine names exactly what room allows, in the comment's order: the
// members of the picked groups, then the listed ones; what it cannot
// name whole it names in part (see someNames), destroyed and replaced
// changes first. It returns the room left.
func refine(sections []*planSection, room int, m *mask.Masker, undo *[]func()) int {
	for _, s := range sections {
		for _, g := range s.picked {
			if s.exactAlike[g] {
				continue
			}
			if d := len(alikeLine(g, true, m)) - len(alikeLine(g, false, m)); d <= room {
				s.exactAlike[g] = true
				room -= d
				*undo = append(*undo, func() { s.exactAlike[g] = false })
			}
		}
	}
	room = nameSome(sections, room, m, undo, true)
	for _, s := range sections {
		for _, g := range s.listed {
			if g.mode != listCoarse || g.risky() {
				continue
			}
			coarse := len(g.line(m))
			g.mode = listExact
			if d := len(g.line(m)) - coarse; d > room {
				g.mode = listCoarse
			} else {
				room -= d
				*undo = append(*undo, func() { g.mode = listCoarse })
			}
		}
	}
	return nameSome(sections, room, m, undo, false)
}

// nameSome names in part the picked and listed groups of destroyed or
// replaced changes (risky) or of the others that are named in one
// pattern, while room lasts; it returns the room left.
func nameSome(sections []*planSection, room int, m *mask.Masker, undo *[]func(), risky bool) int {
	for _, s := range sections {
		for _, g := range s.picked {
			if isRiskyGroup(g) == risky {
				room = s.nameSomeAlike(g, room, m, undo)
			}
		}
		for _, g := range s.listed {
			if g.risky() == risky {
				room = nameSomeListed(g, room, m, undo)
			}
		}
	}
	return room
}
