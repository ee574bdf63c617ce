package shape

import (
	"sync"

	"github.com/planpr/planpr/render/tofujson"
)

// Follows compares changes with for_each keys as Of reads them: with
// each key of several characters replaced wherever it appears (see
// replaceKeys), which makes fleet["eu-1"] and fleet["eu-2"] alike where
// their names and tags hold their keys. A key of one letter makes Of
// read every word, and is left to it.

// replacesKeys reports whether Of replaces some of keys as text (see
// replaceKeys) before reading words.
func replacesKeys(keys []string) bool {
	for _, k := range keys {
		if len(k) > 1 && !isDigits(k) {
			return true
		}
	}
	return false
}

// shortKey reports whether some key is one letter, which Of looks for
// in every word (see writeEachWord).
func shortKey(keys []string) bool {
	for _, k := range keys {
		if len(k) == 1 && !isDigits(k) {
			return true
		}
	}
	return false
}

// compared is what Follows reads of one change: its values with its
// for_each keys replaced (see replaceKeys), where the members of before
// and after then begin, the keys Of can still meet as words, and, once
// asked, the members split (see memberSpans). A Queue keeps a change's
// for the change after it.
type compared struct {
	values        [][]byte
	before, after []uint32
	keys          []string
	spans         [2][]memberSpan
	spansOK       [2]bool
	spansMade     bool
	// Memory, kept from one change to the next.
	vals  [5][]byte
	text  []byte // the replaced values, one after another
	bufs  [2][]byte
	words []string
}

// of reads c, whose instance keys are keys; false when Follows cannot
// compare it (values decoded, or a key of one letter).
func (d *compared) of(c *tofujson.Change, keys []string) bool {
	vs := c.RawValues()
	if vs == nil || shortKey(keys) {
		return false
	}
	d.values, d.keys, d.spansMade = vs, keys, false
	d.before, d.after = c.MemberOffsets()
	if !replacesKeys(keys) {
		return true
	}
	n := 0
	for _, v := range vs {
		n += len(v)
	}
	if cap(d.text) < n { // replacing only shortens: the texts kept never move
		d.text = make([]byte, 0, n)
	}
	d.text = d.text[:0]
	out := d.vals[:0]
	members := [5][]uint32{d.before, d.after} // before's and after's only
	for i, v := range vs {
		r, moved := replaceKeys(v, members[i], keys, &d.bufs)
		if len(r) != len(v) { // replaced: a key is two bytes or more, its mark one
			start := len(d.text)
			d.text = append(d.text, r...)
			r = d.text[start:len(d.text):len(d.text)]
		}
		members[i] = moved
		out = append(out, r)
	}
	d.values, d.before, d.after = out, members[0], members[1]
	d.words = d.words[:0]
	for _, key := range keys {
		// Of finds only words holding a digit (or the # of a key
		// replaced): a key without one is never a word it looks at.
		if holdsDigit([]byte(key)) {
			d.words = append(d.words, key)
		}
	}
	d.keys = d.words
	return true
}

// memberSpans are the members of before (0) and after (1), split, and
// whether they could be (see memberSpans).
func (d *compared) memberSpans() ([2][]memberSpan, [2]bool) {
	if !d.spansMade {
		d.spans[0], d.spansOK[0] = memberSpans(d.spans[0][:0], d.values[0], d.before)
		d.spans[1], d.spansOK[1] = memberSpans(d.spans[1][:0], d.values[1], d.after)
		d.spansMade = true
	}
	return d.spans, d.spansOK
}

// compareds keep Follows' memory from one call to the next.
var compareds = sync.Pool{New: func() any { return new(compared) }}
