package comment

import (
	"slices"

	"github.com/planpr/planpr/render/internal/diff"
	"github.com/planpr/planpr/render/review"
)

// A listBucket is the changes of one kind at one address pattern, in
// plan order: what a shortened comment lists in one line when no picked
// diff stands for them. The buckets are made once; a listing remakes
// only those holding a picked group (a group's members share its
// bucket), since the comment is listed again each time it picks.
type listBucket struct {
	changes []int               // in planSection.changes
	all     *review.ChangeGroup // every change of the bucket, once grouped
	names   *nameCache
}

type bucketKey struct {
	action           diff.Action
	moved, importing bool
	pattern          int32
}

func (c *shownChange) listKey() bucketKey {
	return bucketKey{c.Action, c.Moved, c.Importing, c.pattern}
}

// makeBuckets puts each change, grouped already, in its bucket.
func (s *planSection) makeBuckets() {
	byKey := map[bucketKey]*listBucket{}
	for i := range s.changes.Len() {
		c := s.changes.At(i)
		k := c.listKey()
		b := byKey[k]
		if b == nil {
			b = &listBucket{}
			byKey[k] = b
			s.buckets = append(s.buckets, b)
		}
		b.changes = append(b.changes, i)
		c.group.bucket = b
	}
}

// bucketGroup groups the bucket's changes that skip leaves in (one group:
// one kind, one pattern), and says which came first (nil when none is).
func (s *planSection) bucketGroup(b *listBucket, skip func(*shownChange) bool) (*review.ChangeGroup, int) {
	var g *review.ChangeGroup
	first := -1
	for _, i := range b.changes {
		switch c := s.changes.At(i); {
		case skip != nil && skip(c):
		case g == nil:
			at := s.splitOf(c)
			g, first = review.NewGroup(c.ChangeSummary, &at), i
			g.Grow(len(b.changes) - 1)
		default:
			g.Add(c.indexes)
		}
	}
	return g, first
}

// listing groups the changes no picked diff stands for, riskiest first,
// the largest groups first (in order of appearance among equals): what
// destroys named exactly (unless the budget made it coarse), the rest
// hidden until the budget lists it.
func (s *planSection) listing() []*listedGroup {
	shown := map[*diffGroup]bool{}
	dirty := map[*listBucket]bool{}
	for _, g := range s.picked {
		shown[g], dirty[g.bucket] = true, true
	}
	type listed struct {
		g     *listedGroup
		first int
	}
	var in []listed
	for _, b := range s.buckets {
		if dirty[b] {
			if g, first := s.bucketGroup(b, func(c *shownChange) bool { return shown[c.group] }); g != nil {
				in = append(in, listed{&listedGroup{ChangeGroup: g, names: &nameCache{}}, first})
			}
			continue
		}
		if b.all == nil {
			b.all, _ = s.bucketGroup(b, nil)
			b.names = &nameCache{}
		}
		in = append(in, listed{&listedGroup{ChangeGroup: b.all, names: b.names}, b.changes[0]})
	}
	slices.SortFunc(in, func(x, y listed) int { return x.first - y.first })
	out := make([]*listedGroup, len(in))
	for i, l := range in {
		lg := l.g
		switch {
		case lg.risky() && s.unnamed[lg.key()]: // hidden
		case lg.risky() && !s.coarse[lg.key()]:
			lg.mode = listExact
		case lg.risky() || s.listAll:
			lg.mode = listCoarse
		}
		out[i] = lg
	}
	slices.SortStableFunc(out, func(x, y *listedGroup) int { return riskAndSize(x.ChangeGroup, y.ChangeGroup) })
	return out
}
