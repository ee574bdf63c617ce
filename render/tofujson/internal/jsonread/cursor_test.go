package jsonread

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
)

// walkTokens reads a document from src as a plan reader does, each step
// peeking at the next kind, then reading a token, a whole value or
// skipping one as choices say, and writes down what it saw until the end
// or the first error.
func walkTokens(src Tokens, choices []byte) string {
	var trace strings.Builder
	if len(choices) == 0 {
		choices = []byte{0}
	}
	for step := 0; step < 10000; step++ {
		kind := src.PeekKind()
		fmt.Fprintf(&trace, "peek %q; ", kind)
		switch choice := choices[step%len(choices)] % 3; {
		case kind == 0 || kind == '}' || kind == ']' || choice == 0:
			tok, err := src.ReadToken()
			if err == io.EOF {
				return trace.String() + "EOF"
			}
			if err != nil {
				return trace.String() + "error"
			}
			fmt.Fprintf(&trace, "token %q %q @%d\n", tok.Kind(), tok.String(), src.InputOffset())
		case choice == 1:
			v, err := src.ReadValue()
			if err != nil {
				return trace.String() + "error"
			}
			fmt.Fprintf(&trace, "value %s @%d\n", v, src.InputOffset())
		default:
			if err := src.SkipValue(); err != nil {
				return trace.String() + "error"
			}
			fmt.Fprintf(&trace, "skip @%d\n", src.InputOffset())
		}
	}
	return trace.String() + "too long"
}

func decoderOf(data []byte) *jsontext.Decoder {
	return jsontext.NewDecoder(bytes.NewReader(data), jsontext.AllowDuplicateNames(true))
}

var cursorSeeds = []string{
	`{"format_version":"1.2","resource_changes":[{"address":"a.b","change":{"actions":["create"],"before":null,"after":{"x":[1,-2.5e+3,true,false,null,"\u00e9\ud83d\ude00"]}}}]}`,
	` [ ] `, `{}`, `{} {}`, `{}x`, `[1,]`, `[,1]`, `{"a":1,}`, `{"a" 1}`, `{"a":}`, `{1:2}`, `[01]`, `[1.]`, `[1e]`, `[-]`, `[.5]`,
	`["\ud800"]`, `["\ud800\u0041"]`, `["\udc00\ud800"]`, `["\ud83d\ude00"]`, `["\x"]`, "[\"\x01\"]", "[\"\xff\"]", "[\"\xe2\x82\"]",
	"[\"\xef\xbf\xbd\"]", `["\/"]`, `[tru]`, `[nul]`, `[truex]`, `"a"`, `1`, `1 2`, `[1 2]`, `{"a":1 "b":2}`, `[`, `{"a":`, `"abc`,
	`[1]]`, `[}`, `{]`, "\t\n\r {\"a\" : [ 1 , 2 ] }\n", `{"a":{"b":{"c":[[[]]]}}}`, `[-0,0.0e-0,1E+9]`, `["\u00"]`,
	`["\u0026\u003c\u003E"]`, `["\u00zz"]`, `["\u00G1"]`, `["\u000"]`, `["\u00d8"]`, `["\ud800\u00dc"]`,
}

// FuzzCursorAgrees: the Cursor reads what jsontext reads, token for
// token, value for value and offset for offset, and fails where it fails.
func FuzzCursorAgrees(f *testing.F) {
	for i, s := range cursorSeeds {
		f.Add([]byte(s), []byte{byte(i), byte(i / 3), byte(i / 7)})
	}
	f.Fuzz(func(t *testing.T, data, choices []byte) {
		want := walkTokens(decoderOf(data), choices)
		if got := walkTokens(NewCursor(data), choices); got != want {
			t.Fatalf("%q with choices %v:\ncursor:  %s\njsontext: %s", data, choices, got, want)
		}
	})
}

func TestCursorAgrees(t *testing.T) {
	for i, s := range cursorSeeds {
		for _, choices := range [][]byte{{0}, {1}, {2}, {byte(i), byte(i / 3), byte(i / 7)}} {
			want := walkTokens(decoderOf([]byte(s)), choices)
			if got := walkTokens(NewCursor([]byte(s)), choices); got != want {
				t.Errorf("%q with choices %v:\ncursor:  %s\njsontext: %s", s, choices, got, want)
			}
		}
	}
}

// TestCursorDepthLimit: the cursor refuses nesting where jsontext does,
// read token by token or as one value.
func TestCursorDepthLimit(t *testing.T) {
	for _, depth := range []int{maxNestingDepth - 1, maxNestingDepth, maxNestingDepth + 1} {
		for _, open := range []string{`[`, `{"":`} {
			closing := map[string]string{`[`: `]`, `{"":`: `}`}[open]
			doc := []byte(`[` + strings.Repeat(open, depth-1) + `0` + strings.Repeat(closing, depth-1) + `]`)
			for _, choices := range [][]byte{{0}, {1}} {
				want := walkTokens(decoderOf(doc), choices)
				if got := walkTokens(NewCursor(doc), choices); got != want {
					t.Errorf("depth %d of %s, choices %v: cursor ends %q, jsontext %q", depth, open, choices, tail(got), tail(want))
				}
			}
		}
	}
}

func tail(s string) string { return s[max(0, len(s)-40):] }

// TestCursorValuesAreTheDocuments: a value read is the document's own
// memory, not a copy.
func TestCursorValuesAreTheDocuments(t *testing.T) {
	doc := []byte(`{"a": {"b": [1, 2]}}`)
	c := NewCursor(doc)
	if _, err := c.ReadToken(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.ReadValue(); err != nil {
		t.Fatal(err)
	}
	v, err := c.ReadValue()
	if err != nil {
		t.Fatal(err)
	}
	if string(v) != `{"b": [1, 2]}` || &v[0] != &doc[6] {
		t.Errorf("value %q is not doc[6:]", v)
	}
}

// BenchmarkCursorValue checks values like a plan's: a script, a JSON
// policy, ids and tags, against jsontext doing the same.
func BenchmarkCursorValue(b *testing.B) {
	strs := benchStrings()
	var doc strings.Builder
	doc.WriteString("[")
	for i := range 200 {
		if i > 0 {
			doc.WriteString(",")
		}
		fmt.Fprintf(&doc, `{"id":"i-%08x","ip":"10.0.%d.%d","size":%d,"enabled":true,"user_data":%s,"policy":%s,"tags":{"Name":"web-%d","team":"platform"}}`,
			i, i/256, i%256, i, strs[0], strs[1], i)
	}
	doc.WriteString("]")
	data := []byte(doc.String())
	b.Run("cursor", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			if _, err := NewCursor(data).ReadValue(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("jsontext", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			if _, err := decoderOf(data).ReadValue(); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// nesting is how deep a valid value's objects and arrays nest, counted
// as DepthWithin counts them.
func nesting(v []byte) int {
	depth, deepest, inString := 0, 0, false
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
		case inString:
		case c == '[' || c == '{':
			depth++
			deepest = max(deepest, depth)
		case c == ']' || c == '}':
			depth--
		}
	}
	return deepest
}

// TestNestedCountsAsDepthWithin: after each value it reads, the cursor
// says how deep it nests, empty objects and arrays and brackets inside
// strings included, and agrees with DepthWithin at its limit.
func TestNestedCountsAsDepthWithin(t *testing.T) {
	for _, v := range append(cursorSeeds, `[[[]]]`, `{"a":[{},{"b":[[]]}],"c":"[[[["}`, `[{"a":"\"[["},[]]`, `"x"`, `[]`) {
		c := NewCursor([]byte(v))
		got, err := c.ReadValue()
		if err != nil {
			continue
		}
		if c.Nested() != nesting(got) {
			t.Errorf("%s: nested %d, want %d", got, c.Nested(), nesting(got))
		}
		for _, limit := range []int{c.Nested() - 1, c.Nested()} {
			if limit < 0 {
				continue
			}
			if (c.Nested() <= limit) != DepthWithin(got, limit) {
				t.Errorf("%s at limit %d: Nested %d, DepthWithin %v", got, limit, c.Nested(), DepthWithin(got, limit))
			}
		}
	}
}

// FuzzNested: Nested is the nesting DepthWithin counts, for any value.
func FuzzNested(f *testing.F) {
	for _, s := range cursorSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		c := NewCursor([]byte(v))
		got, err := c.ReadValue()
		if err != nil {
			return
		}
		if n := c.Nested(); n != nesting(got) || !DepthWithin(got, n) || n > 0 && DepthWithin(got, n-1) {
			t.Errorf("%q: nested %d, counted %d", got, n, nesting(got))
		}
	})
}
