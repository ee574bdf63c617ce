package jsonread

import (
	"strings"
	"testing"
	"unsafe"
)

func TestTextSlab(t *testing.T) {
	var s textSlab
	str := func(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }
	a := append(s.take(5), "hello"...)
	s.keep(a)
	b := append(s.take(5), "world"...)
	s.keep(b)
	if str(a) != "hello" || str(b) != "world" {
		t.Fatalf("kept texts overlap: %q %q", a, b)
	}
	// Text that outgrows its room moves out of the slab and is not kept
	// there: the next take must not hand out what it overwrote.
	c := append(s.take(2), "longer than two"...)
	s.keep(c)
	d := append(s.take(3), "abc"...)
	s.keep(d)
	if str(a) != "hello" || str(b) != "world" || str(c) != "longer than two" || str(d) != "abc" {
		t.Fatalf("texts overwritten: %q %q %q %q", a, b, c, d)
	}
	if big := s.take(slabChunk); cap(big) != slabChunk || len(s.chunks) != 1 {
		t.Errorf("a long string took slab space: cap %d, %d chunks", cap(big), len(s.chunks))
	}
	// A full chunk starts another; reset starts over in the first.
	for range 3 * slabChunk / 1000 {
		s.keep(append(s.take(1000), strings.Repeat("x", 1000)...))
	}
	if s.n < 3 {
		t.Fatalf("%d chunks in use after filling three", s.n)
	}
	chunks := len(s.chunks)
	s.reset()
	e := append(s.take(5), "again"...)
	s.keep(e)
	if unsafe.SliceData(e) != unsafe.SliceData(s.chunks[0][:1]) || len(s.chunks) != chunks {
		t.Error("reset did not reuse the first chunk")
	}
}
