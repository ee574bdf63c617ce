package jsonbytes

import (
	"unicode/utf16"
	"unicode/utf8"
)

// shortLen is 2 for the letter of an escape two bytes long, else 0.
var shortLen = [256]uint8{'"': 2, '\\': 2, '/': 2, 'b': 2, 'f': 2, 'n': 2, 'r': 2, 't': 2}

// CommonEscape is EscapeLen of the escape whose backslash is the first
// byte of w (eight bytes, see Word), when it is one the tools write
// often — two bytes long, or \u00XX for &, < and > — and 0 for any
// other, which EscapeLen reads. Small enough to be inlined where strings
// are checked, it spares most escapes a call.
func CommonEscape(w uint64) int {
	if w>>8&0xffffff == 'u'|'0'<<8|'0'<<16 && HexDigit[byte(w>>32)]|HexDigit[byte(w>>40)] <= 0xf {
		return 6
	}
	return int(shortLen[byte(w>>8)])
}

// EscapeLen is the length of the escape sequence at the start of s, 0
// when it is not valid: a \u escape of half a surrogate pair needs the
// other half after it.
func EscapeLen(s []byte) int {
	if len(s) < 2 {
		return 0
	}
	if n := shortLen[s[1]]; n != 0 {
		return int(n)
	}
	if s[1] != 'u' || len(s) < 6 {
		return 0
	}
	v1, ok := Hex4(s[2:6])
	if !ok {
		return 0
	}
	if !utf16.IsSurrogate(v1) {
		return 6
	}
	if len(s) < 12 || s[6] != '\\' || s[7] != 'u' {
		return 0
	}
	v2, ok := Hex4(s[8:12])
	if !ok || utf16.DecodeRune(v1, v2) == utf8.RuneError {
		return 0
	}
	return 12
}

// Hex4 reads the four hex digits of a \u escape: one table lookup each.
func Hex4[T string | []byte](s T) (rune, bool) {
	a, b, c, d := HexDigit[s[0]], HexDigit[s[1]], HexDigit[s[2]], HexDigit[s[3]]
	if a|b|c|d > 0xf {
		return 0, false
	}
	return rune(a)<<12 | rune(b)<<8 | rune(c)<<4 | rune(d), true
}

// HexDigit is each byte's value as a hex digit, 0xff when it is none.
var HexDigit = func() (t [256]byte) {
	for i := range t {
		switch {
		case i >= '0' && i <= '9':
			t[i] = byte(i - '0')
		case i >= 'a' && i <= 'f':
			t[i] = byte(i - 'a' + 10)
		case i >= 'A' && i <= 'F':
			t[i] = byte(i - 'A' + 10)
		default:
			t[i] = 0xff
		}
	}
	return t
}()
