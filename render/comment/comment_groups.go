package comment

import (
	"fmt"
	"slices"
	"strings"

	"github.com/planpr/planpr/render/internal/budget"
	"github.com/planpr/planpr/render/internal/diff"
	"github.com/planpr/planpr/render/internal/shape"
	"github.com/planpr/planpr/render/mask"
	"github.com/planpr/planpr/render/review"
	txt "github.com/planpr/planpr/render/text"
	"github.com/planpr/planpr/render/tofujson"
)

// A diffGroup is the changes of one resource with one action whose diffs
// are alike apart from what follows from their instance keys (see
// shape.Of): a shortened comment shows the first member's diff for all
// of them.
type diffGroup struct {
	*review.ChangeGroup
	first         int          // the first member, in planSection.changes
	rep           *budget.Item // its diff, once rendered
	strictlyAlike bool         // every member is the same as the first apart from what its keys name
	lines         nameCache    // alikeLine's, once made
	bucket        *listBucket  // where its members are listed when not picked
}

// nameCache keeps what names a group, exactly ([1]) and in one pattern
// ([0]), once made: a shortened comment is measured many times over, and
// a group of thousands takes a while to name.
type nameCache [2]*string

func (c *nameCache) get(exact bool, name func() string) string {
	i := 0
	if exact {
		i = 1
	}
	if c[i] == nil {
		s := name()
		c[i] = &s
	}
	return *c[i]
}

// shownChange is a change the comment shows, by its diff or its address.
type shownChange struct {
	review.ChangeSummary
	span  tofujson.Span // where to read it again
	item  *budget.Item  // its diff, when the first pass rendered it
	group *diffGroup
	// Its address split (see review.SplitAt), for grouping it again:
	// its pattern, in planSection.patterns, and its own indexes.
	pattern int32
	indexes []string
}

// shapeBucket is what groupChanges groups by besides the shape: changes
// in different buckets are never compared.
type shapeBucket struct {
	bucketKey // where a shortened comment lists the change
	reason    string
}

// changeKind tells apart what the comment counts apart: the actions, and
// moves and imports among changes with no action.
func changeKind(c review.ChangeSummary) string {
	return string([]byte{'0' + byte(c.Action), boolByte(c.Moved), boolByte(c.Importing)})
}

func boolByte(b bool) byte {
	if b {
		return 't'
	}
	return 'f'
}

// groupChanges puts the changes in diffGroups: one kind of change, one
// reason, one loose shape, at addresses that differ only in their
// indexes. The groups come in the order a shortened comment spends its
// budget on them: the largest group of each kind first (riskiest kind
// first), so that each kind has a diff; then the rest, the riskiest and
// largest first.
//
// A change that follows the previous one of its shapeBucket is in its
// group; all are strictly alike the first (hashed, following no member)
// when each follows strictly or hashes as the first does.
func (s *planSection) groupChanges(shapes []shape.Placed) {
	type key struct {
		shapeBucket
		loose uint64
	}
	byKey := map[key]*diffGroup{}
	for i := range s.changes.Len() {
		c, shape := s.changes.At(i), shapes[i]
		k := key{shapeBucket{c.listKey(), c.Reason}, shape.Loose}
		g := byKey[k]
		if g == nil {
			at := s.splitOf(c)
			g = &diffGroup{ChangeGroup: review.NewGroup(c.ChangeSummary, &at), first: i, strictlyAlike: true}
			byKey[k] = g
			s.groups = append(s.groups, g)
		} else {
			g.Add(c.indexes)
			g.strictlyAlike = g.strictlyAlike && (shape.Follows && shape.Strictly || !shape.Follows && shape.Strict == shapes[g.first].Strict)
		}
		c.group = g
	}
	slices.SortStableFunc(s.groups, byRiskAndSize)
	lead, rest := leadFirst(s.groups)
	s.groups = append(lead, rest...)
	s.makeBuckets()
}

// splitOf is a change's address split again (see shownChange.pattern).
func (s *planSection) splitOf(c *shownChange) review.SplitAt {
	return s.patterns.Split(c.pattern, c.indexes)
}

// leadFirst splits groups, keeping their order, into the first group of
// each kind of change and the rest.
func leadFirst(gs []*diffGroup) (lead, rest []*diffGroup) {
	covered := map[string]bool{}
	for _, g := range gs {
		if k := changeKind(g.Example); covered[k] {
			rest = append(rest, g)
		} else {
			covered[k] = true
			lead = append(lead, g)
		}
	}
	return lead, rest
}

// byRiskAndSize orders groups: what destroys first, then what changes
// what exists, then what is created, then the rest; the largest first.
func byRiskAndSize(x, y *diffGroup) int { return riskAndSize(x.ChangeGroup, y.ChangeGroup) }

func riskAndSize(x, y *review.ChangeGroup) int {
	if d := actionRank(x.Example.Action) - actionRank(y.Example.Action); d != 0 {
		return d
	}
	return y.Count - x.Count
}

func actionRank(a diff.Action) int {
	switch a {
	case diff.Delete:
		return 0
	case diff.DeleteThenCreate, diff.CreateThenDelete:
		return 1
	case diff.Update:
		return 2
	case diff.Create:
		return 3
	}
	return 4
}

// renderReps renders, for a comment that cannot show every diff (of this
// plan or of the plans beside it), the first member's diff of each group in the order the groups come, while
// repsFor(limit) would still take more: the first pass rendered only what
// came first in the plan, and a group's first member may come late.
// Changes are read again from their spans; every secret is known by now,
// so each diff is masked and laid out at once.
func (s *planSection) renderReps(o CommentOptions, m *mask.Masker, limit int) error {
	if s.Path == "" {
		return nil
	}
	o.PlanOptions = o.WithSchemasOf(s.Path) // the plan's own, when it came with them
	values := review.NewSpanValues(o.Files, s.Path)
	defer values.Close()
	var config *review.ConfigIndex
	if o.Schemas == nil {
		config = &review.ConfigIndex{} // as the first pass inferred
	}
	fitting := 0
	for _, g := range s.groups {
		if fitting >= limit {
			break
		}
		c := s.changes.At(g.first)
		it := c.item
		if it == nil {
			rc, err := values.Decode(&tofujson.ResourceChange{Span: c.span})
			if err != nil {
				return err
			}
			if it, err = newDiffItem(rc, c.ChangeSummary, o, config); err != nil {
				return err
			}
			if it == nil {
				continue
			}
		}
		if len(it.Text) > tooLongToShow*limit {
			continue // see tooLongToShow
		}
		it.LayOut(m)
		g.rep = it
		s.reps = append(s.reps, g)
		if n := len(it.LaidOut); n <= limit {
			fitting += n
		}
	}
	return nil
}

// tooLongToShow is how many times the comment's size a diff's text may be
// and still be laid out to see whether it fits. Only hiding secrets makes
// a text shorter, and never by that much in a real diff; laying out a
// resource's diff of 40 MB (a file's content, a list of 200,000 items)
// took three seconds of masking for a diff that could not be shown.
const tooLongToShow = 8

// repsFor is the groups with a diff that a comment of limit characters
// picks from: as many as renderReps would render for that limit alone,
// so that a comment is the same whatever other sizes are written with it.
func (s *planSection) repsFor(limit int) []*diffGroup {
	fitting := 0
	for i, g := range s.reps {
		if fitting >= limit {
			return s.reps[:i]
		}
		if n := len(g.rep.LaidOut); n <= limit {
			fitting += n
		}
	}
	return s.reps
}

// alikeLine names the members of g besides the one whose diff is shown,
// exactly or in one pattern; "" for a group of one.
func alikeLine(g *diffGroup, exact bool, m *mask.Masker) string {
	if g.Count < 2 {
		return ""
	}
	return g.lines.get(exact, func() string { return makeAlikeLine(g, exact, m) })
}

func makeAlikeLine(g *diffGroup, exact bool, m *mask.Masker) string {
	return alikeHead(g) + memberNames(alikeMembers(g), exact, m) + alikeTail
}

// alikeMembers are g's members but the one whose diff is shown.
func alikeMembers(g *diffGroup) *review.Members {
	rest := review.Members{Parts: g.Parts, Count: g.Count - 1, Bare: g.Bare}
	if len(g.Indexes) > 1 {
		rest.Indexes = g.Indexes[1:]
	}
	return &rest
}

// alikeHead and alikeTail are what an alike line says around the names.
func alikeHead(g *diffGroup) string {
	apart := "their keys"
	if !g.strictlyAlike {
		apart = "their keys and words with digits (ids, addresses, versions)"
	}
	return fmt.Sprintf("<sub>↳ and %d more like this, the same apart from %s: ", g.Count-1, apart)
}

const alikeTail = "</sub>\n\n"

// memberNames is members' addresses as code, exactly or in one pattern.
func memberNames(ms *review.Members, exact bool, m *mask.Masker) string {
	if !exact {
		return safeCode(m, ms.Address())
	}
	names := ms.Exact()
	for i, n := range names {
		names[i] = safeCode(m, n)
	}
	return strings.Join(names, ", ")
}

// listMode is how a shortened comment names a group of changes it
// lists without a diff.
type listMode int

const (
	listHidden listMode = iota // counted only
	listCoarse                 // in one pattern: web[*]
	listExact                  // every member: web[0..3,7]
	listSome                   // the first members, then the rest in one pattern
)

// listedGroup is changes of one kind at one address (indexes and
// numbered names aside) that a shortened comment lists without a diff.
type listedGroup struct {
	*review.ChangeGroup
	mode  listMode
	names *nameCache
	some  string // with listSome, its names (see someNames)
}

// memberNames is memberNames of the group's members, made once.
func (g *listedGroup) memberNames(exact bool, m *mask.Masker) string {
	return g.names.get(exact, func() string { return memberNames(&g.Members, exact, m) })
}

// risky reports whether the group destroys: its members must be named.
func (g *listedGroup) risky() bool { return review.IsRisky(g.Example.Action) }

// key identifies the group across listings (see planSection.coarse).
func (g *listedGroup) key() string { return groupKey(g.ChangeGroup) }

// groupKey identifies a group of changes of one kind at one pattern.
func groupKey(g *review.ChangeGroup) string { return changeKind(g.Example) + "\x00" + g.Address() }

// listedCount is how many changes the listing stands for, named or not.
func listedCount(l []*listedGroup) int {
	n := 0
	for _, g := range l {
		n += g.Count
	}
	return n
}

// hiddenCount is how many changes the listing counts without naming.
func hiddenCount(l []*listedGroup) int {
	n := 0
	for _, g := range l {
		if g.mode == listHidden {
			n += g.Count
		}
	}
	return n
}

// line is the listing's line for g ("" when it is hidden).
func (g *listedGroup) line(m *mask.Masker) string {
	switch g.mode {
	case listHidden:
		return ""
	case listSome:
		return g.lineWith(g.some)
	}
	return g.lineWith(g.memberNames(g.mode == listExact, m))
}

// lineWith is the listing's line for g naming its members so.
func (g *listedGroup) lineWith(names string) string {
	count := ""
	if g.Count > 1 {
		count = fmt.Sprintf(" (%d)", g.Count)
	}
	return fmt.Sprintf("- %s%s%s\n", listMark(g.Example), names, count)
}

// listMark begins a listed change's line: its symbol, or what a change
// with none does.
func listMark(c review.ChangeSummary) string {
	if sym := strings.TrimSpace(txt.Symbol(c.Action)); sym != "" {
		return "`" + sym + "` "
	}
	if c.Importing {
		return "import "
	}
	if c.Moved {
		return "move "
	}
	return ""
}
