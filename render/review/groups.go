package review

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/planpr/planpr/render/internal/diff"
)

// A ChangeGroup is changes that say the same thing of instances of one
// resource: 300 replacements of terraform_data.fleet[i] for one reason
// are one group, and a reviewer reads one line, not 300. What "the same"
// means is the key the group was made with (see Groups.Add).
type ChangeGroup struct {
	Example ChangeSummary // the first member: the action, reason, replace paths
	Members
}

// Members are instances of one resource (or of resources in instances of
// one module), named together: their address split around its indexes
// (Parts[i], then index i) and each member's indexes.
type Members struct {
	Parts   []string
	Indexes [][]string // each member's indexes (up to maxGroupMembers)
	Count   int
	// Bare marks the indexes that are numbers in a name (junk_0042), not
	// instance keys: one value is written without brackets, several as
	// junk_[0000..2999].
	Bare []bool
	// address is Address once made (a shortened comment asks for it
	// each time it is measured); Add forgets it.
	address *string
}

// maxGroupMembers bounds the indexes a group keeps; the rest are counted.
const maxGroupMembers = 10_000

// maxRiskyGroups bounds the groups of destroyed and replaced changes a plan
// keeps; the changes past it are counted only (in Stats.Risky).
const maxRiskyGroups = 1000

// Groups collects changes into groups, keeping their order of appearance.
type Groups struct {
	// Limit bounds the groups kept (none when 0): past it, a change of a
	// new group is left out.
	Limit int
	List  []*ChangeGroup
	byKey map[string]*ChangeGroup
}

// Add puts c in the group of the changes at its address (indexes aside)
// with the same key, and returns the group (nil when left out) and whether
// c is its first member.
func (gs *Groups) Add(key string, c ChangeSummary) (*ChangeGroup, bool) {
	a := SplitAddress(c.Address)
	return gs.AddSplit(key, c, &a)
}

// SplitAt is an address split around its indexes and numbers in names
// (see SplitNumbered), with the pattern that all its instances share:
// what Groups.Add works out for every change, kept by a caller that
// groups the same changes more than once.
type SplitAt struct {
	Parts, Indexes []string
	Bare           []bool
	Pattern        string
}

// SplitAddress splits an address for AddSplit.
func SplitAddress(address string) SplitAt {
	parts, idx, bare := SplitNumbered(address)
	var shape strings.Builder
	shape.Grow(len(address) + 8)
	for i, p := range parts {
		shape.WriteString(p)
		if i < len(bare) && bare[i] {
			shape.WriteString("#")
		} else if i < len(idx) {
			shape.WriteString("[*]")
		}
	}
	return SplitAt{Parts: parts, Indexes: idx, Bare: bare, Pattern: shape.String()}
}

// Patterns number the patterns of split addresses: a caller that keeps
// thousands of split addresses keeps each change's indexes and its
// pattern's number (a plan of 100,000 changes has a few hundred).
type Patterns struct {
	list []SplitAt // without indexes
	ids  map[string]int32
}

// Add returns the number of a's pattern, which it joins if new.
func (ps *Patterns) Add(a SplitAt) int32 {
	if i, ok := ps.ids[a.Pattern]; ok {
		return i
	}
	if ps.ids == nil {
		ps.ids = map[string]int32{}
	}
	i := int32(len(ps.list))
	ps.ids[a.Pattern] = i
	a.Indexes = nil
	ps.list = append(ps.list, a)
	return i
}

// Split is the address split whose pattern is number id and whose
// indexes are these.
func (ps *Patterns) Split(id int32, indexes []string) SplitAt {
	a := ps.list[id]
	a.Indexes = indexes
	return a
}

// AddSplit is Add of c, whose address a is, split.
func (gs *Groups) AddSplit(key string, c ChangeSummary, a *SplitAt) (*ChangeGroup, bool) {
	key = a.Pattern + "\x00" + key
	g := gs.byKey[key]
	if g == nil {
		if gs.Limit > 0 && len(gs.List) == gs.Limit {
			return nil, false
		}
		if gs.byKey == nil {
			gs.byKey = map[string]*ChangeGroup{}
		}
		g = NewGroup(c, a)
		gs.byKey[key] = g
		gs.List = append(gs.List, g)
		return g, true
	}
	g.Add(a.Indexes)
	return g, false
}

// NewGroup starts a group whose first member is c, its address split at
// a: for a caller that knows which changes go together.
func NewGroup(c ChangeSummary, a *SplitAt) *ChangeGroup {
	g := &ChangeGroup{Example: c, Members: Members{Parts: a.Parts, Bare: a.Bare}}
	g.Add(a.Indexes)
	return g
}

// Grow makes room for n more members.
func (m *Members) Grow(n int) {
	m.Indexes = slices.Grow(m.Indexes, max(0, min(n, maxGroupMembers-len(m.Indexes))))
}

// Add counts a member with these indexes.
func (m *Members) Add(indexes []string) {
	m.address = nil
	m.Count++
	if len(m.Indexes) < maxGroupMembers {
		m.Indexes = append(m.Indexes, indexes)
	}
}

// riskyKey is what the warnings of destroyed and replaced changes in one
// group share: the action and why.
func riskyKey(c ChangeSummary) string {
	var b strings.Builder
	if c.Action == diff.Delete {
		b.WriteString("delete\x00")
	} else {
		b.WriteString("replace\x00")
	}
	b.WriteString(c.Reason)
	for _, path := range c.ReplacePaths {
		b.WriteString("\x00")
		for _, step := range path {
			switch s := step.(type) {
			case string:
				b.WriteString(strconv.Quote(s))
			case json.Number:
				b.WriteString(s.String())
			default:
				fmt.Fprintf(&b, "%T:%v", s, s)
			}
			b.WriteByte(' ')
		}
	}
	return b.String()
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

// SplitNumbered is SplitIndexes with the runs of digits in module and
// resource names split out too, as bare indexes: module.team_01.x.junk_0042[3]
// is parts ["module.team_", ".x.junk_", "", ""], indexes ["01", "0042", "3"]
// and bare [true, true, false]. Resource types (aws_route53_record) keep
// their digits: they name what the resource is.
func SplitNumbered(address string) (parts, indexes []string, bare []bool) {
	// Most addresses have an index or two: room for three is made at once.
	parts = make([]string, 0, 4)
	room := func() {
		if indexes == nil {
			indexes, bare = make([]string, 0, 3), make([]bool, 0, 3)
		}
	}
	start := 0
	expect := "start" // what the next dot-separated step of the address is
	for i := 0; i < len(address); {
		// One step: up to the next dot outside brackets.
		j := i
		for j < len(address) && address[j] != '.' && address[j] != '[' {
			j++
		}
		step := address[i:j]
		name := false
		switch expect {
		case "start":
			switch step {
			case "module":
				expect = "module name"
			case "data", "ephemeral":
				expect = "type"
			default:
				expect = "name"
			}
		case "module name", "name":
			name, expect = true, "start"
		case "type":
			expect = "name"
		}
		if name {
			for k := i; k < j; {
				if address[k] < '0' || address[k] > '9' {
					k++
					continue
				}
				e := k
				for e < j && address[e] >= '0' && address[e] <= '9' {
					e++
				}
				parts = append(parts, address[start:k])
				room()
				indexes, bare = append(indexes, address[k:e]), append(bare, true)
				start, k = e, e
			}
		}
		for j < len(address) && address[j] == '[' {
			end := indexEnd(address, j)
			if end < 0 {
				return append(parts, address[start:]), indexes, bare
			}
			parts = append(parts, address[start:j])
			room()
			indexes, bare = append(indexes, address[j+1:end]), append(bare, false)
			start, j = end+1, end+1
		}
		i = j + 1 // past the dot
	}
	return append(parts, address[start:]), indexes, bare
}

// Keys are the split address's count indexes and for_each keys,
// unquoted, and the numbers in its names: module.app[3].x.web_07["a"] has
// 3, 07 and a. They are its Indexes themselves when none is quoted, else a
// copy.
func (a SplitAt) Keys() []string {
	keys := a.Indexes
	for i, k := range a.Indexes {
		if !strings.HasPrefix(k, `"`) {
			continue
		}
		uq, err := strconv.Unquote(k)
		if err != nil {
			continue
		}
		if &keys[0] == &a.Indexes[0] {
			keys = slices.Clone(a.Indexes)
		}
		keys[i] = uq
	}
	return keys
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

// Address is how the members are named in one pattern: their address
// with each index that all members share, consecutive numbers as ranges at
// the last index (fleet[0..299], web[0..12,20..31]), a few keys listed
// (keyed["beta","gamma"]), and * where members
// differ otherwise. One member is its address.
func (m *Members) Address() string {
	if m.address == nil {
		seen := m.indexValues()
		a := m.pattern(func(i int, last bool) string { return m.indexAt(seen[i], last) })
		m.address = &a
	}
	return *m.address
}

// seenValues are what the members hold at one index: its values, each
// once, in order of appearance, as long as they are few (more than eight
// are only ever written as ranges of numbers), and at the last index, when
// they are many, every member's value, repeats and all, which numberRuns
// makes ranges of.
type seenValues struct {
	few  []string
	many bool
	all  []string
}

// indexValues reads every member's indexes once, for all of them: the
// members' index slices lie apart in memory, and a group may have
// thousands.
func (m *Members) indexValues() []seenValues {
	seen := make([]seenValues, max(len(m.Parts)-1, 0))
	if len(seen) == 0 {
		return seen
	}
	for _, idx := range m.Indexes {
		for i, v := range idx[:min(len(idx), len(seen))] {
			if s := &seen[i]; !s.many && !oneOf(s.few, v) {
				s.few = append(s.few, v)
				s.many = len(s.few) > 8
			}
		}
	}
	if last := &seen[len(seen)-1]; last.many { // only then are they all needed
		last.all = make([]string, 0, len(m.Indexes))
		for _, idx := range m.Indexes {
			if len(idx) >= len(seen) {
				last.all = append(last.all, idx[len(seen)-1])
			}
		}
	}
	return seen
}

// pattern writes Parts with index i written as index(i, i is the last):
// in brackets, but for a number in a name that stands for one value.
func (m *Members) pattern(index func(i int, last bool) string) string {
	var b strings.Builder
	for i, part := range m.Parts {
		b.WriteString(part)
		if i == len(m.Parts)-1 {
			break
		}
		v := index(i, i == len(m.Parts)-2)
		if i < len(m.Bare) && m.Bare[i] && isDigits(v) {
			b.WriteString(v)
		} else {
			b.WriteString("[" + v + "]")
		}
	}
	return b.String()
}

func isDigits(s string) bool {
	for i := range len(s) {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// Complete reports whether every member's indexes are known.
func (m *Members) Complete() bool { return m.Count == len(m.Indexes) }

// indexAt names an index of the members from the values seen there: the
// shared value, ranges of numbers (for the last index), or *.
func (m *Members) indexAt(seen seenValues, last bool) string {
	few, many := seen.few, seen.many
	if len(few) == 1 && m.Complete() {
		return few[0]
	}
	if !last || !m.Complete() {
		return "*"
	}
	values := few
	if many {
		values = seen.all
	}
	runs, width, numbers := numberRuns(values, 8)
	if numbers {
		return writeRuns(runs, width)
	}
	if keys := strings.Join(few, ","); !numbers && !many && len(keys) <= 80 {
		return keys // a few for_each keys: named, not hidden behind *
	}
	return "*" // too scattered to read in one pattern
}

// oneOf reports whether v is one of few. Indexes are short and mostly
// differ in their first byte: it is compared before the whole string.
func oneOf(few []string, v string) bool {
	for _, f := range few {
		if len(f) == len(v) && (v == "" || f[0] == v[0]) && f == v {
			return true
		}
	}
	return false
}

// Exact names every member: one pattern for each combination of the
// indexes before the last (in order of appearance), its last index the
// members' numbers as ranges (web[0..3,7]) or their keys listed
// (web["a","b"]). It is longer than Address, and exact; with members not
// all known it is Address.
func (m *Members) Exact() []string {
	if !m.Complete() {
		return []string{m.Address()}
	}
	if len(m.Parts) < 2 {
		return []string{m.Parts[0]}
	}
	last := len(m.Parts) - 2
	// The members by their indexes before the last, in order of
	// appearance: one lookup a member.
	type prefixed struct{ prefix, lasts []string }
	var groups []prefixed
	at := map[string]int{}
	for _, idx := range m.Indexes {
		if len(idx) <= last {
			continue
		}
		key := strings.Join(idx[:last], "\x00")
		k, ok := at[key]
		if !ok {
			k = len(groups)
			at[key] = k
			groups = append(groups, prefixed{prefix: idx[:last]})
		}
		groups[k].lasts = append(groups[k].lasts, idx[last])
	}
	out := make([]string, 0, len(groups))
	for _, g := range groups {
		values := g.lasts
		out = append(out, m.pattern(func(i int, isLast bool) string {
			if !isLast {
				return g.prefix[i]
			}
			if r, ok := ranges(values); ok {
				return r
			}
			return strings.Join(values, ",")
		}))
	}
	return out
}

// ExactWithin names members as Exact does, as many as fit in about room
// bytes (their names joined by ", "), in order of appearance: the names
// and how many members they name. It names the members kept when not
// all are (see maxGroupMembers).
func (m *Members) ExactWithin(room int) ([]string, int) {
	first := func(k int) []string {
		some := Members{Parts: m.Parts, Indexes: m.Indexes[:k], Count: k, Bare: m.Bare}
		return some.Exact()
	}
	size := func(names []string) int { return len(strings.Join(names, ", ")) }
	// The longest run of first members that fits: names grow with
	// members but for ranges that merge, so the search finds a run that
	// fits, near the longest.
	lo, hi := 0, len(m.Indexes)
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if size(first(mid)) <= room {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	if lo == 0 {
		return nil, 0
	}
	return first(lo), lo
}

// NamedWithin names as many members as fit in room bytes, each name as
// code writes it, then the rest in one pattern: `r["a","b"]` and 40 more:
// `r[*]`. It is "" when not even one fits, or when all do (Exact then
// names them better).
func (m *Members) NamedWithin(room int, code func(string) string) string {
	rest := func(n int) string { return fmt.Sprintf(" and %d more: %s", m.Count-n, code(m.Address())) }
	raw := room - len(rest(0))
	for raw > 0 {
		names, n := m.ExactWithin(raw)
		if n == 0 || n == m.Count {
			return ""
		}
		for i := range names {
			names[i] = code(names[i])
		}
		text := strings.Join(names, ", ") + rest(n)
		if len(text) <= room {
			return text
		}
		raw -= len(text) - room // code made them longer: fewer
	}
	return ""
}

// ranges writes numbers as comma-separated runs, 0..3,7,9..10; ok is false
// when some value is not a number.
func ranges(values []string) (string, bool) {
	runs, width, ok := numberRuns(values, 0)
	if !ok {
		return "", false
	}
	return writeRuns(runs, width), true
}

// numberRuns are values, all numbers, as runs of consecutive numbers in
// order (the first and last of each), and the width they are written in
// when they keep leading zeros (0 when they do not); ok is false when
// some value is no number, or when there are more than limit runs (limit
// 0: no limit), which are then not made. A group may have thousands of
// members, named each time a shortened comment is measured: values
// already in order, as a plan lists instances, are not sorted again.
func numberRuns(values []string, limit int) (runs [][2]int, width int, ok bool) {
	nums := make([]int, 0, len(values))
	sorted := true
	for _, v := range values {
		n, isNumber := parseDigits(v)
		if !isNumber {
			return nil, 0, false
		}
		if len(v) > 1 && v[0] == '0' {
			width = len(v) // numbers written with leading zeros (junk_0042) keep them
		}
		sorted = sorted && (len(nums) == 0 || nums[len(nums)-1] <= n)
		nums = append(nums, n)
	}
	if width > 0 {
		for _, v := range values {
			if len(v) != width {
				return nil, 0, false // 007 and 7 are different names
			}
		}
	}
	if !sorted {
		slices.Sort(nums)
	}
	nums = slices.Compact(nums)
	n := 0 // how many runs: sized once
	for i := range nums {
		if i == 0 || nums[i] != nums[i-1]+1 {
			n++
		}
	}
	if limit > 0 && n > limit {
		return nil, 0, false
	}
	runs = make([][2]int, 0, n)
	for i := 0; i < len(nums); {
		j := i
		for j+1 < len(nums) && nums[j+1] == nums[j]+1 {
			j++
		}
		runs = append(runs, [2]int{nums[i], nums[j]})
		i = j + 1
	}
	return runs, width, true
}

// parseDigits reads v, digits only, as strconv.Atoi does: a sign, an empty
// string or a number past int's range is no number.
func parseDigits(v string) (int, bool) {
	if len(v) == 0 || len(v) > 18 {
		n, err := strconv.Atoi(v) // 18 digits cannot overflow; more may
		return n, err == nil && isDigits(v)
	}
	n := 0
	for i := range len(v) {
		d := v[i] - '0'
		if d > 9 {
			return 0, false
		}
		n = n*10 + int(d)
	}
	return n, true
}

// writeRuns writes runs as ranges writes them.
func writeRuns(runs [][2]int, width int) string {
	b := make([]byte, 0, len(runs)*(2*max(width, 4)+3))
	num := func(n int) {
		var digits [20]byte
		d := strconv.AppendInt(digits[:0], int64(n), 10)
		for range width - len(d) {
			b = append(b, '0')
		}
		b = append(b, d...)
	}
	for i, r := range runs {
		if i > 0 {
			b = append(b, ',')
		}
		num(r[0])
		if r[1] != r[0] {
			b = append(b, '.', '.')
			num(r[1])
		}
	}
	return string(b)
}
