package jsonread

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
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
	return DecodeRaw(raw)
}

// DecodeRaw decodes a raw JSON value held in memory: the value at its
// start (what follows it is not read). A value nested deeper than
// MaxValueDepth is ErrTooDeep, found before anything deeper is read.
func DecodeRaw(raw []byte) (any, error) {
	if len(raw) == 0 {
		return nil, nil
	}
	// A bytes.Buffer lets jsontext parse raw in place instead of copying
	// it into a buffer of its own.
	return decodeMemory(bytes.NewBuffer(raw), string(raw))
}

// DecodeString is DecodeRaw for text held in a string: the value's
// strings are substrings of s.
func DecodeString(s string) (any, error) {
	if s == "" {
		return nil, nil
	}
	return decodeMemory(strings.NewReader(s), s)
}

// decoders are reused: a jsontext.Decoder is large to allocate for the
// small values decoded from memory, and its buffer is kept.
var decoders = sync.Pool{New: func() any { return jsontext.NewDecoder(noInput{}) }}

// noInput is what a pooled decoder reads between uses: nothing. Being
// empty, it costs no allocation, and it holds no one's text.
type noInput struct{}

func (noInput) Read([]byte) (int, error) { return 0, io.EOF }

// decodeMemory decodes the value at the start of in, whose text src
// also holds.
func decodeMemory(in io.Reader, src string) (any, error) {
	dec := decoders.Get().(*jsontext.Decoder)
	defer decoders.Put(dec)
	dec.Reset(in, jsontext.AllowDuplicateNames(true))
	v, err := DecodeIn(dec, src)
	dec.Reset(noInput{}) // let go of the text
	return v, err
}

// DecodeIn is decodeAny for a decoder reading src from its start, when
// src is not "": strings that need no unescaping, object names and numbers
// are then taken as substrings of src instead of being allocated one by
// one, and a plan's values are mostly such strings.
func DecodeIn(dec *jsontext.Decoder, src string) (any, error) {
	st := decodeStates.Get().(*decodeState)
	v, err := decodeWith(dec, src, st)
	if cap(st.stack) <= 1024 && cap(st.elems) <= 1024 && cap(st.text) <= 1<<16 { // grown by a huge value: let go
		clear(st.stack[:cap(st.stack)]) // and so are the values they held
		clear(st.elems[:cap(st.elems)])
		st.stack, st.elems = st.stack[:0], st.elems[:0]
		decodeStates.Put(st)
	}
	return v, err
}

// decodeState is what decoding a value needs besides the decoder.
type decodeState struct {
	// stack holds the members of the objects being read, and elems the
	// elements of the arrays, shared by every level, so that each Object
	// and array is made once at its final size.
	stack []Member
	elems []any
	// text is where an escaped string is unescaped before it is copied.
	text []byte
}

var decodeStates = sync.Pool{New: func() any { return new(decodeState) }}

func decodeWith(dec *jsontext.Decoder, src string, st *decodeState) (any, error) {
	stack := &st.stack
	switch dec.PeekKind() {
	case '"':
		s, err := st.stringIn(dec, src)
		if err != nil {
			return nil, err
		}
		return s, nil
	case '0':
		raw, err := dec.ReadValue()
		if err != nil {
			return nil, err
		}
		if src == "" {
			return json.Number(raw), nil
		}
		end := int(dec.InputOffset())
		return json.Number(src[end-len(raw) : end]), nil
	case '{':
		if dec.StackDepth() >= MaxValueDepth {
			return nil, ErrTooDeep
		}
		if _, err := dec.ReadToken(); err != nil {
			return nil, err
		}
		base := len(*stack)
		for dec.PeekKind() != '}' {
			key, err := st.stringIn(dec, src)
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
		return o, err
	case '[':
		if dec.StackDepth() >= MaxValueDepth {
			return nil, ErrTooDeep
		}
		if _, err := dec.ReadToken(); err != nil {
			return nil, err
		}
		base := len(st.elems)
		for dec.PeekKind() != ']' {
			v, err := decodeWith(dec, src, st)
			if err != nil {
				return nil, err
			}
			st.elems = append(st.elems, v)
		}
		s := append(make([]any, 0, len(st.elems)-base), st.elems[base:]...)
		st.elems = st.elems[:base]
		_, err := dec.ReadToken()
		return s, err
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

// stringIn reads a string (or object name) as DecodeIn does.
func (st *decodeState) stringIn(dec *jsontext.Decoder, src string) (string, error) {
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
	st.text, err = jsontext.AppendUnquote(st.text[:0], raw)
	if err != nil {
		return "", err
	}
	return string(st.text), nil
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
// place of its closing quote (len(v) when there is none).
func StringEnd(v []byte, i int) int {
	end, _ := StringEndQuotes(v, i)
	return end
}

// StringEndQuotes is StringEnd, and whether the string holds an escaped
// quote (\", as a string holding JSON does). It finds each quote with
// bytes.IndexByte and counts the backslashes before it.
func StringEndQuotes(v []byte, i int) (end int, escapedQuote bool) {
	for {
		q := bytes.IndexByte(v[i:], '"')
		if q < 0 {
			return len(v), escapedQuote
		}
		q += i
		n := 0
		for n < q-i && v[q-1-n] == '\\' {
			n++
		}
		if n%2 == 0 {
			return q, escapedQuote
		}
		escapedQuote = true
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
// Strings are handed over only once the whole walk has succeeded, so
// that a caller that falls back on something else sees none twice.
func MarkedStrings(raw []byte, sensitive any, add func(string, SecretKind)) error {
	if len(raw) == 0 || !AnyTrue(sensitive) {
		return nil
	}
	var found []foundSecret
	if err := markedIn(raw, sensitive, &found); err != nil {
		return err
	}
	for _, f := range found {
		add(f.s, f.kind)
	}
	return nil
}

// markedIn walks the value at the start of raw (what follows it is not
// read) with a pooled decoder, collecting what mask marks.
func markedIn(raw []byte, mask any, found *[]foundSecret) error {
	dec := decoders.Get().(*jsontext.Decoder)
	defer decoders.Put(dec)
	dec.Reset(bytes.NewBuffer(raw), jsontext.AllowDuplicateNames(true))
	err := walkMarked(dec, mask, func(s string, k SecretKind) { *found = append(*found, foundSecret{s, k}) })
	dec.Reset(noInput{}) // let go of raw
	return err
}

// MarkedStringsIndexed is MarkedStrings for a value whose own members'
// names begin where members says (MemberOffsets): the members its mirror
// marks nothing in are jumped over rather than read, and each marked
// member's value is walked on its own. Without an index it is
// MarkedStrings; an index that does not fit the value is an error.
func MarkedStringsIndexed(raw []byte, members []uint32, sensitive any, add func(string, SecretKind)) error {
	m, ok := sensitive.(Object)
	if !ok || len(members) == 0 || !AnyTrue(sensitive) {
		return MarkedStrings(raw, sensitive, add)
	}
	var found []foundSecret
	next, last := 0, []byte(nil) // the mirror's first member not passed; the last name in order
	for _, at := range members {
		name, value, err := memberAt(raw, int64(at))
		if err != nil {
			return err
		}
		// The tools write members sorted, as the mirror keeps them: its
		// members are passed in step, not searched for each name.
		var mark any
		if bytes.Compare(name, last) < 0 { // out of order: the mirror is searched
			mark = m.valueOf(name)
		} else {
			for next < len(m) && compareName(m[next].Name, name) < 0 {
				next++
			}
			if next < len(m) && compareName(m[next].Name, name) == 0 {
				mark = m[next].Value
			}
			last = name
		}
		if AnyTrue(mark) {
			if err := markedIn(value, mark, &found); err != nil {
				return err
			}
		}
	}
	for _, f := range found {
		add(f.s, f.kind)
	}
	return nil
}

// memberAt reads the name of the member whose name's opening quote is at
// raw[at], and returns it (raw's own bytes unless it holds an escape)
// with the text from its value on.
func memberAt(raw []byte, at int64) ([]byte, []byte, error) {
	if at < 0 || at >= int64(len(raw)) || raw[at] != '"' {
		return nil, nil, errNoMember
	}
	end := StringEnd(raw, int(at)+1)
	if end >= len(raw) {
		return nil, nil, errNoMember
	}
	name := raw[at+1 : end]
	if bytes.IndexByte(name, '\\') >= 0 {
		var err error
		if name, err = jsontext.AppendUnquote(nil, raw[at:end+1]); err != nil {
			return nil, nil, err
		}
	}
	rest := raw[end+1:]
	for len(rest) > 0 && (rest[0] == ' ' || rest[0] == '\t' || rest[0] == '\r' || rest[0] == '\n') {
		rest = rest[1:]
	}
	if len(rest) == 0 || rest[0] != ':' {
		return nil, nil, errNoMember
	}
	return name, rest[1:], nil
}

// errNoMember is an index of members that does not fit its value.
var errNoMember = errors.New("no object member where the index of members says one begins")

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
			raw, err := dec.ReadValue()
			if err != nil {
				return err
			}
			name := raw[1 : len(raw)-1] // only looked up, never kept
			if bytes.IndexByte(name, '\\') >= 0 {
				if name, err = jsontext.AppendUnquote(nil, raw); err != nil {
					return err
				}
			}
			if err := walkMarked(dec, m.valueOf(name), add); err != nil {
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

// foundSecret is a secret a walk found, kept until the walk succeeds.
type foundSecret struct {
	s    string
	kind SecretKind
}

func allStrings(dec *jsontext.Decoder, add func(string, SecretKind)) error {
	if dec.PeekKind() == '"' { // the usual secret: a password, a token
		var st decodeState
		s, err := st.stringIn(dec, "")
		if err == nil {
			add(s, SecretString)
		}
		return err
	}
	v, err := DecodeAny(dec)
	if err != nil {
		return err
	}
	Strings(v, add)
	return nil
}
