package jsonread

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"sync"

	"github.com/go-json-experiment/json/jsontext"
)

// DecodeAny reads one JSON value as generic Go values: Object, []any,
// string, json.Number (the number's text as written), bool, nil.
func DecodeAny(dec Tokens) (any, error) {
	if jd, ok := dec.(*jsontext.Decoder); ok {
		return DecodeIn(jd, "")
	}
	raw, err := dec.ReadValue() // checked as it is read
	if err != nil {
		return nil, err
	}
	return DecodeChecked(raw)
}

// DecodeRaw decodes a raw JSON value held in memory.
func DecodeRaw(raw []byte) (any, error) {
	if len(raw) == 0 {
		return nil, nil
	}
	if !DepthWithin(raw, MaxValueDepth) {
		return nil, ErrTooDeep
	}
	return decodeMemory(raw, string(raw))
}

// DecodeChecked is DecodeRaw for a value a reader has checked: the trusted
// decoder, quicker than jsontext token by token, decodes it, and what it
// declines (surrogate pairs) goes the long way. Given unchecked text it
// still ends, with DecodeRaw's error or a value (FuzzDecodeRaw).
func DecodeChecked(raw []byte) (any, error) { return decodeFast(raw, string(raw), true, nil) }

// decodeText decodes the JSON value at the start of s (what follows it is
// not read), with the same results as DecodeRaw, with t (see decodeFast).
// Checking the text is quick, and the trusted decoder is quicker on
// checked text than jsontext token by token; text after the value fails
// the check.
func decodeText(s string, t *Decoder) (any, error) {
	return decodeFast([]byte(s), s, false, t)
}

// StringDecoder decodes the JSON value at the start of each string it is
// given (see decodeText), into memory it reuses: what it decodes stays valid until Free
// (and the strings it was decoded from as long). The zero StringDecoder is
// ready; a nil *StringDecoder decodes each value into memory of its own.
type StringDecoder struct {
	t     Decoder
	ready bool
}

// Decode decodes the JSON value at the start of src, into the memory s
// reuses.
func (s *StringDecoder) Decode(src string) (any, error) {
	if s == nil {
		return decodeText(src, nil)
	}
	if !s.ready {
		s.t.ReuseMemory()
		s.ready = true
	}
	return decodeText(src, &s.t)
}

// Free lets s decode into the memory of every value it decoded before.
func (s *StringDecoder) Free() {
	if s != nil && s.ready {
		s.t.FreeMemory()
	}
}

// decodeFast decodes raw, whose text src also is, with the trusted decoder
// (t, or a pooled one when nil) when raw is checked (or found to be one
// value); what that declines (surrogate pairs, unchecked text) goes the
// long way.
func decodeFast(raw []byte, src string, checked bool, t *Decoder) (any, error) {
	if len(raw) == 0 {
		return nil, nil
	}
	if !DepthWithin(raw, MaxValueDepth) {
		return nil, ErrTooDeep
	}
	if checked || isOneValue(raw) {
		if v, err := decodeTrusted(src, t); err == nil {
			return v, nil
		}
	}
	return decodeMemory(raw, src)
}

// isOneValue reports whether raw is one JSON value, with space around it
// or not, duplicate names allowed.
func isOneValue(raw []byte) bool {
	return jsontext.Value(raw).IsValid(jsontext.AllowDuplicateNames(true))
}

// decodeTrusted decodes src, one checked value, with a pooled trusted
// decoder: ErrUnchecked for what it declines or for text after the value.
func decodeTrusted(src string, t *Decoder) (any, error) {
	pooled := t == nil
	if pooled {
		t = trustedDecoders.Get().(*Decoder)
	}
	t.Reset(src)
	v, err := t.Value()
	if err == nil && t.pos < len(src) {
		err = ErrUnchecked // more than one value
	}
	t.Reset("") // lets go of src and, unless reused, of the values' chunks
	if pooled {
		trustedDecoders.Put(t)
	}
	return v, err
}

// trustedDecoders keep their stacks between values.
var trustedDecoders = sync.Pool{New: func() any { return new(Decoder) }}

// decoders are reused: a jsontext.Decoder is large to allocate for the
// small values decoded from memory.
var decoders = sync.Pool{New: func() any { return jsontext.NewDecoder(bytes.NewReader(nil)) }}

// decodeMemory decodes raw, whose text src also holds.
func decodeMemory(raw []byte, src string) (any, error) {
	dec := decoders.Get().(*jsontext.Decoder)
	defer decoders.Put(dec)
	// A bytes.Buffer lets jsontext parse raw in place instead of copying it
	// into a growing buffer of its own.
	dec.Reset(bytes.NewBuffer(raw), jsontext.AllowDuplicateNames(true))
	v, err := DecodeIn(dec, src)
	dec.Reset(bytes.NewReader(nil)) // let go of raw
	return v, err
}

// DecodeIn is decodeAny for a decoder reading src from its start, when
// src is not "": strings that need no unescaping, object names and numbers
// are then taken as substrings of src instead of being allocated one by
// one, and a plan's values are mostly such strings.
func DecodeIn(dec *jsontext.Decoder, src string) (any, error) {
	st := decodeStates.Get().(*decodeState)
	v, err := decodeWith(dec, src, st)
	if cap(st.stack) <= 1024 { // a stack grown by a huge object is let go
		clear(st.stack[:cap(st.stack)]) // and so are the values it held
		st.stack = st.stack[:0]
		decodeStates.Put(st)
	}
	return v, err
}

// decodeState is what decoding a value needs besides the decoder.
type decodeState struct {
	// stack holds the members of the objects being read, shared by every
	// level, so that each Object is made once at its final size.
	stack []Member
	boxes boxes
}

var decodeStates = sync.Pool{New: func() any { return new(decodeState) }}

func decodeWith(dec *jsontext.Decoder, src string, st *decodeState) (any, error) {
	stack := &st.stack
	switch dec.PeekKind() {
	case '"':
		s, err := stringIn(dec, src)
		if err != nil {
			return nil, err
		}
		return st.boxes.string(s), nil
	case '0':
		raw, err := dec.ReadValue()
		if err != nil {
			return nil, err
		}
		if src == "" {
			return st.boxes.number(json.Number(raw)), nil
		}
		end := int(dec.InputOffset())
		return st.boxes.number(json.Number(src[end-len(raw) : end])), nil
	case '{':
		if dec.StackDepth() >= MaxValueDepth {
			return nil, ErrTooDeep
		}
		if _, err := dec.ReadToken(); err != nil {
			return nil, err
		}
		base := len(*stack)
		for dec.PeekKind() != '}' {
			key, err := stringIn(dec, src)
			if err != nil {
				return nil, err
			}
			v, err := decodeWith(dec, src, st)
			if err != nil {
				return nil, err
			}
			*stack = append(*stack, Member{key, v})
		}
		o := newObject((*stack)[base:])
		*stack = (*stack)[:base]
		_, err := dec.ReadToken()
		return st.boxes.object(o), err
	case '[':
		if dec.StackDepth() >= MaxValueDepth {
			return nil, ErrTooDeep
		}
		if _, err := dec.ReadToken(); err != nil {
			return nil, err
		}
		s := []any{}
		for dec.PeekKind() != ']' {
			v, err := decodeWith(dec, src, st)
			if err != nil {
				return nil, err
			}
			s = append(s, v)
		}
		_, err := dec.ReadToken()
		return st.boxes.array(s), err
	}
	// Literals, and whatever error bad input gives.
	tok, err := dec.ReadToken()
	if err != nil {
		return nil, err
	}
	switch tok.Kind() {
	case 'n':
		return nil, nil
	case 't':
		return true, nil
	case 'f':
		return false, nil
	}
	return nil, fmt.Errorf("unexpected %v", tok.Kind())
}

// stringIn reads a string (or object name) as decodeIn does.
func stringIn(dec *jsontext.Decoder, src string) (string, error) {
	raw, err := dec.ReadValue()
	if err != nil {
		return "", err
	}
	if len(raw) < 2 || raw[0] != '"' {
		return "", fmt.Errorf("got %s, want a string", raw.Kind())
	}
	if bytes.IndexByte(raw, '\\') < 0 {
		if src == "" {
			return string(raw[1 : len(raw)-1]), nil
		}
		end := int(dec.InputOffset())
		return src[end-len(raw)+1 : end-1], nil
	}
	b, ok := unescape(make([]byte, 0, len(raw)-2), raw[1:len(raw)-1])
	if !ok {
		var err error
		if b, err = jsontext.AppendUnquote(b[:0], raw); err != nil {
			return "", err
		}
	}
	return string(b), nil
}

// unescape appends the text of a JSON string's body, which the decoder has
// already checked. It handles the escapes plans are made of, and returns
// false for surrogate pairs (and anything else), which
// jsontext.AppendUnquote then decodes.
func unescape(dst, body []byte) ([]byte, bool) {
	for {
		i := bytes.IndexByte(body, '\\')
		if i < 0 {
			return append(dst, body...), true
		}
		dst = append(dst, body[:i]...)
		n, ok := appendEscape(&dst, body[i:])
		if !ok {
			return dst, false
		}
		body = body[i+n:]
	}
}

// RawValue reads one value's bytes, copied (the decoder reuses its buffer).
func RawValue(dec Tokens) ([]byte, error) {
	v, err := dec.ReadValue()
	if err != nil {
		return nil, err
	}
	return bytes.Clone(v), nil
}

// MemberOffsets are where the members of an object's text begin: the
// offset of each of its own members' names' opening quote. nil for a
// value that is no object. v is valid JSON (the decoder read it), so a
// backslash in a string always begins an escape.
func MemberOffsets(v []byte) []uint32 {
	if len(v) == 0 || v[0] != '{' || len(v) > math.MaxUint32 {
		return nil
	}
	var out []uint32
	depth, name := 0, false
	for i := 0; i < len(v); i++ {
		switch v[i] {
		case '"':
			if depth == 1 && name {
				out = append(out, uint32(i))
				name = false
			}
			i = StringEnd(v, i+1)
		case '{', '[':
			depth++
			name = depth == 1
		case '}', ']':
			depth--
		case ',':
			name = depth == 1
		}
	}
	return out
}

// StringEnd is where the string whose body starts at v[i] ends: the
// place of its closing quote (len(v) when there is none), found with
// bytes.IndexByte and the backslashes counted before each quote.
func StringEnd(v []byte, i int) int {
	for {
		q := bytes.IndexByte(v[i:], '"')
		if q < 0 {
			return len(v)
		}
		q += i
		n := 0
		for n < q-i && v[q-1-n] == '\\' {
			n++
		}
		if n%2 == 0 {
			return q
		}
		i = q + 1
	}
}

// ReadString reads a string (or null, as "").
func ReadString(dec Tokens) (string, error) {
	tok, err := dec.ReadToken()
	if err != nil {
		return "", err
	}
	switch tok.Kind() {
	case '"':
		return tok.String(), nil
	case 'n':
		return "", nil
	}
	return "", fmt.Errorf("got %s, want a string", tok.Kind())
}

// MarkedStrings calls add with every string of the raw JSON value that the
// sensitivity mirror marks sensitive, walking only the marked parts.
func MarkedStrings(raw []byte, sensitive any, add func(string, SecretKind)) error {
	if len(raw) == 0 || !AnyTrue(sensitive) {
		return nil
	}
	// The raw values come from the first pass, which checked them: walk
	// them with the trusted decoder, and with jsontext only if that fails
	// (it then reports what is wrong). Strings are handed over only once
	// the walk has succeeded, so none is seen twice.
	var t Decoder
	t.Reset(string(raw))
	var found []foundSecret
	if err := t.marked(sensitive, &found); err == nil {
		for _, f := range found {
			add(strings.Clone(f.s), f.kind) // f.s points into raw
		}
		return nil
	}
	dec := jsontext.NewDecoder(bytes.NewBuffer(raw))
	return walkMarked(dec, sensitive, add)
}

// MarkedStringsIndexed is MarkedStrings for a value whose own members'
// names begin where members says (MemberOffsets): the members
// its mirror marks nothing in are jumped over rather than read. Without
// an index, or where the jump finds no name, it is MarkedStrings.
func MarkedStringsIndexed(raw []byte, members []uint32, sensitive any, add func(string, SecretKind)) error {
	m, ok := sensitive.(Object)
	if !ok || len(members) == 0 || !AnyTrue(sensitive) {
		return MarkedStrings(raw, sensitive, add)
	}
	var t Decoder
	t.Reset(string(raw))
	var found []foundSecret
	next, last := 0, "" // the mirror's first member not passed; the last name in order
	for _, at := range members {
		if int64(at) >= int64(len(raw)) {
			return MarkedStrings(raw, sensitive, add)
		}
		t.pos = int(at)
		name, err := t.name()
		if err == nil {
			// The tools write members sorted, as the mirror keeps them:
			// its members are passed in step, not searched for each name.
			var mark any
			if name < last { // out of order: the mirror is searched
				mark = m.Value(name)
			} else {
				for next < len(m) && m[next].Name < name {
					next++
				}
				if next < len(m) && m[next].Name == name {
					mark = m[next].Value
				}
				last = name
			}
			if AnyTrue(mark) {
				err = t.marked(mark, &found)
			}
		}
		if err != nil {
			return MarkedStrings(raw, sensitive, add) // which says what is wrong
		}
	}
	for _, f := range found {
		add(strings.Clone(f.s), f.kind) // f.s points into raw
	}
	return nil
}

// AnyTrue reports whether a metadata mirror (after_unknown,
// before_sensitive, after_sensitive) marks anything at all.
func AnyTrue(mask any) bool {
	switch m := mask.(type) {
	case bool:
		return m
	case Object:
		for _, mb := range m {
			if AnyTrue(mb.Value) {
				return true
			}
		}
	case []any:
		for _, v := range m {
			if AnyTrue(v) {
				return true
			}
		}
	}
	return false
}

func walkMarked(dec *jsontext.Decoder, mask any, add func(string, SecretKind)) error {
	if !AnyTrue(mask) {
		return dec.SkipValue()
	}
	if b, ok := mask.(bool); ok && b {
		return allStrings(dec, add)
	}
	tok, err := dec.ReadToken()
	if err != nil {
		return err
	}
	switch tok.Kind() {
	case '{':
		m := AsObject(mask)
		for dec.PeekKind() != '}' {
			k, err := dec.ReadToken()
			if err != nil {
				return err
			}
			if err := walkMarked(dec, m.Value(k.String()), add); err != nil {
				return err
			}
		}
		_, err = dec.ReadToken()
		return err
	case '[':
		s, _ := mask.([]any)
		for i := 0; dec.PeekKind() != ']'; i++ {
			var sub any
			if i < len(s) {
				sub = s[i]
			}
			if err := walkMarked(dec, sub, add); err != nil {
				return err
			}
		}
		_, err = dec.ReadToken()
		return err
	}
	return nil // a scalar under a structured mask: not marked
}

// foundSecret is a secret the trusted walk found, before it is copied out.
type foundSecret struct {
	s    string
	kind SecretKind
}

func allStrings(dec *jsontext.Decoder, add func(string, SecretKind)) error {
	v, err := DecodeAny(dec)
	if err != nil {
		return err
	}
	Strings(v, add)
	return nil
}
