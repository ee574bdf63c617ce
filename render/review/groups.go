package review

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/planpr/planpr/render/diff"
)

// A ChangeGroup is changes that say the same thing of instances of one
// resource: one action, one reason, one cause of replacement, at
// addresses that differ only in their indexes (count numbers, for_each
// keys, module instances). 300 replacements of terraform_data.fleet[i]
// are one group: a reviewer reads one line, not 300.
type ChangeGroup struct {
	Example ChangeSummary // the first member: the action, reason, replace paths
	Parts   []string      // the address split around its indexes: Parts[i] then index i
	Indexes [][]string    // each member's indexes (up to maxGroupMembers)
	Count   int
}

// maxGroupMembers bounds the indexes a group keeps; the rest are counted.
const maxGroupMembers = 10_000

// maxGroups bounds the groups a plan keeps; the changes past it are
// counted only (in Stats.Risky).
const maxGroups = 1000

// groups collects changes into groups, keeping their order of appearance.
type groups struct {
	list  []*ChangeGroup
	byKey map[string]*ChangeGroup
}

// add puts c in its group; past maxGroups, a change of a new group is
// left out.
func (gs *groups) add(c ChangeSummary) {
	parts, idx := SplitIndexes(c.Address)
	key := groupKey(c, parts)
	g := gs.byKey[key]
	if g == nil {
		if len(gs.list) == maxGroups {
			return
		}
		if gs.byKey == nil {
			gs.byKey = map[string]*ChangeGroup{}
		}
		g = &ChangeGroup{Example: c, Parts: parts}
		gs.byKey[key] = g
		gs.list = append(gs.list, g)
	}
	g.Count++
	if len(g.Indexes) < maxGroupMembers {
		g.Indexes = append(g.Indexes, idx)
	}
}

// groupKey is what members of a group share.
func groupKey(c ChangeSummary, parts []string) string {
	kind := "replace"
	if c.Action == diff.Delete {
		kind = "delete"
	}
	return fmt.Sprintf("%s\x00%s\x00%s\x00%v", strings.Join(parts, "[*]"), kind, c.Reason, c.ReplacePaths)
}

// SplitIndexes splits an address around its instance indexes:
// module.app[3].x.web["a"] is parts ["module.app", ".x.web", ""] and
// indexes ["3", `"a"`]. Brackets inside quoted keys are not indexes.
func SplitIndexes(address string) (parts, indexes []string) {
	start := 0
	for i := 0; i < len(address); i++ {
		if address[i] != '[' {
			continue
		}
		end := indexEnd(address, i)
		if end < 0 {
			break
		}
		parts = append(parts, address[start:i])
		indexes = append(indexes, address[i+1:end])
		start = end + 1
		i = end
	}
	return append(parts, address[start:]), indexes
}

// indexEnd is the position of the "]" closing the index that opens at i,
// or -1.
func indexEnd(s string, i int) int {
	inQuote := false
	for j := i + 1; j < len(s); j++ {
		switch {
		case inQuote && s[j] == '\\':
			j++
		case s[j] == '"':
			inQuote = !inQuote
		case s[j] == ']' && !inQuote:
			return j
		}
	}
	return -1
}

// Address is how the group is named: its address with each index that
// all members share, consecutive numbers as ranges at the last index
// (fleet[0..299], web[0..12,20..31]), and * where members differ otherwise.
// A group of one is its member's address.
func (g *ChangeGroup) Address() string {
	var b strings.Builder
	for i, part := range g.Parts {
		b.WriteString(part)
		if i == len(g.Parts)-1 {
			break
		}
		b.WriteString("[" + g.indexAt(i, i == len(g.Parts)-2) + "]")
	}
	return b.String()
}

// indexAt names index i of the members: the shared value, ranges of
// numbers (for the last index), or *.
func (g *ChangeGroup) indexAt(i int, last bool) string {
	var values []string
	for _, idx := range g.Indexes {
		if i < len(idx) && !slices.Contains(values, idx[i]) {
			values = append(values, idx[i])
		}
	}
	if len(values) == 1 && g.Count == len(g.Indexes) {
		return values[0]
	}
	if !last {
		return "*"
	}
	nums := make([]int, 0, len(values))
	for _, v := range values {
		n, err := strconv.Atoi(v)
		if err != nil {
			return "*"
		}
		nums = append(nums, n)
	}
	if g.Count != len(g.Indexes) {
		return "*" // not every member is known
	}
	return ranges(nums)
}

// ranges writes numbers as comma-separated runs: 0..3,7,9..10.
func ranges(nums []int) string {
	slices.Sort(nums)
	var parts []string
	for i := 0; i < len(nums); {
		j := i
		for j+1 < len(nums) && nums[j+1] == nums[j]+1 {
			j++
		}
		if j == i {
			parts = append(parts, strconv.Itoa(nums[i]))
		} else {
			parts = append(parts, strconv.Itoa(nums[i])+".."+strconv.Itoa(nums[j]))
		}
		i = j + 1
	}
	if len(parts) > 8 {
		return "*" // too scattered to read
	}
	return strings.Join(parts, ",")
}
