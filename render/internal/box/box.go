// Package box lays out a comment's warning box: kinds of warnings sharing
// a few lines in order of priority, each kind's last line naming what its
// own lines could not hold.
package box

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// Kind is one kind of warning in the box: its lines, in order, and the
// line that stands for those the box has no room for.
type Kind struct {
	Lines []string
	// total is how many things the kind counts (at least len(lines): a
	// line can stand for a group, and a kind may keep only its first few).
	Total int
	// more is the line for the lines from i on that are left out.
	More func(i int) string
}

// cost is how many lines the kind takes with n of its lines shown.
func (k *Kind) cost(n int) int {
	if n < len(k.Lines) || k.Total > len(k.Lines) && n > 0 {
		return n + 1
	}
	return n
}

// LayOut shares maxLines among the kinds, in their order of priority:
// every kind gets a line, then one more each in turn while they fit;
// what a kind cannot show is said by its more line.
func LayOut(kinds []*Kind, maxLines int) []string {
	kinds = slices.DeleteFunc(kinds, func(k *Kind) bool { return len(k.Lines) == 0 })
	shown := make([]int, len(kinds))
	used := 0
	for i, k := range kinds {
		if used+k.cost(1) > maxLines && used > 0 {
			break
		}
		shown[i] = 1
		used += k.cost(1)
	}
	for grew := true; grew; {
		grew = false
		for i, k := range kinds {
			if shown[i] == 0 || shown[i] == len(k.Lines) {
				continue
			}
			if d := k.cost(shown[i]+1) - k.cost(shown[i]); used+d <= maxLines {
				shown[i]++
				used += d
				grew = true
			}
		}
	}
	var out []string
	for i, k := range kinds {
		if shown[i] == 0 {
			continue
		}
		out = append(out, k.Lines[:shown[i]]...)
		if shown[i] < len(k.Lines) || k.Total > len(k.Lines) {
			out = append(out, k.More(shown[i]))
		}
	}
	return out
}

// Risky is a warning for a group of destroyed or replaced changes:
// its line, its name for the more line, and how many changes it stands
// for.
type Risky struct {
	Line, Name string
	Count      int
	Delete     bool
}

// SortRisky orders destroys before replacements, the largest groups
// first.
func SortRisky(risky []Risky) {
	slices.SortStableFunc(risky, func(a, b Risky) int { return cmp.Or(destroysFirst(a, b), b.Count-a.Count) })
}

// destroysFirst orders a destroy before a replacement.
func destroysFirst(a, b Risky) int {
	switch {
	case a.Delete == b.Delete:
		return 0
	case a.Delete:
		return -1
	}
	return 1
}

// CountOf counts the changes the entries stand for.
func CountOf(rs []Risky) int {
	n := 0
	for _, r := range rs {
		n += r.Count
	}
	return n
}

// RiskyMore is the line for the destroyed and replaced changes the box
// has no line for: named inline, destroys first and the ones that stand
// alone before groups, up to maxNames characters, then where the rest
// are named.
func RiskyMore(rest []Risky, total, maxNames int, where string) string {
	rest = slices.Clone(rest)
	slices.SortStableFunc(rest, func(a, b Risky) int { return cmp.Or(destroysFirst(a, b), a.Count-b.Count) })
	var names []string
	size, named := 0, 0
	for _, r := range rest {
		if size+len(r.Name) > maxNames {
			break
		}
		names = append(names, r.Name)
		size += len(r.Name) + 2
		named += r.Count
	}
	line := fmt.Sprintf("- … and %d more destroyed or replaced", total)
	if len(names) > 0 {
		line += ": " + strings.Join(names, ", ")
	}
	if named < total {
		line += "; " + where
	}
	return line
}
