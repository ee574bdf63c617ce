package jsonread

import (
	"bytes"
	"fmt"
)

// MaxValueDepth is the deepest nesting of arrays and objects planpr reads
// in a value. Every level indents the text by four columns, so a value
// nested 10,000 deep (20 KB of JSON) became 400 MB of text and a gigabyte
// of Markdown work; real values nest a few dozen levels at most.
const MaxValueDepth = 256

// ErrTooDeep is a value nested deeper than MaxValueDepth.
var ErrTooDeep = fmt.Errorf("a value is nested more than %d levels deep; planpr refuses such values (real plans nest a few dozen levels)", MaxValueDepth)

// DepthWithin reports whether the JSON text raw nests no deeper than
// limit. Values with few brackets in all are passed at once.
func DepthWithin(raw []byte, limit int) bool {
	if bytes.Count(raw, []byte{'['})+bytes.Count(raw, []byte{'{'}) <= limit {
		return true
	}
	depth, inString := 0, false
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if inString {
			switch c {
			case '\\':
				i++
			case '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case '[', '{':
			if depth++; depth > limit {
				return false
			}
		case ']', '}':
			depth--
		}
	}
	return true
}
