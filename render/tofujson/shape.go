package tofujson

import (
	"bytes"
	"encoding/json"
	"hash/maphash"
	"sync"
)

// shapeSeed makes shapes comparable within one process, which is all
// they are for.
var shapeSeed = maphash.MakeSeed()

// ChangeShape identifies what a change does apart from its instance key,
// at two strengths (see Change.Shape).
type ChangeShape struct {
	// Strict is equal for changes whose values differ only where their
	// own index or key appears (web-17, bucket-17/*).
	Strict uint64
	// Loose is equal, besides, for changes whose strings differ only in
	// words holding digits: ids (i-0abc12), addresses (10.0.3.17), names
	// numbered otherwise, and versions (t2, 14.2) too.
	Loose uint64
}

// Shape hashes what a change does with the values that follow from its
// instance key left out, so that the changes of fleet[0] and fleet[299]
// hash alike when their diffs differ only in names, ids and addresses
// derived from the index. keys are the instance's count indexes and
// for_each keys, unquoted. Everything outside strings — structure,
// attribute names, numbers, booleans, unknown and sensitive marks — must
// be equal at both strengths.
func (c *Change) Shape(keys []string) ChangeShape {
	n := normalizers.Get().(*shapeNormalizer)
	defer normalizers.Put(n)
	n.keys, n.strict, n.loose = keys, n.strict[:0], n.loose[:0]
	if r := c.raw; r != nil {
		for _, v := range [][]byte{r.before, r.after, r.afterUnknown, r.beforeSensitive, r.afterSensitive} {
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
	return ChangeShape{Strict: maphash.Bytes(shapeSeed, n.strict), Loose: maphash.Bytes(shapeSeed, n.loose)}
}

// normalizers keep their buffers from one change to the next.
var normalizers = sync.Pool{New: func() any { return &shapeNormalizer{} }}

// shapeNormalizer writes values normalized at both strengths.
type shapeNormalizer struct {
	strict, loose []byte
	keys          []string
}

// value writes one JSON value: its strings normalized, the rest as is.
func (n *shapeNormalizer) value(v []byte) {
	n.strict, n.loose = append(n.strict, 0), append(n.loose, 0)
	for len(v) > 0 {
		q := bytes.IndexByte(v, '"')
		if q < 0 {
			q = len(v)
		}
		for _, b := range v[:q] {
			if b > ' ' { // whitespace between tokens means nothing
				n.strict, n.loose = append(n.strict, b), append(n.loose, b)
			}
		}
		if q == len(v) {
			return
		}
		end := stringEnd(v, q+1)
		n.str(v[q+1 : end])
		v = v[min(end+1, len(v)):]
	}
}

// stringEnd is the position of the quote that ends the string whose
// contents start at v[i:] (len(v) when none does).
func stringEnd(v []byte, i int) int {
	for {
		q := bytes.IndexByte(v[i:], '"')
		if q < 0 {
			return len(v)
		}
		q += i
		backslashes := 0
		for j := q - 1; j >= i && v[j] == '\\'; j-- {
			backslashes++
		}
		if backslashes%2 == 0 {
			return q
		}
		i = q + 1
	}
}

// str writes a string's contents: strictly with the instance's keys
// replaced by '#', loosely with every word holding a digit or a key
// replaced too. A number or a key of one character is replaced where it
// is a whole word (17 in web-17 and 10.0.0.17, not in 170 or t17), a
// longer key wherever it appears.
func (n *shapeNormalizer) str(s []byte) {
	for _, k := range n.keys {
		if len(k) > 1 && !isDigits(k) && bytes.Contains(s, []byte(k)) {
			s = bytes.ReplaceAll(s, []byte(k), []byte{'#'})
		}
	}
	n.strict, n.loose = append(n.strict, '"'), append(n.loose, '"')
	// Copied in runs: s[:strictDone] and s[:looseDone] are written.
	strictDone, looseDone := 0, 0
	for i := 0; i < len(s); {
		j := i + 1
		if byteClass[s[i]] == other {
			for j < len(s) && byteClass[s[j]] == other {
				j++
			}
			i = j
			continue
		}
		digit := byteClass[s[i]] == digitLike
		for j < len(s) && byteClass[s[j]] != other {
			digit = digit || byteClass[s[j]] == digitLike
			j++
		}
		key := (digit || j-i == 1) && n.isKey(s[i:j])
		if key {
			n.strict = append(append(n.strict, s[strictDone:i]...), '#')
			strictDone = j
		}
		if digit || key {
			n.loose = append(append(n.loose, s[looseDone:i]...), '#')
			looseDone = j
		}
		i = j
	}
	n.strict, n.loose = append(append(n.strict, s[strictDone:]...), '"'), append(append(n.loose, s[looseDone:]...), '"')
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
