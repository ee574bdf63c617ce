package jsonread

import "unsafe"

// textSlab hands out the bytes of unescaped strings from chunks it keeps
// from one change to the next, for a ChangeReader that reuses its memory:
// a change's strings then cost no fresh memory, only a copy.
type textSlab struct {
	chunks [][]byte
	n      int // chunks[:n] are in use, the last one partly
}

// slabChunk is the size of a chunk; longer strings get memory of their own.
const slabChunk = 64 << 10

// take returns an empty slice with room for size bytes. Text appended
// within that room stays in the slab once kept; beyond it, append moves
// it to memory of its own, which keep leaves alone.
func (s *textSlab) take(size int) []byte {
	if size > slabChunk/4 {
		return make([]byte, 0, size)
	}
	if s.n == 0 || cap(s.chunks[s.n-1])-len(s.chunks[s.n-1]) < size {
		if s.n == len(s.chunks) {
			s.chunks = append(s.chunks, make([]byte, 0, slabChunk))
		}
		s.chunks[s.n] = s.chunks[s.n][:0]
		s.n++
	}
	c := s.chunks[s.n-1]
	return c[len(c):len(c):cap(c)][:0:size]
}

// room is take for text of unknown length: all the free space of the
// current chunk, at least min bytes of it.
func (s *textSlab) room(min int) []byte {
	b := s.take(min)
	if s.n > 0 {
		c := s.chunks[s.n-1]
		if free := c[len(c):cap(c)]; len(free) >= min && unsafe.SliceData(free) == unsafe.SliceData(b[:min]) {
			return free[:0]
		}
	}
	return b
}

// keep marks the text of b, from take or room, as used.
func (s *textSlab) keep(b []byte) {
	if s.n == 0 || len(b) == 0 {
		return
	}
	c := &s.chunks[s.n-1]
	if free := (*c)[len(*c):cap(*c)]; len(free) >= len(b) && unsafe.SliceData(free) == unsafe.SliceData(b) {
		*c = (*c)[:len(*c)+len(b)]
	}
}

// reset makes every chunk free again: the strings in them must be dead.
func (s *textSlab) reset() { s.n = 0 }
