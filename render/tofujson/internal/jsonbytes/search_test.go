package jsonbytes

import (
	"encoding/binary"
	"math/rand/v2"
	"strconv"
	"testing"
)

// TestPlainEndIsFirstSpecialByte holds the eight-bytes-at-a-time search
// to a byte by byte one, on text dense with quotes, backslashes, control
// bytes and bytes of 0x80 or more, next to and after one another (where
// the search's marks above the first may be wrong).
func TestPlainEndIsFirstSpecialByte(t *testing.T) {
	checkFindsFirst(t, rand.New(rand.NewPCG(3, 4)), "aZ09 \"\\\x00\x01\x1f\x20\x21\x7f\x80\xc3\xff#",
		func(b byte) bool { return !Plain[b] }, "PlainEnd", PlainEnd)
}

// TestQuoteOrSlashIsFirstOne: the trusted decoder's eight-byte search for
// a string's end or next escape finds the first quote or backslash, never
// one after it (a borrow from a lower byte must not mark a higher one).
func TestQuoteOrSlashIsFirstOne(t *testing.T) {
	checkFindsFirst(t, rand.New(rand.NewPCG(5, 6)), "aZ09 \"\\\x00\x01\x21\x5b\x5d\x5c\x22\x23\x7f\x80\xff#",
		func(b byte) bool { return b == '"' || b == '\\' }, "QuoteOrSlash",
		func(s []byte, i int) int { return QuoteOrSlash(string(s), i) })
}

// TestHex4ReadsWhatParseUintReads: four hex digits of either case are
// their value; anything else among them is refused.
func TestHex4ReadsWhatParseUintReads(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	alphabet := "0123456789abcdefABCDEFgG/:@`\x00\xff"
	for range 200000 {
		var b [4]byte
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		want, err := strconv.ParseUint(string(b[:]), 16, 32)
		got, ok := Hex4(string(b[:]))
		if ok != (err == nil) || ok && uint64(got) != want {
			t.Fatalf("Hex4(%q) = %d, %v; ParseUint: %d, %v", b, got, ok, want, err)
		}
	}
}

// checkFindsFirst holds search, from each place of random short texts
// (mostly 'a', every sixth byte from alphabet), to finding the first byte
// that stops is, as a byte by byte search would.
func checkFindsFirst(t *testing.T, r *rand.Rand, alphabet string, stops func(byte) bool, name string, search func([]byte, int) int) {
	t.Helper()
	for range 20000 {
		s := make([]byte, r.IntN(40))
		for i := range s {
			s[i] = 'a'
			if r.IntN(6) == 0 {
				s[i] = alphabet[r.IntN(len(alphabet))]
			}
		}
		for from := 0; from <= len(s); from++ {
			want := from
			for want < len(s) && !stops(s[want]) {
				want++
			}
			if got := search(s, from); got != want {
				t.Fatalf("%s(%q, %d) = %d, want %d", name, s, from, got, want)
			}
		}
	}
}

// TestCommonEscapeIsEscapeLen: read from a word, an escape the tools
// write often has the length EscapeLen gives it, and any other is left
// to EscapeLen (0).
func TestCommonEscapeIsEscapeLen(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	alphabet := "\"\\/bfnrtuxU0123456789aAfFgG\x00\xff"
	for range 200000 {
		var b [8]byte
		b[0] = '\\'
		for i := 1; i < len(b); i++ {
			b[i] = alphabet[r.IntN(len(alphabet))]
			if i >= 2 && i <= 3 && r.IntN(2) == 0 {
				b[i] = '0' // \u00XX often
			}
		}
		if r.IntN(2) == 0 {
			b[1] = 'u'
		}
		got, want := CommonEscape(binary.LittleEndian.Uint64(b[:])), EscapeLen(b[:])
		if got != 0 && got != want {
			t.Fatalf("CommonEscape(%q) = %d, EscapeLen %d", b, got, want)
		}
		if want == 2 && got != 2 || want == 6 && b[2] == '0' && b[3] == '0' && got != 6 {
			t.Fatalf("CommonEscape(%q) = %d, EscapeLen %d: a common escape missed", b, got, want)
		}
	}
}
