package shape

import "sync"

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

// keying holds two changes' values with their keys replaced, and the
// keys Of can still meet as words, while Follows compares them.
type keying struct {
	text   []byte // the replaced values, one after another
	bufs   [2][]byte
	values [2][5][]byte
	keys   [2][]string
}

var keyings = sync.Pool{New: func() any { return &keying{} }}

// reset makes room for the values of both changes: replacing only
// shortens them, so the texts kept never move.
func (k *keying) reset(cv, pv [][]byte) {
	n := 0
	for _, vs := range [2][][]byte{cv, pv} {
		for _, v := range vs {
			n += len(v)
		}
	}
	if cap(k.text) < n {
		k.text = make([]byte, 0, n)
	}
	k.text = k.text[:0]
}

// replace is side's values (0: the change, 1: the one before it) with
// keys replaced as Of replaces them, where the members of before and
// after then begin (nil where a key covers one), and the keys that can
// still be words Of looks at.
func (k *keying) replace(side int, vs [][]byte, before, after []uint32, keys []string) ([][]byte, []uint32, []uint32, []string) {
	out := k.values[side][:0]
	for i, v := range vs {
		var members []uint32
		switch i {
		case 0:
			members = before
		case 1:
			members = after
		}
		r, moved := replaceKeys(v, members, keys, &k.bufs)
		if len(r) != len(v) { // replaced: a key is two bytes or more, its mark one
			start := len(k.text)
			k.text = append(k.text, r...)
			r = k.text[start:len(k.text):len(k.text)]
		}
		switch i {
		case 0:
			before = moved
		case 1:
			after = moved
		}
		out = append(out, r)
	}
	words := k.keys[side][:0]
	for _, key := range keys {
		// Of finds only words holding a digit (or the # of a key
		// replaced): a key without one is never a word it looks at.
		if holdsDigit([]byte(key)) {
			words = append(words, key)
		}
	}
	k.keys[side] = words
	return out, before, after, words
}
