package diff

import (
	"strings"

	"github.com/planpr/planpr/render/tofujson"
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

// newFields is an empty slice of Fields with room for n, from a when it
// is not nil.
func (a *Arena) newFields(n int) []Field {
	if a == nil {
		return make([]Field, 0, n)
	}
	return a.fields.take(n)
}

// newNodes is an empty slice of Nodes with room for n, from a when it is
// not nil.
func (a *Arena) newNodes(n int) []*Node {
	if a == nil {
		return make([]*Node, 0, n)
	}
	return a.elems.take(n)
}

// newLines is an empty slice of Lines with room for n, from a when it is
// not nil.
func (a *Arena) newLines(n int) []Line {
	if a == nil {
		return make([]Line, 0, n)
	}
	return a.lines.take(n)
}

// newStrings is an empty slice of strings with room for n, from a when it
// is not nil.
func (a *Arena) newStrings(n int) []string {
	if a == nil {
		return make([]string, 0, n)
	}
	return a.texts.take(n)
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

// newGroupList is an empty slice of BlockGroups with room for n, from a
// when it is not nil.
func (a *Arena) newGroupList(n int) []*BlockGroup {
	if a == nil {
		return make([]*BlockGroup, 0, n)
	}
	return a.nested.take(n)
}

// jsonStrings decodes JSON strings into memory a reuses once Reset; nil
// (each value in memory of its own) when a is nil.
func (a *Arena) jsonStrings() *tofujson.JSONStrings {
	if a == nil {
		return nil
	}
	return &a.json
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
