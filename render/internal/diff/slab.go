package diff

import (
	"strings"
)

// slab hands out slices of T from chunks it keeps across Reset, as the
// Arena does Nodes: the fields, groups, keys and lines of one tree at a
// time.
type slab[T any] struct {
	chunks [][]T
	chunk  int // the chunk being filled
	used   int // how much of it is handed out
}

// slabChunk is how many elements a slab allocates at once; a slice
// asking for more than a quarter of that is allocated on its own.
const slabChunk = 1024

// take returns an empty slice with room for n elements; appending past
// them moves it off the slab, as append does.
func (s *slab[T]) take(n int) []T {
	if n > slabChunk/4 {
		return make([]T, 0, n)
	}
	if s.chunk < len(s.chunks) && s.used+n > slabChunk {
		s.chunk, s.used = s.chunk+1, 0
	}
	if s.chunk == len(s.chunks) {
		s.chunks = append(s.chunks, make([]T, slabChunk))
	}
	out := s.chunks[s.chunk][s.used : s.used : s.used+n]
	s.used += n
	return out
}

// reset takes back every slice handed out, letting go of what they held.
func (s *slab[T]) reset() {
	for i := 0; i < len(s.chunks) && i <= s.chunk; i++ {
		n := slabChunk
		if i == s.chunk {
			n = s.used
		}
		clear(s.chunks[i][:n])
	}
	if len(s.chunks) > arenaKeep {
		s.chunks = s.chunks[:arenaKeep]
	}
	s.chunk, s.used = 0, 0
}

// fromSlab is an empty slice with room for n, from the slab of a that
// pick names when a is not nil.
func fromSlab[T any](a *Arena, pick func(*Arena) *slab[T], n int) []T {
	if a == nil {
		return make([]T, 0, n)
	}
	return pick(a).take(n)
}

// The Arena's slabs, one per type of slice a tree holds (see fromSlab).
func (a *Arena) newFields(n int) []Field {
	return fromSlab(a, func(a *Arena) *slab[Field] { return &a.fields }, n)
}
func (a *Arena) newNodes(n int) []*Node {
	return fromSlab(a, func(a *Arena) *slab[*Node] { return &a.elems }, n)
}
func (a *Arena) newLines(n int) []Line {
	return fromSlab(a, func(a *Arena) *slab[Line] { return &a.lines }, n)
}
func (a *Arena) newStrings(n int) []string {
	return fromSlab(a, func(a *Arena) *slab[string] { return &a.texts }, n)
}
func (a *Arena) newGroupList(n int) []*BlockGroup {
	return fromSlab(a, func(a *Arena) *slab[*BlockGroup] { return &a.nested }, n)
}

// newGroup is a BlockGroup holding g, from a when it is not nil.
func (a *Arena) newGroup(g BlockGroup) *BlockGroup {
	var p *BlockGroup
	if a == nil {
		p = new(BlockGroup) // not &g: g would then be allocated every call
	} else {
		p = &a.groups.take(1)[:1][0]
	}
	*p = g
	return p
}

// splitLines is strings.Split(text, "\n"), its slice from a when a is not
// nil.
func (a *Arena) splitLines(text string) []string {
	if a == nil {
		return strings.Split(text, "\n")
	}
	out := a.newStrings(strings.Count(text, "\n") + 1)
	for line := range strings.SplitSeq(text, "\n") {
		out = append(out, line)
	}
	return out
}
