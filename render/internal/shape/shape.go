// Package shape tells alike changes apart from different ones: a hash of
// what a change does with the values that follow from its instance key
// left out, at two strengths, computed from the plan's text in one pass.
package shape

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"hash/maphash"
	"strings"
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
	n.setKeys(keys)
	n.strict, n.loose = n.strict[:0], n.loose[:0]
	n.attrs[0], n.attrs[1] = n.attrs[0][:0], n.attrs[1][:0]
	n.lastTop = [2]int{}

	values := c.RawValues()
	if values == nil {
		// Decoded already: the same text, as encoding/json writes it
		// (object members sorted, as the tools write them).
		for _, v := range []any{c.Before, c.After, c.AfterUnknown, c.BeforeSensitive, c.AfterSensitive} {
			b, _ := json.Marshal(v)
			values = append(values, b)
		}
	}
	// A creation or a destruction changes no attribute from one value to
	// the other (see changed): its words need not be kept per attribute.
	n.perAttribute = !wordless(values[0]) && !wordless(values[1])
	for i, v := range values {
		n.value = i
		n.write(v)
	}
	n.changed()
	return Shape{Strict: maphash.Bytes(shapeSeed, n.strict), Loose: maphash.Bytes(shapeSeed, n.loose)}
}

// setKeys sets the instance's keys the words are compared with.
func (n *shapeNormalizer) setKeys(keys []string) {
	n.keys, n.shortKey, n.keyLens = keys, false, 0
	for _, k := range keys {
		n.keyLens |= 1 << min(len(k), 63)
		n.shortKey = n.shortKey || len(k) == 1 && !isDigits(k)
	}
}

// normalizers keep their buffers from one change to the next.
var normalizers = sync.Pool{New: func() any { return &shapeNormalizer{} }}

// shapeNormalizer writes values normalized at both strengths.
type shapeNormalizer struct {
	strict, loose []byte
	keys          []string
	done          [2]int // how much of the value strict and loose have
	// attrs are what the loose strength replaced in the before and after
	// values (a hash of their bytes), per top-level attribute: which
	// attributes it changed in is part of the loose shape, so that size =
	// 2 -> 4 and size = 3 -> 3 do not look alike.
	attrs   [2][]attrWords
	lastTop [2]int // topID+1 of the last of attrs (0: none yet)
	value   int    // which value is being written (0 before, 1 after, …)
	// perAttribute says that neither the before nor the after value is
	// null, so that attrs are kept.
	perAttribute bool
	top          []byte // the top-level attribute being written
	topID        int    // counts the top-level attributes written, so that words compare it cheaply
	shortKey     bool   // some key is one letter: one-letter words may be keys
	keyLens      uint64 // bit i set: some key is i bytes long (63: or longer)
}

// attrWords are the words replaced in one top-level attribute, hashed
// (FNV-1a, each word ended by a 0): two attributes' words are compared,
// never read back.
type attrWords struct {
	name  []byte
	id    int // the topID it was written under
	words uint64
}

const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

// hashWord adds a word to h, eight bytes at a time, and its end.
func hashWord(h uint64, w []byte) uint64 {
	for len(w) >= 8 {
		h = (h ^ binary.LittleEndian.Uint64(w)) * fnvPrime
		h ^= h >> 29
		w = w[8:]
	}
	var tail uint64
	for i, c := range w {
		tail |= uint64(c) << (8 * i)
	}
	h = (h ^ tail ^ uint64(len(w))<<59) * fnvPrime
	return h ^ h>>29
}

// changed writes, at the loose strength, the top-level attributes whose
// replaced words differ between the before and the after value: alike
// updates change the same attributes. Both values list their attributes
// in one order (the tools write object members sorted).
func (n *shapeNormalizer) changed() {
	before, after := n.attrs[0], n.attrs[1]
	if len(before) == 0 || len(after) == 0 {
		return
	}
	n.loose = append(n.loose, 0)
	for len(before) > 0 && len(after) > 0 {
		switch c := bytes.Compare(before[0].name, after[0].name); {
		case c < 0:
			before = before[1:]
		case c > 0:
			after = after[1:]
		default:
			mark := byte('=')
			b, a := before[0], after[0]
			if b.words != a.words {
				mark = '~'
			}
			n.loose = append(append(n.loose, before[0].name...), mark)
			before, after = before[1:], after[1:]
		}
	}
}

// write writes one JSON value, in one pass over its bytes: as is, but
// for the words inside its strings that are instance keys (strict and
// loose) or hold digits (loose), and the numbers outside strings, which
// are replaced where they are a key (strict and loose) and always at the
// loose strength. Words are runs of letters, digits and _. A for_each key
// of several characters is replaced wherever it appears, as a word or
// not.
func (n *shapeNormalizer) write(v []byte) {
	for _, k := range n.keys {
		if len(k) > 1 && !isDigits(k) && bytes.Contains(v, []byte(k)) {
			v = bytes.ReplaceAll(v, []byte(k), []byte{'#'})
		}
	}
	n.strict, n.loose = append(n.strict, 0), append(n.loose, 0)
	n.done = [2]int{}
	n.top = nil
	if n.shortKey {
		n.writeEachWord(v)
	} else {
		n.writeDigitWords(v)
	}
	n.strict, n.loose = append(n.strict, v[n.done[0]:]...), append(n.loose, v[n.done[1]:]...)
}

// writeDigitWords finds the words of v that hold digits, skipping over
// the rest a run at a time: with no key of one letter, no other word is
// replaced. It finds what writeEachWord finds (TestFastPathAgrees).
func (n *shapeNormalizer) writeDigitWords(v []byte) {
	var at position
	floor := 0 // where a word may begin: not on the byte after a backslash
	for i := 0; i < len(v); {
		special := &outside
		if at.inString {
			special = &inside
		}
		for i < len(v) && !special[v[i]] {
			i++
		}
		if i == len(v) {
			break
		}
		switch b := v[i]; {
		case b == '\\': // inside a string only
			i += 2
			floor = i
		case byteClass[b] == digitLike:
			start, end := i, i+1
			for start > floor && byteClass[v[start-1]] != other {
				start--
			}
			for end < len(v) && byteClass[v[end]] != other {
				end++
			}
			n.word(v, start, end, true)
			i = end
		default:
			n.punctuation(&at, v, i)
			i++
		}
	}
}

// inside and outside are the bytes writeDigitWords stops at, in a string
// and outside one.
var inside, outside = func() (in, out [256]bool) {
	for b := range 256 {
		digit := byteClass[b] == digitLike
		in[b] = digit || b == '"' || b == '\\'
		out[b] = digit || b == '"' || strings.IndexByte("{}[],", byte(b)) >= 0
	}
	return in, out
}()

// writeEachWord reads every word of v, for keys of one letter.
func (n *shapeNormalizer) writeEachWord(v []byte) {
	var at position
	for i := 0; i < len(v); {
		b := v[i]
		if byteClass[b] != other { // a word, read whole
			start, digit := i, false
			for ; i < len(v); i++ {
				c := byteClass[v[i]]
				if c == other {
					break
				}
				digit = digit || c == digitLike
			}
			if digit || at.inString && n.shortKey && i-start == 1 {
				n.word(v, start, i, digit)
			}
			continue
		}
		if b == '\\' && at.inString {
			i += 2 // the byte after a backslash (n of \n, u of \u0026) begins no word
			continue
		}
		if b == '"' || !at.inString {
			n.punctuation(&at, v, i)
		}
		i++
	}
}

// position is where a reader of a value's bytes is: in a string or not,
// its depth, and at depth 1 whether the string being read is an
// attribute's name (and where that name began).
type position struct {
	inString, nameNext bool
	depth, nameStart   int
}

// punctuation follows v[i], a quote or a byte outside any string; a
// top-level attribute's name, once its closing quote is read, becomes
// n.top.
func (n *shapeNormalizer) punctuation(at *position, v []byte, i int) {
	switch b := v[i]; b {
	case '"':
		at.inString = !at.inString
		switch {
		case at.inString && at.nameNext:
			at.nameStart, at.nameNext = i+1, false
		case !at.inString && at.nameStart > 0:
			n.top, at.nameStart = v[at.nameStart:i], 0
			n.topID++
		}
	case '{', '[':
		at.depth++
		at.nameNext = at.depth == 1 && b == '{'
	case '}', ']':
		at.depth--
	case ',':
		if at.depth == 1 {
			at.nameNext = v[0] == '{'
		}
	}
}

// word replaces v[start:end], a word inside a string, where it is a key
// (both) or holds a digit (loose).
func (n *shapeNormalizer) word(v []byte, start, end int, digit bool) {
	key := false
	if n.keyLens&(1<<min(end-start, 63)) != 0 {
		for _, k := range n.keys {
			if len(k) == end-start && string(v[start:end]) == k {
				key = true
				break
			}
		}
	}
	if key {
		n.strict = append(append(n.strict, v[n.done[0]:start]...), '#')
		n.done[0] = end
	}
	if !digit && !key {
		return
	}
	n.loose = append(append(n.loose, v[n.done[1]:start]...), '#')
	n.done[1] = end
	if k := n.value; k < len(n.attrs) && n.perAttribute {
		attrs := &n.attrs[k]
		if n.lastTop[k] != n.topID+1 {
			*attrs = append(*attrs, attrWords{name: n.top, id: n.topID, words: fnvOffset})
			n.lastTop[k] = n.topID + 1
		}
		last := &(*attrs)[len(*attrs)-1]
		last.words = hashWord(last.words, v[start:end])
	}
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

// wordless reports whether a value's text is null (or absent): it holds
// no word.
func wordless(v []byte) bool { return len(v) == 0 || string(v) == "null" }

func isDigits(s string) bool {
	for i := range len(s) {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
