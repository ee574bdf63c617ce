// Package shape tells alike changes apart from different ones: a hash of
// what a change does with the values that follow from its instance key
// left out, at two strengths, computed from the plan's text in one pass.
package shape

import (
	"bytes"
	"encoding/json"
	"hash/maphash"
	"sync"

	"github.com/planpr/planpr/render/tofujson"
)

// shapeSeed makes shapes comparable within one process, which is all
// they are for.
var shapeSeed = maphash.MakeSeed()

// Shape identifies what a change does apart from its instance key, at
// two strengths (see Of).
type Shape struct {
	// Strict is equal for changes whose values differ only where their
	// own index or key appears (web-17, bucket-17/*).
	Strict uint64
	// Loose is equal, besides, for changes whose strings differ only in
	// words holding digits: ids (i-0abc12), addresses (10.0.3.17), names
	// numbered otherwise, and versions (t2, 14.2) too.
	Loose uint64
}

// Of hashes what a change does with the values that follow from its
// instance key left out, so that the changes of fleet[0] and fleet[299]
// hash alike when their diffs differ only in names, ids and addresses
// derived from the index. keys are the instance's count indexes and
// for_each keys, unquoted. Everything outside strings — structure,
// attribute names, numbers, booleans, unknown and sensitive marks — must
// be equal at both strengths.
func Of(c *tofujson.Change, keys []string) Shape {
	n := normalizers.Get().(*shapeNormalizer)
	defer normalizers.Put(n)
	n.keys, n.strict, n.loose = keys, n.strict[:0], n.loose[:0]
	if raw := c.RawValues(); raw != nil {
		for _, v := range raw {
			n.value(v)
		}
	} else {
		// Decoded already: the same text, as encoding/json writes it
		// (object members sorted, as the tools write them).
		for _, v := range []any{c.Before, c.After, c.AfterUnknown, c.BeforeSensitive, c.AfterSensitive} {
			b, _ := json.Marshal(v)
			n.value(b)
		}
	}
	return Shape{Strict: maphash.Bytes(shapeSeed, n.strict), Loose: maphash.Bytes(shapeSeed, n.loose)}
}

// normalizers keep their buffers from one change to the next.
var normalizers = sync.Pool{New: func() any { return &shapeNormalizer{} }}

// shapeNormalizer writes values normalized at both strengths.
type shapeNormalizer struct {
	strict, loose []byte
	keys          []string
	done          [2]int // how much of the value strict and loose have
}

// value writes one JSON value, in one pass over its bytes: as is, but
// for the words inside its strings that are instance keys (strict and
// loose) or hold digits (loose). Words are runs of letters, digits and _;
// numbers outside strings stay as they are. A for_each key of several
// characters is replaced wherever it appears, as a word or not.
func (n *shapeNormalizer) value(v []byte) {
	for _, k := range n.keys {
		if len(k) > 1 && !isDigits(k) && bytes.Contains(v, []byte(k)) {
			v = bytes.ReplaceAll(v, []byte(k), []byte{'#'})
		}
	}
	n.strict, n.loose = append(n.strict, 0), append(n.loose, 0)
	n.done = [2]int{}
	inString, escaped := false, false
	word, digit := -1, false // where the word being read starts
	for i, b := range v {
		if escaped { // the byte after a backslash: n of \n, u of \u0026
			escaped = false
			continue
		}
		c := byteClass[b]
		if c != other {
			if word < 0 {
				word, digit = i, false
			}
			digit = digit || c == digitLike
			continue
		}
		if word >= 0 {
			if inString && (digit || i-word == 1) {
				n.word(v, word, i, digit)
			}
			word = -1
		}
		switch {
		case b == '"':
			inString = !inString
		case b == '\\' && inString:
			escaped = true
		}
	}
	if word >= 0 && inString && (digit || len(v)-word == 1) {
		n.word(v, word, len(v), digit)
	}
	n.strict, n.loose = append(n.strict, v[n.done[0]:]...), append(n.loose, v[n.done[1]:]...)
}

// word replaces v[start:end], a word inside a string, where it is a key
// (both) or holds a digit (loose).
func (n *shapeNormalizer) word(v []byte, start, end int, digit bool) {
	key := n.isKey(v[start:end])
	if key {
		n.strict = append(append(n.strict, v[n.done[0]:start]...), '#')
		n.done[0] = end
	}
	if digit || key {
		n.loose = append(append(n.loose, v[n.done[1]:start]...), '#')
		n.done[1] = end
	}
}

// isKey reports whether a whole word is one of the instance's keys.
func (n *shapeNormalizer) isKey(word []byte) bool {
	for _, k := range n.keys {
		if len(k) == len(word) && string(word) == k {
			return true
		}
	}
	return false
}

const (
	other     = iota // punctuation, spaces, anything outside words
	wordByte         // a letter or _
	digitLike        // a digit, or '#' (a key replaced)
)

// byteClass sorts bytes for the loose shape: words are letters, digits
// and _.
var byteClass = func() (c [256]uint8) {
	for b := range 256 {
		switch {
		case b >= '0' && b <= '9' || b == '#':
			c[b] = digitLike
		case b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b == '_':
			c[b] = wordByte
		}
	}
	return c
}()

func isDigits(s string) bool {
	for i := range len(s) {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
