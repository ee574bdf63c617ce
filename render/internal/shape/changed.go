package shape

import (
	"bytes"
	"slices"
)

// sameChanged reports whether two changes, if alike at the loose
// strength, change the same top-level attributes in the words the loose
// strength replaces (see shapeNormalizer.changed): their members have the
// same names, and each attribute in both values changes those words in
// one change exactly when it does in the other. An attribute unchanged in
// both, or the same in both before and after, is settled by its bytes;
// for the rest the words are compared from where the values first differ.
// False too when the members' places are not known or their names are
// not in order (changed pairs the attributes as they come).
func sameChanged(c, p *compared) bool {
	cs, cok := c.memberSpans()
	ps, pok := p.memberSpans()
	cb, ca, pb, pa := cs[0], cs[1], ps[0], ps[1]
	if cok != [2]bool{true, true} || pok != [2]bool{true, true} || !sameNames(cb, pb) || !sameNames(ca, pa) {
		return false
	}
	for i, j := 0, 0; i < len(cb) && j < len(ca); {
		switch d := bytes.Compare(cb[i].name, ca[j].name); {
		case d < 0:
			i++
		case d > 0:
			j++
		default:
			b, a, pb, pa := cb[i].text, ca[j].text, pb[i].text, pa[j].text
			switch {
			case bytes.Equal(b, a) && bytes.Equal(pb, pa):
			case bytes.Equal(b, pb) && bytes.Equal(a, pa):
			case sameWords(b, a) != sameWords(pb, pa):
				return false
			}
			i, j = i+1, j+1
		}
	}
	return true
}

// A memberSpan is one top-level member of an object's text: its name and
// its text from the name's opening quote to the comma or brace after it.
type memberSpan struct{ name, text []byte }

// memberSpans appends to spans v's members, split where they begin;
// false when members do not fit v or their names are not in order.
func memberSpans(spans []memberSpan, v []byte, members []uint32) ([]memberSpan, bool) {
	if !membersFit(v, members) {
		return spans, false
	}
	for i, m := range members {
		end := len(v) - 1
		if i+1 < len(members) {
			end = int(members[i+1]) - 1
		}
		spans = append(spans, memberSpan{nameAt(v, int(m)), v[m:end]})
		if i > 0 && bytes.Compare(spans[i-1].name, spans[i].name) >= 0 {
			return spans, false
		}
	}
	return spans, true
}

func sameNames(a, b []memberSpan) bool {
	return slices.EqualFunc(a, b, func(x, y memberSpan) bool { return bytes.Equal(x.name, y.name) })
}

// sameWords reports whether two members' texts hold the same words the
// loose strength replaces, in order. The words before the first byte
// that differs are the same: both are read from a place before it where
// no word or escape is under way (a byte outside words, no backslash),
// and compared one by one, until two differ.
func sameWords(a, b []byte) bool {
	same := commonPrefix(a, b)
	if same == len(a) && same == len(b) {
		return true
	}
	from := quietBefore(a, same)
	i, j := from, from
	for {
		var sa, ea, sb, eb int
		sa, ea, i = nextWord(a, i)
		sb, eb, j = nextWord(b, j)
		switch {
		case sa < 0 || sb < 0:
			return sa < 0 && sb < 0
		case !bytes.Equal(a[sa:ea], b[sb:eb]):
			return false
		}
	}
}

// quietBefore is the last place before end (or 0) where reading words
// can start afresh: a byte outside words, with no backslash on it or
// before it.
func quietBefore(v []byte, end int) int {
	for i := end - 1; i > 0; i-- {
		if byteClass[v[i]] == other && v[i] != '\\' && v[i-1] != '\\' {
			return i
		}
	}
	return 0
}

// nextWord is the next word from i on that the loose strength replaces,
// as writeDigitWords finds it, and where to look after it; start is -1
// when there is none.
func nextWord(v []byte, i int) (start, end, next int) {
	for {
		if i = nextDigit(v, i); i >= len(v) {
			return -1, -1, i
		}
		start, end, found := wordAt(v, i)
		if i = end; found {
			return start, end, i
		}
	}
}
