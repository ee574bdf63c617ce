package shape

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"slices"

	"github.com/planpr/planpr/render/tofujson"
)

// Follows reports whether change c is alike change p at the loose
// strength (their Loose shapes are equal), and if so whether strictly too,
// by comparing their texts rather than hashing each: the changes of one
// resource that come one after the other in a plan differ in a few words
// (fleet[7] and fleet[8] in their names and addresses), and comparing
// stops at those words only, where hashing stops at every word holding a
// digit. A change with a value before and after must also change the
// same attributes in those words (see sameChanged). For_each keys are
// replaced first, as Of replaces them (see follow_keys.go). It answers
// false where it cannot tell so cheaply — an escape next to a differing
// word, keys of one letter, members whose places are not known, a decoded
// change — and Of then decides. ck and pk are c's and p's instance keys.
func Follows(c, p *tofujson.Change, ck, pk []string) (alike, strictly bool) {
	cd, pd := compareds.Get().(*compared), compareds.Get().(*compared)
	defer compareds.Put(cd)
	defer compareds.Put(pd)
	if !cd.of(c, ck) || !pd.of(p, pk) {
		return false, false
	}
	return follows(cd, pd)
}

// follows is Follows of two changes as compared reads them.
func follows(c, p *compared) (alike, strictly bool) {
	m := matcher{ck: c.keys, pk: p.keys}
	for i := range c.values {
		if !m.values(c.values[i], p.values[i]) {
			return false, false
		}
	}
	if !wordless(c.values[0]) && !wordless(c.values[1]) && !sameChanged(c, p) {
		return false, false
	}
	return true, m.strictly(c.values, p.values)
}

// A matcher compares two changes' values, a pair at a time, noting the
// words that differ (see Follows).
type matcher struct {
	ck, pk []string
	// notStrict: a pair of differing words is not a key of each change.
	notStrict bool
	// keysApart count the differing words that are a key of one change
	// only (c's, p's): the strict strength replaces those wherever they
	// are, so every such word must be one of them.
	keysApart [2]int
}

// values reports whether a and b are alike at the loose strength: equal
// but for words holding digits, differing word for word. Each stretch of
// equal bytes normalizes alike in both (words are runs of word bytes, so
// a word is decided by its own bytes and the bytes around it); where the
// bytes differ, the word there must hold a digit in both.
func (m *matcher) values(a, b []byte) bool {
	i, j := 0, 0
	for {
		k := commonPrefix(a[i:], b[j:])
		lo := i
		i, j = i+k, j+k
		if i == len(a) && j == len(b) {
			return true
		}
		sa, ea, ok := digitWordAt(a, i, lo)
		if !ok {
			return false
		}
		// b's bytes before j are a's before i, back to lo: its word starts
		// as far back (and after no backslash). Only its end can differ.
		sb, eb := j-(i-sa), wordEnd(b, j)
		if sb == eb || !holdsDigit(b[sb:eb]) {
			return false
		}
		if !m.notStrict { // else decided: spare the call, made for each word
			m.differ(a[sa:ea], b[sb:eb])
		}
		i, j = ea, eb
	}
}

// digitWordAt is the word of v that holds p or ends at it, when Of's
// loose strength replaces it whole: it holds a digit and is no escape's
// (no backslash before it). lo is where the bytes equal in both values
// began: a word ending there was compared already.
func digitWordAt(v []byte, p, lo int) (start, end int, ok bool) {
	start, end = wordStart(v, p, lo), wordEnd(v, p)
	if start == end || start > 0 && v[start-1] == '\\' || !holdsDigit(v[start:end]) {
		return 0, 0, false
	}
	return start, end, true
}

// differ notes a pair of differing words: strictly alike, both are their
// change's keys.
func (m *matcher) differ(c, p []byte) {
	if m.notStrict {
		return // decided
	}
	inC, inP := isKeyIn(c, m.ck), isKeyIn(p, m.pk)
	if !inC || !inP {
		m.notStrict = true
		return
	}
	if !isKeyIn(c, m.pk) {
		m.keysApart[0]++
	}
	if !isKeyIn(p, m.ck) {
		m.keysApart[1]++
	}
}

// strictly reports whether the values, alike at the loose strength, are
// strictly alike: every differing word is a key of its change, and the
// words that are a key of one change only (which the strict strength
// replaces in that change alone) are all among them.
func (m *matcher) strictly(cv, pv [][]byte) bool {
	if m.notStrict {
		return false
	}
	for side, of := range [2]struct {
		values     [][]byte
		keys, skip []string
	}{{cv, m.ck, m.pk}, {pv, m.pk, m.ck}} {
		n := 0
		for _, k := range of.keys {
			if k == "" || slices.Contains(of.skip, k) || slices.Contains(of.keys[:slices.Index(of.keys, k)], k) {
				continue // a key of both, or counted already
			}
			for _, v := range of.values {
				n += keyWords(v, []byte(k))
			}
		}
		if n != m.keysApart[side] {
			return false
		}
	}
	return true
}

// isKeyIn reports whether w is one of keys.
func isKeyIn(w []byte, keys []string) bool {
	for _, k := range keys {
		if string(w) == k {
			return true
		}
	}
	return false
}

// keyWords counts the places where k is a word of v as Of finds words:
// a whole run of word bytes, or what follows an escape at its start (the
// 100 of \n100 or \u0026100).
func keyWords(v, k []byte) int {
	n := 0
	for i := 0; ; i++ {
		at := bytes.Index(v[i:], k)
		if at < 0 {
			return n
		}
		i += at
		end := i + len(k)
		if wordEnd(v, end) != end {
			continue
		}
		start := wordStart(v, i, 0)
		if start < i && escaped(v, start) {
			start = min(escapeEnd(v, start), end)
		}
		if start == i {
			n++
		}
	}
}

// commonPrefix is how many bytes a and b begin with alike, 32 and then
// eight at a time. Each word is one load, its bound the loop's condition.
func commonPrefix(a, b []byte) int {
	n := min(len(a), len(b))
	a, b = a[:n], b[:n]
	i := 0
	for ; uint(i)+32 <= uint(n); i += 32 {
		// ^ and | bind alike in Go: each pair is bracketed.
		if (word(a, i)^word(b, i))|(word(a, i+8)^word(b, i+8))|
			(word(a, i+16)^word(b, i+16))|(word(a, i+24)^word(b, i+24)) != 0 {
			break
		}
	}
	for ; uint(i)+8 <= uint(n); i += 8 {
		if x := word(a, i) ^ word(b, i); x != 0 {
			return i + bits.TrailingZeros64(x)/8
		}
	}
	for ; i < n && a[i] == b[i]; i++ {
	}
	return i
}

// word is the little-endian word of the eight bytes from p[i] on, which
// the caller has checked are there.
func word(p []byte, i int) uint64 {
	return binary.LittleEndian.Uint64(p[i : i+8])
}
