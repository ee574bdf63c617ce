package jsonread

import (
	"encoding/binary"
	"math/bits"
	"unsafe"
)

// The searches of strings, eight bytes at a time. Most of a plan is the
// text of strings, and both the checking pass and the trusted decoder
// spend more time here than anywhere else: the loops load each word with
// one instruction (no slicing, no bounds check: the loop's condition is
// the bound) and test it with as few operations as the marks allow.

// plainEnd is the place of the first byte from s[i] on that is not
// plain, or len(s): eight bytes at a time, the first special one found
// from the mask of special8.
func plainEnd(s []byte, i int) int {
	p := unsafe.SliceData(s)
	for ; uint(i)+8 <= uint(len(s)); i += 8 {
		if m := special8(eight(p, i)); m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
	}
	for i < len(s) && plain[s[i]] {
		i++
	}
	return i
}

// quoteOrSlash is the place of the first quote or backslash from s[i] on,
// or len(s).
func quoteOrSlash(s string, i int) int {
	p := unsafe.StringData(s)
	for ; uint(i)+8 <= uint(len(s)); i += 8 {
		x := eight(p, i)
		if m := (equal8(x, '"') | equal8(x, '\\')) & tops8; m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
	}
	for i < len(s) && s[i] != '"' && s[i] != '\\' {
		i++
	}
	return i
}

// eight is the little-endian word of the eight bytes from p[i] on, which
// the caller has checked are there.
func eight(p *byte, i int) uint64 {
	return binary.LittleEndian.Uint64((*[8]byte)(unsafe.Add(unsafe.Pointer(p), i))[:])
}

// special8 marks the bytes of x that are not plain — a quote, a
// backslash, a control character or a byte of 0x80 or more — with their
// top bit. Each test is the "has a byte below n" one: (v - n…) &^ v has
// the top bit of v's lowest byte below n set (n at most 0x80), and of no
// byte below it (a borrow runs only upwards from such a byte), so the
// lowest mark is exact; marks above it may not be. x ^ 0x02… turns a
// quote into 0x20 and leaves the control characters below 0x20 (a space
// becomes 0x22), so one test below 0x21 marks both.
func special8(x uint64) uint64 {
	v := x ^ ones8*0x02
	return ((v-ones8*0x21)&^v | equal8(x, '\\') | x) & tops8
}

// equal8 marks the bytes of x equal to c with their top bit, the lowest
// mark exact (see special8); marks are to be masked with tops8.
func equal8(x uint64, c byte) uint64 {
	v := x ^ ones8*uint64(c)
	return (v - ones8) &^ v
}

const ones8, tops8 = 0x0101010101010101, 0x8080808080808080
