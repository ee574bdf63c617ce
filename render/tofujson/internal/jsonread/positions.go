package jsonread

import (
	"bytes"
	"io"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
)

// LineCol is the line and column (in characters) of byte offset off of data.
func LineCol(data []byte, off int64) (int, int) {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	line, col := 1, 1
	for _, b := range data[:off] {
		if b == '\n' {
			line, col = line+1, 1
		} else if b&0xC0 != 0x80 {
			col++
		}
	}
	return line, col
}

// Position is a line and column (in characters) of a text; writing
// text to it moves it past that text.
type Position struct{ Line, Column int }

func (p *Position) Write(b []byte) (int, error) {
	for _, c := range b {
		switch {
		case c == '\n':
			p.Line, p.Column = p.Line+1, 1
		case utf8.RuneStart(c):
			p.Column++
		}
	}
	return len(b), nil
}

// KindName names a kind of JSON token for an error message.
func KindName(k jsontext.Kind) string {
	switch k {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case '0':
		return "a number"
	case 'n':
		return "null"
	case 't', 'f':
		return "a boolean"
	}
	return "'" + string(k) + "'"
}

// TopLevelKeys lists the names of the members of the top-level object
// that start within b, the start of a document.
func TopLevelKeys(b []byte) []string {
	var keys []string
	depth, start := 0, -1
	inString, escaped := false, false
	for i, c := range b {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
				if depth == 1 && start >= 0 {
					rest := bytes.TrimLeft(b[i+1:], " \t\r\n")
					if len(rest) > 0 && rest[0] == ':' {
						keys = append(keys, string(b[start:i]))
					}
				}
				start = -1
			}
		case c == '"':
			inString, start = true, i+1
		case c == '{' || c == '[':
			depth++
		case c == '}' || c == ']':
			depth--
		}
	}
	return keys
}

// LeadingSpace counts the blank bytes at off of r (up to a few KB).
func LeadingSpace(r io.ReaderAt, off int64) int64 {
	buf := make([]byte, 4096)
	n, _ := r.ReadAt(buf, off)
	return int64(n - len(bytes.TrimLeft(buf[:n], " \t\r\n")))
}

// Clip shortens s to n bytes for a message.
func Clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
