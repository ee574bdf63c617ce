package jsonread

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"math/bits"
	"unicode/utf8"
	"unsafe"

	"github.com/planpr/planpr/render/tofujson/internal/jsonbytes"

	"github.com/go-json-experiment/json/jsontext"
)

// Tokens is what a reader of a JSON document asks of its source: the
// methods of jsontext.Decoder that plan and state readers call, which a
// Cursor has too.
type Tokens interface {
	PeekKind() jsontext.Kind
	ReadToken() (jsontext.Token, error)
	ReadValue() (jsontext.Value, error)
	SkipValue() error
	InputOffset() int64
}

var _ Tokens = (*jsontext.Decoder)(nil)

// Cursor reads a JSON document held in memory as a jsontext.Decoder
// does, accepting exactly what it accepts (FuzzCursorAgrees), but it
// checks a whole value it is asked to read or skip in one tight loop of
// its own instead of token by token: twice as fast on a plan's values.
// Values it reads are the document's own bytes. Its errors say only
// where the text stops being JSON: a caller that reports them reads the
// document again with jsontext, whose errors say what is wrong.
type Cursor struct {
	data  []byte
	pos   int
	stack []frame
	err   error // the first error, returned from then on
	// kinds is the stack of one value's containers while it is checked.
	kinds []byte
	// members, while ReadValueIndexed reads an object, collects where
	// its members' names begin (see ReadValueIndexed).
	members   []uint32
	recording bool
	// nested is how deep the last value read nests (see Nested).
	nested int
}

// frame is an object or array the cursor is in.
type frame struct {
	object    bool
	count     int  // members or elements read
	wantValue bool // an object's name is read: its value is next
}

// maxNestingDepth is jsontext's limit on nesting, which the cursor keeps
// too (TestCursorDepthLimit).
const maxNestingDepth = 10000

// ErrNotJSON is a Cursor's error: the text stops being valid JSON at
// Offset (or ends too soon).
type ErrNotJSON struct{ Offset int64 }

func (e *ErrNotJSON) Error() string {
	return fmt.Sprintf("invalid JSON at byte %d", e.Offset)
}

// NewCursor reads data.
func NewCursor(data []byte) *Cursor { return &Cursor{data: data} }

// InputOffset is the offset just past the last token or value read.
func (c *Cursor) InputOffset() int64 { return int64(c.pos) }

func (c *Cursor) fail(at int) error {
	if c.err == nil {
		c.err = &ErrNotJSON{Offset: int64(at)}
	}
	return c.err
}

// next finds where the next token starts and its kind, past the colon or
// comma the place calls for, as jsontext does: i is len(data) at the end.
func (c *Cursor) next() (i int, kind jsontext.Kind, err error) {
	if c.err != nil {
		return 0, 0, c.err
	}
	i = skipSpace(c.data, c.pos)
	if i >= len(c.data) {
		return i, 0, nil
	}
	var delim byte
	if b := c.data[i]; b == ':' || b == ',' {
		delim = b
		if i = skipSpace(c.data, i+1); i >= len(c.data) {
			return i, 0, c.fail(i)
		}
	}
	kind = normKind[c.data[i]]
	if c.delimiter(kind) != delim {
		return i, 0, c.fail(i)
	}
	return i, kind, nil
}

// delimiter is the colon or comma that must come before a token of kind.
func (c *Cursor) delimiter(kind jsontext.Kind) byte {
	if len(c.stack) == 0 {
		return 0
	}
	switch f := c.stack[len(c.stack)-1]; {
	case f.wantValue:
		return ':'
	case f.count > 0 && kind != '}' && kind != ']':
		return ','
	}
	return 0
}

// nameNext reports whether an object's name must come next.
func (c *Cursor) nameNext() bool {
	if len(c.stack) == 0 {
		return false
	}
	f := c.stack[len(c.stack)-1]
	return f.object && !f.wantValue
}

// normKind is the kind of the token a byte starts (0: none).
var normKind = func() (k [256]jsontext.Kind) {
	for _, b := range []byte(`nft"{}[]`) {
		k[b] = jsontext.Kind(b)
	}
	for _, b := range []byte("-0123456789") {
		k[b] = '0'
	}
	return k
}()

// PeekKind is the kind of the next token, 0 when it cannot come there.
func (c *Cursor) PeekKind() jsontext.Kind {
	_, kind, err := c.next()
	if err != nil {
		return 0
	}
	return kind
}

// done counts a value (or an object's name) read.
func (c *Cursor) done() {
	if len(c.stack) == 0 {
		return
	}
	f := &c.stack[len(c.stack)-1]
	if f.object {
		if f.wantValue {
			f.count++
		}
		f.wantValue = !f.wantValue
		return
	}
	f.count++
}

// ReadToken reads the next token: a bracket or a whole scalar. At the end
// of the input, outside any value, it returns io.EOF.
func (c *Cursor) ReadToken() (jsontext.Token, error) {
	i, kind, err := c.next()
	switch {
	case err != nil:
		return jsontext.Token{}, err
	case i >= len(c.data) && len(c.stack) == 0:
		return jsontext.Token{}, io.EOF
	case i >= len(c.data):
		return jsontext.Token{}, c.fail(i)
	}
	switch kind {
	case '{', '[':
		if c.nameNext() || len(c.stack) >= maxNestingDepth {
			return jsontext.Token{}, c.fail(i)
		}
		c.stack = append(c.stack, frame{object: kind == '{'})
		c.pos = i + 1
		if kind == '{' {
			return jsontext.BeginObject, nil
		}
		return jsontext.BeginArray, nil
	case '}', ']':
		if len(c.stack) == 0 || c.stack[len(c.stack)-1].object != (kind == '}') || c.stack[len(c.stack)-1].wantValue {
			return jsontext.Token{}, c.fail(i)
		}
		c.stack = c.stack[:len(c.stack)-1]
		c.pos = i + 1
		c.done()
		if kind == '}' {
			return jsontext.EndObject, nil
		}
		return jsontext.EndArray, nil
	}
	v, err := c.ReadValue()
	if err != nil {
		return jsontext.Token{}, err
	}
	// A scalar: jsontext makes its token, which it has checked already.
	d := jsontext.NewDecoder(bytes.NewReader(v))
	tok, err := d.ReadToken()
	if err != nil {
		return jsontext.Token{}, err
	}
	return tok.Clone(), nil
}

// ReadValue reads the next value (or object name) whole, checked.
func (c *Cursor) ReadValue() (jsontext.Value, error) {
	i, kind, err := c.next()
	switch {
	case err != nil:
		return nil, err
	case i >= len(c.data) && len(c.stack) == 0:
		return nil, io.EOF
	case i >= len(c.data), kind == 0, kind == '}', kind == ']', c.nameNext() && kind != '"':
		return nil, c.fail(i)
	}
	end := c.value(i, maxNestingDepth-len(c.stack))
	if end < 0 {
		return nil, c.fail(-end - 1)
	}
	c.pos = end
	c.done()
	return c.data[i:end], nil
}

// ReadValueIndexed is ReadValue that also appends to members, when the
// value is an object, where each of its own members' names begins: the
// offset of the name's opening quote in the value. A later walk that
// wants a few members jumps to them rather than read past the others.
// A value of 4 GB or more has no index (members is as it was).
func (c *Cursor) ReadValueIndexed(members []uint32) (jsontext.Value, []uint32, error) {
	n := len(members)
	c.members, c.recording = members, true
	v, err := c.ReadValue()
	members, c.members, c.recording = c.members, nil, false
	if err != nil || len(v) > math.MaxUint32 {
		return v, members[:n], err
	}
	return v, members, nil
}

// Nested is how many objects and arrays deep the last value ReadValue
// read nests (0 for a string, number, true, false or null; 1 for [] and
// [1]): what DepthWithin works out from its text.
func (c *Cursor) Nested() int { return c.nested }

// SkipValue reads the next value and lets it go.
func (c *Cursor) SkipValue() error {
	_, err := c.ReadValue()
	return err
}

// ReadString reads a string (or null, as "") as ReadString does, without
// making a token of it.
func (c *Cursor) ReadString() (string, error) {
	if c.PeekKind() != '"' {
		tok, err := c.ReadToken()
		if err != nil {
			return "", err
		}
		if tok.Kind() == 'n' {
			return "", nil
		}
		return "", fmt.Errorf("got %s, want a string", tok.Kind())
	}
	v, err := c.ReadValue()
	if err != nil {
		return "", err
	}
	if bytes.IndexByte(v, '\\') < 0 {
		return string(v[1 : len(v)-1]), nil
	}
	s, err := jsontext.AppendUnquote(nil, v)
	return string(s), err
}

func skipSpace(s []byte, i int) int {
	for i < len(s) && s[i] <= ' ' { // most tokens follow no space: one test
		switch s[i] {
		case ' ', '\n', '\t', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// value checks the value at s[i] and returns the offset past it, or
// -(where it goes wrong)-1. depth is how many levels it may nest.
func (c *Cursor) value(i, depth int) int {
	s := c.data
	start := i
	kinds := c.kinds[:0]
	nested := 0
	defer func() { c.kinds, c.nested = kinds[:0], nested }()
	for {
		// a value
		if i >= len(s) {
			return -i - 1
		}
		switch b := s[i]; b {
		case '"':
			if i = stringEnd(s, i+1); i < 0 {
				return i
			}
		case '{', '[':
			if len(kinds) >= depth {
				return -i - 1
			}
			nested = max(nested, len(kinds)+1)
			i = skipSpace(s, i+1)
			if i < len(s) && s[i] == b+2 { // '}' is '{'+2, ']' is '['+2
				i++
				break
			}
			if c.recording && b == '{' && len(kinds) == 0 {
				c.members = append(c.members, uint32(i-start))
			}
			kinds = append(kinds, b)
			if b == '{' {
				if i = member(s, i); i < 0 {
					return i
				}
			}
			continue
		case 't':
			if !bytes.HasPrefix(s[i:], []byte("true")) {
				return -i - 1
			}
			i += 4
		case 'f':
			if !bytes.HasPrefix(s[i:], []byte("false")) {
				return -i - 1
			}
			i += 5
		case 'n':
			if !bytes.HasPrefix(s[i:], []byte("null")) {
				return -i - 1
			}
			i += 4
		default:
			if i = numberEnd(s, i); i < 0 {
				return i
			}
		}
		// after a value: the next element or member, or closing brackets
		for {
			if len(kinds) == 0 {
				return i
			}
			i = skipSpace(s, i)
			if i >= len(s) {
				return -i - 1
			}
			open := kinds[len(kinds)-1]
			switch s[i] {
			case ',':
				i = skipSpace(s, i+1)
				if open == '{' {
					if c.recording && len(kinds) == 1 {
						c.members = append(c.members, uint32(i-start))
					}
					if i = member(s, i); i < 0 {
						return i
					}
				}
			case open + 2:
				kinds = kinds[:len(kinds)-1]
				i++
				continue
			default:
				return -i - 1
			}
			break
		}
	}
}

// member checks an object member's name and colon at s[i] and returns
// where its value starts.
func member(s []byte, i int) int {
	if i >= len(s) || s[i] != '"' {
		return -i - 1
	}
	if i = stringEnd(s, i+1); i < 0 {
		return i
	}
	i = skipSpace(s, i)
	if i >= len(s) || s[i] != ':' {
		return -i - 1
	}
	return skipSpace(s, i+1)
}

// stringEnd checks a string whose first byte after the quote is s[i] and
// returns the offset past its closing quote, or -(where it goes wrong)-1.
// Runs of plain bytes are stepped over eight at a time.
func stringEnd(s []byte, i int) int {
	p := unsafe.SliceData(s)
	for {
		// PlainEnd's steps, here rather than called: a string is a few
		// of them, between escapes one or two.
		for uint(i)+8 <= uint(len(s)) {
			if m := jsonbytes.Special8(jsonbytes.Word(p, i)); m != 0 {
				i += bits.TrailingZeros64(m) / 8
				goto special
			}
			i += 8
		}
		if i = jsonbytes.PlainEnd(s, i); i >= len(s) {
			return -i - 1
		}
	special:
		switch b := s[i]; {
		case b == '"':
			return i + 1
		case b == '\\':
			if uint(i)+8 <= uint(len(s)) {
				if n := jsonbytes.CommonEscape(jsonbytes.Word(p, i)); n > 0 {
					i += n
					continue
				}
			}
			n := jsonbytes.EscapeLen(s[i:])
			if n == 0 {
				return -i - 1
			}
			i += n
		case b < ' ':
			return -i - 1
		default:
			r, n := utf8.DecodeRune(s[i:])
			if r == utf8.RuneError && n == 1 {
				return -i - 1
			}
			i += n
		}
	}
}

// numberEnd checks the number at s[i] and returns the offset past it, or
// -(where it goes wrong)-1.
func numberEnd(s []byte, i int) int {
	if i < len(s) && s[i] == '-' {
		i++
	}
	switch {
	case i >= len(s):
		return -i - 1
	case s[i] == '0':
		i++
	case s[i] >= '1' && s[i] <= '9':
		i = digits(s, i+1)
	default:
		return -i - 1
	}
	if i < len(s) && s[i] == '.' {
		j := digits(s, i+1)
		if j == i+1 {
			return -j - 1
		}
		i = j
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		j := digits(s, i)
		if j == i {
			return -j - 1
		}
		i = j
	}
	return i
}

func digits(s []byte, i int) int {
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
}
