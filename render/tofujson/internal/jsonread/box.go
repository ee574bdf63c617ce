package jsonread

import (
	"cmp"
	"encoding/json"
	"unsafe"
)

// Decoded values are interfaces, and making an interface of a string, a
// number or a slice allocates a copy of it for the interface to point to:
// more than half of what decoding a plan allocates. boxes stores those
// copies in chunks instead, many to an allocation, and makes interfaces
// that point into them. An interface's value is never changed through
// it, so sharing a chunk is safe; a chunk lives as long as any of its
// values does. A reader that reuses its memory (ChangeReader.ReuseMemory)
// also reuses the chunks, once the values in them are dead; one that does
// not starts new chunks for each input (see startOver): a value kept from
// one input must not keep alive the values of the inputs decoded after it.
type boxes struct {
	strings boxSlab[string]
	numbers boxSlab[json.Number]
	objects boxSlab[Object]
	arrays  boxSlab[[]any]
	// The members of objects and the elements of arrays, when reused.
	members  runSlab[Member]
	elements runSlab[any]
	reusing  bool
}

// startOver lets go of the chunks the last input's values are in, for a
// decoder that does not reuse its memory. The next chunks start small and
// double: a kept value keeps little room it does not use.
func (b *boxes) startOver() {
	if b.reusing {
		return
	}
	b.strings.startOver()
	b.numbers.startOver()
	b.objects.startOver()
	b.arrays.startOver()
}

func (b *boxes) reuse() {
	b.strings.reuse, b.numbers.reuse, b.objects.reuse, b.arrays.reuse = true, true, true, true
	b.reusing = true
}

// reset makes every chunk free again: the values in them must be dead.
func (b *boxes) reset() {
	b.strings.reset()
	b.numbers.reset()
	b.objects.reset()
	b.arrays.reset()
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

func (b *boxes) string(s string) any {
	if s == "" {
		return "" // the runtime boxes "" without allocating
	}
	return boxAt(stringType, b.strings.put(s))
}

func (b *boxes) number(n json.Number) any { return boxAt(numberType, b.numbers.put(n)) }
func (b *boxes) object(o Object) any      { return boxAt(objectType, b.objects.put(o)) }
func (b *boxes) array(a []any) any        { return boxAt(arrayType, b.arrays.put(a)) }

// boxChunk is how many values a chunk holds.
const boxChunk = 128

// boxSlab keeps values of one type in chunks.
type boxSlab[T any] struct {
	chunks [][]T
	n      int // chunks[:n] are in use, the last one partly
	reuse  bool
	size   int // the next chunk's size, when not boxChunk (see startOver)
}

// startOver leaves the chunk in use to the values in it, keeping no
// reference to it.
func (s *boxSlab[T]) startOver() {
	clear(s.chunks)
	s.chunks, s.n, s.size = s.chunks[:0], 0, 4
}

// put stores v and returns where.
func (s *boxSlab[T]) put(v T) *T {
	if s.n == 0 || len(s.chunks[s.n-1]) == cap(s.chunks[s.n-1]) {
		switch {
		case !s.reuse:
			// The full chunk is left to the values in it; the next one
			// is twice as large, up to boxChunk.
			size := cmp.Or(s.size, boxChunk)
			s.chunks, s.size = append(s.chunks[:0], make([]T, 0, size)), min(2*size, boxChunk)
			s.n = 1
		case s.n == len(s.chunks):
			s.chunks = append(s.chunks, make([]T, 0, boxChunk))
			s.n++
		default:
			s.n++
		}
	}
	c := &s.chunks[s.n-1]
	*c = append(*c, v)
	return &(*c)[len(*c)-1]
}

// reset clears the chunks for reuse: left behind, old values would keep
// what they point to alive.
func (s *boxSlab[T]) reset() {
	if !s.reuse {
		return
	}
	for i := range s.n {
		clear(s.chunks[i])
		s.chunks[i] = s.chunks[i][:0]
	}
	s.n = 0
}

// eface is how the runtime lays out an interface: its dynamic type, and a
// pointer to its value.
type eface struct {
	typ, data unsafe.Pointer
}

func typeWord(x any) unsafe.Pointer { return (*eface)(unsafe.Pointer(&x)).typ }

var (
	stringType = typeWord("")
	numberType = typeWord(json.Number(""))
	objectType = typeWord(Object(nil))
	arrayType  = typeWord([]any(nil))
)

// boxAt is the interface holding *p, of the dynamic type typ (p's type),
// pointing at p rather than at a copy.
func boxAt[T any](typ unsafe.Pointer, p *T) any {
	return *(*any)(unsafe.Pointer(&eface{typ: typ, data: unsafe.Pointer(p)}))
}
