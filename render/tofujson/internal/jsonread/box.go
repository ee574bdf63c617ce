package jsonread

import "encoding/json"

// boxes makes the decoded values' interfaces and, for a decoder that
// reuses its memory (ChangeReader.ReuseMemory), keeps objects' members
// and arrays' elements many to a chunk, reused once the values in them
// are dead. An interface of a string, number, object or array is the
// runtime's own (one small allocation): nothing is forged.
type boxes struct {
	// The members of objects and the elements of arrays, when reused.
	members  runSlab[Member]
	elements runSlab[any]
	reusing  bool
}

// startOver is a new input, for a decoder that does not reuse its
// memory: nothing is kept from one input for the next.
func (b *boxes) startOver() {}

func (b *boxes) reuse() { b.reusing = true }

// reset makes every chunk free again: the values in them must be dead.
func (b *boxes) reset() {
	b.members.reset()
	b.elements.reset()
}

// newObject is an Object of members read in document order: in a chunk
// of the slab when the memory is reused.
func (b *boxes) newObject(members []Member) Object {
	if !b.reusing {
		return newObject(members)
	}
	return Sorted(b.members.clone(members))
}

// newArray is a copy of elems, in a chunk when the memory is reused.
func (b *boxes) newArray(elems []any) []any {
	if !b.reusing {
		return append(make([]any, 0, len(elems)), elems...)
	}
	return b.elements.clone(elems)
}

// runSlab keeps runs of values of one type (an object's members, an
// array's elements) many to a chunk, for a decoder that reuses its memory.
type runSlab[T any] struct {
	chunks [][]T
	n      int // chunks[:n] are in use, the last one partly
}

// runChunk is how many values a chunk of a runSlab holds; longer runs
// get memory of their own.
const runChunk = 1024

// clone copies vs into the slab. The copy's capacity is its length: an
// append to it moves it rather than write over its neighbours.
func (s *runSlab[T]) clone(vs []T) []T {
	if len(vs) > runChunk/4 {
		return append(make([]T, 0, len(vs)), vs...)
	}
	if s.n == 0 || cap(s.chunks[s.n-1])-len(s.chunks[s.n-1]) < len(vs) {
		if s.n == len(s.chunks) {
			s.chunks = append(s.chunks, make([]T, 0, runChunk))
		}
		s.chunks[s.n] = s.chunks[s.n][:0]
		s.n++
	}
	c := &s.chunks[s.n-1]
	start := len(*c)
	*c = append(*c, vs...)
	return (*c)[start:len(*c):len(*c)]
}

// reset clears the chunks for reuse, as boxSlab.reset does.
func (s *runSlab[T]) reset() {
	for i := range s.n {
		clear(s.chunks[i])
		s.chunks[i] = s.chunks[i][:0]
	}
	s.n = 0
}

func (b *boxes) string(s string) any      { return s }
func (b *boxes) number(n json.Number) any { return n }
func (b *boxes) object(o Object) any      { return o }
func (b *boxes) array(a []any) any        { return a }
