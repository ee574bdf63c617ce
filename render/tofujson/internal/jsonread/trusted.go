package jsonread

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/planpr/planpr/render/tofujson/internal/jsonbytes"
)

// Decoder decodes JSON that jsontext has already checked: the first pass
// over a plan validates every byte, so reading a change again from its span
// need not. It takes strings without escapes, object names and numbers as
// substrings of src. On input that is not valid JSON after all (the file
// changed between the passes) it returns errTrusted, never panics, and the
// caller decodes again with jsontext to report the problem.
type Decoder struct {
	src string
	pos int
	// Stacks of the objects' members and arrays' elements being read
	// (left longer than they should after an error: reset restores them).
	members []Member
	elems   []any
	// boxes hold the values that interfaces point to.
	boxes boxes
	// before is the text of a change's before value, and of each of its
	// members with what they decoded to, for its after value to take what
	// is written the same instead of decoding it again.
	before        string
	beforeMembers []sideMember
}

// sideMember is one member of a before value: its name, text and value.
type sideMember struct {
	name, text string
	value      any
}

// Reset starts on a new input, keeping the stacks' memory.
func (t *Decoder) Reset(src string) {
	t.boxes.startOver()
	t.src, t.pos = src, 0
	t.members, t.elems = t.members[:0], t.elems[:0]
	clear(t.beforeMembers)
	t.before, t.beforeMembers = "", t.beforeMembers[:0]
}

// ReuseMemory makes the decoder keep the memory of what it decoded for
// the next input: values are then valid until the next Reset after
// FreeMemory.
func (t *Decoder) ReuseMemory() {
	t.boxes.reuse()
}

// Reusing reports whether ReuseMemory was called.
func (t *Decoder) Reusing() bool { return t.boxes.reusing }

// FreeMemory lets a reusing decoder overwrite what it decoded before.
func (t *Decoder) FreeMemory() {
	t.boxes.reset()
}

// ErrUnchecked says the input is not the JSON a checking pass read: the
// caller decodes it again with jsontext to say what is wrong.
var ErrUnchecked = errors.New("not the JSON the first pass read")

func (t *Decoder) space() {
	for t.pos < len(t.src) && t.src[t.pos] <= ' ' { // mostly no space: one test
		switch t.src[t.pos] {
		case ' ', '\t', '\n', '\r':
			t.pos++
		default:
			return
		}
	}
}

// Peek skips space and returns the next byte, 0 at the end.
func (t *Decoder) Peek() byte {
	t.space()
	if t.pos >= len(t.src) {
		return 0
	}
	return t.src[t.pos]
}

// Consume skips space and the given byte, reporting whether it was there.
func (t *Decoder) Consume(c byte) bool {
	if t.Peek() != c {
		return false
	}
	t.pos++
	return true
}

// Value decodes one Value as decodeAny would.
func (t *Decoder) Value() (any, error) {
	switch t.Peek() {
	case '"':
		s, err := t.str()
		if err != nil {
			return nil, err
		}
		return t.boxes.string(s), nil
	case '{':
		return t.objectOf(t.memberValue)
	case '[':
		t.pos++
		base := len(t.elems)
		if !t.Consume(']') {
			for {
				v, err := t.Value()
				if err != nil {
					return nil, err
				}
				t.elems = append(t.elems, v)
				if t.Consume(',') {
					continue
				}
				if t.Consume(']') {
					break
				}
				return nil, ErrUnchecked
			}
		}
		s := t.boxes.newArray(t.elems[base:])
		t.elems = t.elems[:base]
		return t.boxes.array(s), nil
	case 't':
		return true, t.Literal("true")
	case 'f':
		return false, t.Literal("false")
	case 'n':
		return nil, t.Literal("null")
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		start := t.pos
		t.skipNumber()
		return t.boxes.number(json.Number(t.src[start:t.pos])), nil
	}
	return nil, ErrUnchecked
}

// objectOf decodes an object, member reading each member's value. The
// members collect on a stack shared by every level, so the Object is made
// once at its final size.
func (t *Decoder) objectOf(member func(name string) (any, error)) (any, error) {
	base := len(t.members)
	err := t.Members(func(k string) error {
		v, err := member(k)
		t.members = append(t.members, Member{k, v})
		return err
	})
	if err != nil {
		return nil, err
	}
	o := t.boxes.newObject(t.members[base:])
	t.members = t.members[:base]
	return t.boxes.object(o), nil
}

func (t *Decoder) memberValue(string) (any, error) { return t.Value() }

func (t *Decoder) Literal(word string) error {
	if !strings.HasPrefix(t.src[t.pos:], word) {
		return ErrUnchecked
	}
	t.pos += len(word)
	return nil
}

// name reads an object member's name and the colon after it.
func (t *Decoder) name() (string, error) {
	if t.Peek() != '"' {
		return "", ErrUnchecked
	}
	k, err := t.str()
	if err != nil || !t.Consume(':') {
		return "", ErrUnchecked
	}
	return k, nil
}

// str reads a string; the next byte is its opening quote.
func (t *Decoder) str() (string, error) {
	start := t.pos + 1
	switch end := jsonbytes.QuoteOrSlash(t.src, start); {
	case end >= len(t.src):
		return "", ErrUnchecked
	case t.src[end] == '\\':
		return t.unescaped(start)
	default:
		t.pos = end + 1
		return t.src[start:end], nil
	}
}

// unescaped decodes the string whose body starts at start, escapes and
// all, in one pass: each run up to the next quote or backslash is copied
// whole, the common escapes (those of heredocs and escaped JSON) decoded
// in place, the rest by appendEscape. The text is built once, in a
// strings.Builder sized for it.
func (t *Decoder) unescaped(start int) (string, error) {
	src := t.src
	size, err := t.unescapedSize(start)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	b.Grow(size)
	var scratch [4]byte
	for i := start; ; {
		j := jsonbytes.QuoteOrSlash(src, i)
		if j >= len(src) {
			return "", ErrUnchecked
		}
		b.WriteString(src[i:j])
		if src[j] == '"' {
			t.pos = j + 1
			return b.String(), nil
		}
		if j+1 < len(src) {
			switch c := src[j+1]; c {
			case '"', '\\', '/':
				b.WriteByte(c)
				i = j + 2
				continue
			case 'n':
				b.WriteByte('\n')
				i = j + 2
				continue
			}
		}
		e := scratch[:0]
		n, ok := appendEscape(&e, src[j:])
		if !ok {
			return "", ErrUnchecked // a surrogate pair: let jsontext decode it
		}
		b.Write(e)
		i = j + n
	}
}

// unescapedSize bounds the length of the string whose body starts at
// start once unescaped: it is never longer than the body, which ends at
// the first quote with no backslash before it (nearly always: an escaped
// backslash just before the quote makes this an underestimate, and
// append grows the text).
func (t *Decoder) unescapedSize(start int) (int, error) {
	src, size := t.src, 0
	for {
		q := strings.IndexByte(src[start+size:], '"')
		if q < 0 {
			return 0, ErrUnchecked
		}
		size += q
		if src[start+size-1] != '\\' {
			return size, nil
		}
		size++
	}
}

// appendEscape decodes the escape at the start of s, reporting its length.
func appendEscape[T string | []byte](b *[]byte, s T) (int, bool) {
	if len(s) < 2 {
		return 0, false
	}
	switch c := s[1]; c {
	case '"', '\\', '/':
		*b = append(*b, c)
	case 'b':
		*b = append(*b, '\b')
	case 'f':
		*b = append(*b, '\f')
	case 'n':
		*b = append(*b, '\n')
	case 'r':
		*b = append(*b, '\r')
	case 't':
		*b = append(*b, '\t')
	case 'u':
		if len(s) < 6 {
			return 0, false
		}
		r, ok := jsonbytes.Hex4(s[2:6])
		if !ok || utf16.IsSurrogate(r) {
			return 0, false
		}
		*b = utf8.AppendRune(*b, r)
		return 6, true
	default:
		return 0, false
	}
	return 2, true
}

// skipNumber steps over a number, which checked text holds whole.
func (t *Decoder) skipNumber() {
	for t.pos < len(t.src) && strings.IndexByte("+-0123456789.eE", t.src[t.pos]) >= 0 {
		t.pos++
	}
}

// skipString steps over a string; the next byte is its opening quote.
func (t *Decoder) skipString() error {
	// In checked text a quote ends the string unless an odd run of
	// backslashes escapes it: one search per quote, however many escapes
	// (a script's \n on every line) come before it.
	for p := t.pos + 1; ; {
		q := strings.IndexByte(t.src[p:], '"')
		if q < 0 {
			return ErrUnchecked
		}
		q += p
		escaped := false
		for i := q - 1; i > t.pos && t.src[i] == '\\'; i-- {
			escaped = !escaped
		}
		if !escaped {
			t.pos = q + 1
			return nil
		}
		p = q + 1
	}
}

// Skip steps over one value without decoding it.
func (t *Decoder) Skip() error {
	switch t.Peek() {
	case '"':
		return t.skipString()
	case '{', '[':
		depth := 0
		for t.pos < len(t.src) {
			switch t.src[t.pos] {
			case '"':
				if err := t.skipString(); err != nil {
					return err
				}
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					t.pos++
					return nil
				}
			}
			t.pos++
		}
		return ErrUnchecked
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		t.skipNumber()
		return nil
	}
	_, err := t.Value() // a literal: nothing to box
	return err
}

// Raw steps over one value and returns its text.
func (t *Decoder) Raw() (string, error) {
	t.space()
	start := t.pos
	if err := t.Skip(); err != nil {
		return "", err
	}
	return t.src[start:t.pos], nil
}

// StringOrNull reads a string member as the reader's str does: null is "".
func (t *Decoder) StringOrNull() (string, error) {
	switch t.Peek() {
	case '"':
		return t.str()
	case 'n':
		return "", t.Literal("null")
	}
	return "", ErrUnchecked
}

// object calls each with every member's name; each reads the value.
// marked collects the strings of the next value that the sensitivity
// mirror marks, as walkMarked does with jsontext.
func (t *Decoder) marked(mask any, found *[]foundSecret) error {
	if !AnyTrue(mask) {
		return t.Skip()
	}
	if b, ok := mask.(bool); ok && b {
		if t.Peek() == '"' { // the usual secret: a password, a token
			s, err := t.str()
			if err == nil {
				*found = append(*found, foundSecret{s, SecretString})
			}
			return err
		}
		v, err := t.Value()
		Strings(v, func(s string, k SecretKind) { *found = append(*found, foundSecret{s, k}) })
		return err
	}
	switch t.Peek() {
	case '{':
		m := AsObject(mask)
		return t.Members(func(k string) error { return t.marked(m.Value(k), found) })
	case '[':
		s, _ := mask.([]any)
		t.pos++
		if t.Consume(']') {
			return nil
		}
		for i := 0; ; i++ {
			var sub any
			if i < len(s) {
				sub = s[i]
			}
			if err := t.marked(sub, found); err != nil {
				return err
			}
			if t.Consume(',') {
				continue
			}
			if t.Consume(']') {
				return nil
			}
			return ErrUnchecked
		}
	}
	return t.Skip() // a scalar under a structured mask: not marked
}

func (t *Decoder) Members(each func(key string) error) error {
	if !t.Consume('{') {
		return ErrUnchecked
	}
	if t.Consume('}') {
		return nil
	}
	for {
		k, err := t.name()
		if err != nil {
			return err
		}
		if err := each(k); err != nil {
			return err
		}
		if t.Consume(',') {
			continue
		}
		if t.Consume('}') {
			return nil
		}
		return ErrUnchecked
	}
}

// Before decodes a change's before value, noting its text and, for
// an object, the text and value of each member (see afterValue).
func (t *Decoder) Before() (any, error) {
	t.space()
	start := t.pos
	if t.Peek() != '{' {
		v, err := t.Value()
		t.before = t.src[start:t.pos]
		return v, err
	}
	v, err := t.objectOf(func(k string) (any, error) {
		t.space()
		at := t.pos
		v, err := t.Value()
		t.beforeMembers = append(t.beforeMembers, sideMember{k, t.src[at:t.pos], v})
		return v, err
	})
	t.before = t.src[start:t.pos]
	return v, err
}

// After decodes a change's after value. Most of an update's after
// is written exactly as its before: the whole value, or members of it,
// written the same are taken from before (values are never changed once
// decoded, so sharing them is safe) rather than decoded again.
func (t *Decoder) After(before any) (any, error) {
	t.space()
	if t.before != "" && t.writtenAt(t.before) {
		t.pos += len(t.before)
		return before, nil
	}
	if t.Peek() != '{' || len(t.beforeMembers) == 0 {
		return t.Value()
	}
	next := 0
	return t.objectOf(func(k string) (any, error) {
		t.space()
		// Members come in the same (sorted) order on both sides: look at
		// the next one first.
		i := next
		if i >= len(t.beforeMembers) || t.beforeMembers[i].name != k {
			i = slices.IndexFunc(t.beforeMembers, func(m sideMember) bool { return m.name == k })
		}
		if i >= 0 && t.writtenAt(t.beforeMembers[i].text) {
			t.pos += len(t.beforeMembers[i].text)
			next = i + 1
			return t.beforeMembers[i].value, nil
		}
		return t.Value()
	})
}

// writtenAt reports whether the value text (a whole JSON value) is what
// the input holds next: the same bytes, and not the start of a longer
// number or word.
func (t *Decoder) writtenAt(text string) bool {
	if !strings.HasPrefix(t.src[t.pos:], text) {
		return false
	}
	end := t.pos + len(text)
	if end == len(t.src) {
		return true
	}
	switch t.src[end] {
	case ',', '}', ']', ' ', '\t', '\n', '\r':
		return true
	}
	return false
}
