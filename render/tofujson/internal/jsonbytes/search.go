// Package jsonbytes owns the byte-level steps of reading JSON text,
// eight bytes at a time where it can: where a string's run of plain
// bytes ends, the next quote or backslash, an escape's length and its hex
// digits. The plan's checking pass and the trusted decoder both spend
// most of their time here, so each loop loads a word with one
// instruction (its bound is the loop's condition) and tests it with as
// few operations as the marks allow.
package jsonbytes

import (
	"encoding/binary"
	"math/bits"
	"unicode/utf8"
)

// Plain marks the bytes a string holds as they are: not a quote, a
// backslash, a control character or part of a multi-byte character.
var Plain = func() (t [256]bool) {
	for b := range 256 {
		t[b] = b >= ' ' && b < utf8.RuneSelf && b != '"' && b != '\\'
	}
	return t
}()

// PlainEnd is the place of the first byte from s[i] on that is not
// plain, or len(s): eight bytes at a time, the first special one found
// from the mask of Special8.
func PlainEnd(s []byte, i int) int {
	for ; uint(i)+8 <= uint(len(s)); i += 8 {
		if m := Special8(binary.LittleEndian.Uint64(s[i:])); m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
	}
	for i < len(s) && Plain[s[i]] {
		i++
	}
	return i
}

// QuoteOrSlash is the place of the first quote or backslash from s[i] on,
// or len(s).
func QuoteOrSlash(s string, i int) int {
	for ; uint(i)+8 <= uint(len(s)); i += 8 {
		if m := QuoteOrSlash8(word(s, i)); m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
	}
	for i < len(s) && s[i] != '"' && s[i] != '\\' {
		i++
	}
	return i
}

// QuoteOrSlash8 marks the quotes and backslashes of x with their top
// bit, the lowest mark exact (see Special8).
func QuoteOrSlash8(x uint64) uint64 { return (equal8(x, '"') | equal8(x, '\\')) & tops8 }

// word is the little-endian word of the eight bytes from s[i] on, which
// the caller has checked are there (the compiler makes it one load).
func word(s string, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// Special8 marks the bytes of x that are not plain — a quote, a
// backslash, a control character or a byte of 0x80 or more — with their
// top bit. Each test is the "has a byte below n" one: (v - n…) &^ v has
// the top bit of v's lowest byte below n set (n at most 0x80), and of no
// byte below it (a borrow runs only upwards from such a byte), so the
// lowest mark is exact; marks above it may not be. x ^ 0x02… turns a
// quote into 0x20 and leaves the control characters below 0x20 (a space
// becomes 0x22), so one test below 0x21 marks both.
func Special8(x uint64) uint64 {
	v := x ^ ones8*0x02
	return ((v-ones8*0x21)&^v | equal8(x, '\\') | x) & tops8
}

// equal8 marks the bytes of x equal to c with their top bit, the lowest
// mark exact (see Special8); marks are to be masked with tops8.
func equal8(x uint64, c byte) uint64 {
	v := x ^ ones8*uint64(c)
	return (v - ones8) &^ v
}

// ones8 has a one in each byte, tops8 each byte's top bit.
const ones8, tops8 = 0x0101010101010101, 0x8080808080808080
