// Package shape tells alike changes apart from different ones: a hash of
// what a change does with the values that follow from its instance key
// left out, at two strengths, computed from the plan's text in one pass.
package shape

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"hash/maphash"
	"math/bits"
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
	n.loose, n.strictWords = n.loose[:0], fnvOffset
	n.attrs[0], n.attrs[1] = n.attrs[0][:0], n.attrs[1][:0]
	n.lastTop = [2]int{}

	values := c.RawValues()
	var members [2][]uint32
	if values == nil {
		// Decoded already: the same text, as encoding/json writes it
		// (object members sorted, as the tools write them).
		for _, v := range []any{c.Before, c.After, c.AfterUnknown, c.BeforeSensitive, c.AfterSensitive} {
			b, _ := json.Marshal(v)
			values = append(values, b)
		}
	} else {
		members[0], members[1] = c.MemberOffsets()
	}
	// A creation or a destruction changes no attribute from one value to
	// the other (see changed): its words need not be kept per attribute.
	n.perAttribute = !wordless(values[0]) && !wordless(values[1])
	for i, v := range values {
		n.value = i
		var m []uint32
		if i < len(members) {
			m = members[i]
		}
		n.write(v, m)
	}
	n.changed()
	loose := maphash.Bytes(shapeSeed, n.loose)
	var both [16]byte
	binary.LittleEndian.PutUint64(both[:8], loose)
	binary.LittleEndian.PutUint64(both[8:], n.strictWords)
	return Shape{Strict: maphash.Bytes(shapeSeed, both[:]), Loose: loose}
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

// shapeNormalizer writes values normalized at the loose strength, and
// hashes what the strict strength keeps of the words loose replaces.
type shapeNormalizer struct {
	loose []byte
	// strictWords hashes, in order, each word loose replaced: empty where
	// it is a key (the strict strength replaces it too), else the word.
	// With loose, it tells what the strict strength would have written.
	strictWords uint64
	keys        []string
	done        int // how much of the value loose has
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
	topID        int    // counts the value's top-level attributes from 1; 0 before the first
	shortKey     bool   // some key is one letter: one-letter words may be keys
	keyLens      uint64 // bit i set: some key is i bytes long (63: or longer)
	replaced     [2][]byte
}

// attrWords are the words replaced in one top-level attribute, hashed
// (each word's hash added in turn, see addWord): two attributes' words
// are compared, never read back.
type attrWords struct {
	name  []byte
	id    int // the topID it was written under
	words uint64
}

const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

// hashWord hashes a word, eight bytes at a time, and its length.
func hashWord(w []byte) uint64 {
	h := uint64(fnvOffset)
	for len(w) >= 8 {
		h = (h ^ binary.LittleEndian.Uint64(w)) * fnvPrime
		h ^= h >> 29
		w = w[8:]
	}
	var tail uint64
	if len(w) > 0 && cap(w) >= 8 {
		// The word's bytes from one load: w usually has room after it
		// in the value it was cut from, which is read, never kept.
		tail = binary.LittleEndian.Uint64(w[:8]) & (1<<(8*len(w)) - 1)
	} else {
		for i, c := range w {
			tail |= uint64(c) << (8 * i)
		}
	}
	h = (h ^ tail ^ uint64(len(w))<<59) * fnvPrime
	return h ^ h>>29
}

// addWord adds a word's hash to h, the hash of the words before it.
func addWord(h, word uint64) uint64 {
	h = (h ^ word) * fnvPrime
	return h ^ h>>29
}

// keyWord stands for a word that is an instance key in the strict hash:
// the hash of no word.
var keyWord = hashWord(nil)

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
// loose strength. Words are runs of letters, digits and _; an escape
// (\n, \u0026) belongs to no word. A for_each key of several characters
// is replaced wherever it appears, as a word or not. members are where
// the value's own members begin, when the reader kept them.
func (n *shapeNormalizer) write(v []byte, members []uint32) {
	v, members = n.replaceKeys(v, members)
	n.loose = append(n.loose, 0)
	n.done = 0
	n.top, n.topID = nil, 0
	attributed := n.perAttribute && n.value < len(n.attrs)
	switch {
	case n.shortKey:
		n.writeEachWord(v)
	case !attributed:
		n.writeDigitWords(v, nil)
	case len(v) > 0 && v[0] == '{' && !membersFit(v, members):
		n.writeEachWord(v) // where the members begin is not known: read them
	default:
		n.writeDigitWords(v, members)
	}
	n.loose = append(n.loose, v[n.done:]...)
}

// replaceKeys is replaceKeys with the instance's keys and buffers.
func (n *shapeNormalizer) replaceKeys(v []byte, members []uint32) ([]byte, []uint32) {
	return replaceKeys(v, members, n.keys, &n.replaced)
}

// replaceKeys replaces each for_each key of several characters wherever
// it appears in v, and moves members along. Members a key's text covers
// are dropped: the value is then read whole. The text is v when no key
// appears in it, else one of bufs, which it writes in turn.
func replaceKeys(v []byte, members []uint32, keys []string, bufs *[2][]byte) ([]byte, []uint32) {
	for _, k := range keys {
		at := -1
		if len(k) > 1 && !isDigits(k) {
			at = indexKey(v, k)
		}
		if at < 0 {
			continue
		}
		out := bufs[0][:0]
		moved := members[:0:0]
		next, removed := 0, 0
		for rest := 0; ; {
			if at < 0 { // the next occurrence; the first is known
				if at = indexKey(v[rest:], k); at >= 0 {
					at += rest
				}
			}
			end := len(v)
			if at >= 0 {
				end = at
			}
			for ; next < len(members) && int(members[next]) < end; next++ {
				if int(members[next]) >= rest {
					moved = append(moved, members[next]-uint32(removed))
				} else {
					moved = nil // inside the key's text
				}
			}
			out = append(out, v[rest:end]...)
			if at < 0 {
				break
			}
			out = append(out, '#')
			removed += len(k) - 1
			rest, at = at+len(k), -1
		}
		if len(moved) != len(members) {
			moved = nil
		}
		bufs[0], bufs[1] = bufs[1], out
		v, members = out, moved
	}
	return v, members
}

// membersFit reports whether members are where an object's members begin
// in v: each the opening quote of a name, in order.
func membersFit(v []byte, members []uint32) bool {
	if len(members) == 0 {
		return false
	}
	last := 0
	for _, m := range members {
		if int(m) <= last || int(m) >= len(v) || v[m] != '"' {
			return false
		}
		last = int(m)
	}
	return true
}

// writeDigitWords finds the words of v that hold digits, skipping over
// the rest a run at a time: with no key of one letter, no other word is
// replaced. v is valid JSON, so a backslash only ever begins an escape in
// a string; members, when not nil, are where v's own members begin, and
// tell which top-level attribute a word is in. It finds and writes what
// writeEachWord does (TestFastPathAgrees), in one loop that keeps what
// changes from word to word in locals: it sees every word of every
// value, and word's bookkeeping through n cost more than the finding.
func (n *shapeNormalizer) writeDigitWords(v []byte, members []uint32) {
	loose, done, strict := n.loose, n.done, n.strictWords
	attributed := n.perAttribute && n.value < len(n.attrs)
	member := -1
	for i := 0; ; {
		if i = nextDigit(v, i); i >= len(v) {
			break
		}
		start, end, found := wordAt(v, i)
		if i = end; !found {
			continue
		}
		for member+1 < len(members) && int(members[member+1]) <= start {
			member++
			n.top, n.topID = nameAt(v, int(members[member])), member+1
		}
		w := v[start:end]
		word := hashWord(w)
		if n.isKey(w) {
			strict = addWord(strict, keyWord)
		} else {
			strict = addWord(strict, word)
		}
		loose = append(append(loose, v[done:start]...), '#')
		done = end
		if attributed {
			n.attribute(word)
		}
	}
	n.loose, n.done, n.strictWords = loose, done, strict
}

// wordAt is the word holding v[i], a digit, when it is one the loose
// strength replaces, and where to look for the next digit.
func wordAt(v []byte, i int) (start, end int, found bool) {
	if i >= 2 && v[i-1] == 'u' && v[i-2] == '\\' && escaped(v, i-1) {
		// The hex digits of \u0026, the commonest stop: a word right
		// after them holding a digit is found from there.
		return i, min(i+4, len(v)), false
	}
	start, end = wordStart(v, i, 0), wordEnd(v, i+1)
	if escaped(v, start) {
		// The word begins with an escape's letter (the n of \n) or is
		// its hex digits (\u0026): the word, if any, is after it.
		start = min(escapeEnd(v, start), end)
		return start, end, holdsDigit(v[start:end])
	}
	return start, end, true
}

// wordStart is where the run of word bytes ending at i begins, lo at the
// earliest.
func wordStart(v []byte, i, lo int) int {
	for i > lo && byteClass[v[i-1]] != other {
		i--
	}
	return i
}

// wordEnd is where the run of word bytes from i on ends.
func wordEnd(v []byte, i int) int {
	for i < len(v) && byteClass[v[i]] != other {
		i++
	}
	return i
}

// nextDigit is the place of the first digit or # in v from i on, or
// len(v): eight bytes at a time, as words holding digits are a dozen
// bytes or more apart.
func nextDigit(v []byte, i int) int {
	rest := v[i:]
	for ; len(rest) >= 8; rest = rest[8:] {
		if m := digitsIn8(binary.LittleEndian.Uint64(rest)); m != 0 {
			return len(v) - len(rest) + bits.TrailingZeros64(m)/8
		}
	}
	for k, b := range rest {
		if byteClass[b] == digitLike {
			return len(v) - len(rest) + k
		}
	}
	return len(v)
}

// digitsIn8 marks the digits and #s of x with their top bit. A byte b is a
// digit when b^'0' is 0 to 9: neither its top bit set nor set by adding
// 0x76 to its low seven bits; a # when b^'#' is 0, with 0x7f. Neither sum
// carries into the next byte, so every byte is tested exactly.
func digitsIn8(x uint64) uint64 {
	const ones, highs, lows = 0x0101010101010101, 0x8080808080808080, 0x7f7f7f7f7f7f7f7f
	d, h := x^'0'*ones, x^'#'*ones
	return ^((d&lows + (0x80-10)*ones | d) & (h&lows + lows | h)) & highs
}

// escaped reports whether v[i] follows an odd run of backslashes: it is
// an escape's letter.
func escaped(v []byte, i int) bool {
	odd := false
	for i > 0 && v[i-1] == '\\' {
		odd = !odd
		i--
	}
	return odd
}

// escapeEnd is where the escape whose letter is v[i] ends.
func escapeEnd(v []byte, i int) int {
	if v[i] == 'u' {
		return min(i+5, len(v))
	}
	return i + 1
}

func holdsDigit(w []byte) bool {
	for _, b := range w {
		if byteClass[b] == digitLike {
			return true
		}
	}
	return false
}

// nameAt is the name of the member whose opening quote is v[i], as
// written.
func nameAt(v []byte, i int) []byte {
	for end := i + 1; end < len(v); end++ {
		if v[end] == '"' && !escaped(v, end) {
			return v[i+1 : end]
		}
	}
	return v[i+1:]
}

// writeEachWord reads every word of v, for keys of one letter and for
// values whose members' places are not known.
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
			// An escape's letter (the n of \n, the u0026 of \u0026)
			// begins no word.
			if i++; i < len(v) {
				i = escapeEnd(v, i)
			}
			continue
		}
		if b == '"' || !at.inString {
			n.punctuation(&at, v, i)
		}
		i++
	}
}

// position is where a reader of a value's bytes is: in a string or not,
// its depth, and at depth 1 whether the next string is an attribute's
// name.
type position struct {
	inString, nameNext bool
	depth              int
}

// punctuation follows v[i], a quote or a byte outside any string; a
// top-level attribute's name, as its opening quote is read, becomes
// n.top.
func (n *shapeNormalizer) punctuation(at *position, v []byte, i int) {
	switch b := v[i]; b {
	case '"':
		at.inString = !at.inString
		if at.inString && at.nameNext {
			n.top, at.nameNext = nameAt(v, i), false
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
	key := n.isKey(v[start:end])
	if !digit && !key {
		return
	}
	// Each word is hashed once, for the strict hash and its attribute's.
	word := hashWord(v[start:end])
	if key {
		n.strictWords = addWord(n.strictWords, keyWord)
	} else {
		n.strictWords = addWord(n.strictWords, word)
	}
	n.loose = append(append(n.loose, v[n.done:start]...), '#')
	n.done = end
	if n.perAttribute && n.value < len(n.attrs) {
		n.attribute(word)
	}
}

// isKey reports whether w is one of the instance's keys: most words are
// ruled out by their length alone.
func (n *shapeNormalizer) isKey(w []byte) bool {
	return n.keyLens&(1<<min(len(w), 63)) != 0 && isKeyIn(w, n.keys)
}

// attribute adds a replaced word's hash to the words of the top-level
// attribute being written.
func (n *shapeNormalizer) attribute(word uint64) {
	k := n.value
	attrs := &n.attrs[k]
	if n.lastTop[k] != n.topID+1 {
		*attrs = append(*attrs, attrWords{name: n.top, id: n.topID, words: fnvOffset})
		n.lastTop[k] = n.topID + 1
	}
	last := &(*attrs)[len(*attrs)-1]
	last.words = addWord(last.words, word)
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
