package shape

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/planpr/planpr/render/tofujson"
)

func rawChange(t *testing.T, before, after string) shaped {
	t.Helper()
	return shaped{&readChanges(t, [2]string{before, after})[0]}
}

func TestShape(t *testing.T) {
	web := func(i, name, ip, typ string) Shape {
		return rawChange(t, `null`, `{"name":"`+name+`","ip":"`+ip+`","type":"`+typ+`","size":2}`).Shape([]string{i})
	}
	base := web("17", "web-17", "10.0.0.17", "t3.micro")
	for _, tc := range []struct {
		what          string
		got           Shape
		strict, loose bool
	}{
		{"another index, names derived from it", web("3", "web-3", "10.0.0.3", "t3.micro"), true, true},
		{"an address numbered otherwise", web("3", "web-3", "10.0.1.40", "t3.micro"), false, true},
		{"a version differing in its digits", web("3", "web-3", "10.0.0.3", "t2.micro"), false, true},
		{"a word differing", web("3", "web-3", "10.0.0.3", "t3.large"), false, false},
		{"a number differing", rawChange(t, `null`, `{"name":"web-3","ip":"10.0.0.3","type":"t3.micro","size":4}`).Shape([]string{"3"}), false, true},
		{"a number that is the key", rawChange(t, `null`, `{"name":"web-3","ip":"10.0.0.3","type":"t3.micro","size":3}`).Shape([]string{"3"}),
			false, true},
		{"the key inside a longer number is not the key", web("1", "web-1", "10.0.0.1", "t3.micro"), true, true},
	} {
		if (tc.got.Strict == base.Strict) != tc.strict || (tc.got.Loose == base.Loose) != tc.loose {
			t.Errorf("%s: strict equal %v (want %v), loose equal %v (want %v)", tc.what, tc.got.Strict == base.Strict, tc.strict, tc.got.Loose == base.Loose, tc.loose)
		}
	}
	alice := rawChange(t, `{"user":"alice","home":"/home/alice"}`, `null`).Shape([]string{"alice"})
	bob := rawChange(t, `{"user":"bob","home":"/home/bob"}`, `null`).Shape([]string{"bob"})
	if alice != bob {
		t.Errorf("for_each keys: alice and bob should be alike")
	}
	a := rawChange(t, `{"user":"a"}`, `null`).Shape([]string{"a"})
	b := rawChange(t, `{"user":"b"}`, `null`).Shape([]string{"b"})
	if a != b {
		t.Errorf("keys of one letter: a and b should be alike")
	}
	// Decoded changes hash as their raw text does, written as the tools
	// write it.
	raw := rawChange(t, `{"a":"x-1"}`, `null`)
	decoded := shaped{&tofujson.Change{Before: map[string]any{"a": "x-1"}, AfterUnknown: map[string]any{}, BeforeSensitive: map[string]any{}, AfterSensitive: map[string]any{}}}
	if raw.Shape([]string{"1"}) != decoded.Shape([]string{"1"}) {
		t.Errorf("a decoded change should hash as its raw text")
	}
}

// TestShapeNumbers: instances whose numbers follow from their index are
// alike (fleet[1900] with index = 1900), but only while the same
// attributes change: an update of size 2 -> 4 is not one that keeps size.
func TestShapeNumbers(t *testing.T) {
	fleet := func(i string) Shape {
		return rawChange(t, `{"index":`+i+`,"name":"fleet-`+i+`"}`, `null`).Shape([]string{i})
	}
	if a, b := fleet("1900"), fleet("1991"); a != b {
		t.Errorf("numbers equal to the key: strict %v, loose %v, want both alike", a.Strict == b.Strict, a.Loose == b.Loose)
	}
	update := func(before, after string) Shape {
		return rawChange(t, `{"size":`+before+`}`, `{"size":`+after+`}`).Shape([]string{"0"})
	}
	if a, b := update("2", "4"), update("3", "5"); a.Loose != b.Loose {
		t.Errorf("two updates of size: not loosely alike")
	}
	if a, b := update("2", "4"), update("3", "3"); a.Loose == b.Loose {
		t.Errorf("an update of size and one keeping it: loosely alike")
	}
	if a, b := update("2.5", "-1e3"), update("7.25", "-2e4"); a.Loose != b.Loose {
		t.Errorf("fractions and exponents: not loosely alike")
	}
}

// TestShapeKeys: a key is replaced where it is a word of its own (or, of
// several characters and not a number, wherever it appears), in strings
// and escapes aside: want writes # where it is replaced. The same text
// with another key there is strictly alike; with the key nowhere, not.
func TestShapeKeys(t *testing.T) {
	for _, tc := range []struct{ s, key, want string }{
		{"web-17", "17", "web-#"},
		{"web-170", "17", "web-170"},
		{"step 33 of 3", "3", "step 33 of #"},
		{"10.0.17.17", "17", "10.0.#.#"},
		{"a-b", "a", "#-b"},
		{"alpha", "a", "alpha"},
		{"svc-payments-eu", "payments", "svc-#-eu"},
		{`say \"17\"\n17`, "17", `say \"#\"\n#`}, // the n of \n is not part of the word after it
		{`a\u002617`, "17", `a\u0026#`},          // nor the hex digits of \u0026
	} {
		other := "99"
		switch {
		case len(tc.key) == 1 && !isDigits(tc.key):
			other = "q"
		case !isDigits(tc.key):
			other = "billing"
		}
		strict := func(s, key string) uint64 {
			return rawChange(t, `{"v":"`+s+`"}`, `null`).Shape([]string{key}).Strict
		}
		got := strict(tc.s, tc.key)
		if alike := strict(strings.ReplaceAll(tc.want, "#", other), other); got != alike {
			t.Errorf("%q with key %q: not strictly alike %q with key %q", tc.s, tc.key, tc.want, other)
		}
		if tc.want != tc.s && got == strict(tc.s, "zz") {
			t.Errorf("%q with key %q: strictly alike the same text without the key", tc.s, tc.key)
		}
	}
}

// shaped is a change with its Shape, as the tests ask for it.
type shaped struct{ c *tofujson.Change }

func (s shaped) Shape(keys []string) Shape { return Of(s.c, keys) }

// normalized writes v, an after value, with each path and returns what
// it wrote: the fast path with where v's members begin, as the reader
// keeps them.
func normalized(v []byte, keys []string, each bool) string {
	var n shapeNormalizer
	n.setKeys(keys)
	n.value, n.perAttribute = 1, true
	n.strictWords = fnvOffset
	v, members := n.replaceKeys(v, memberOffsets(v))
	if each {
		n.writeEachWord(v)
	} else {
		n.writeDigitWords(v, members)
	}
	n.loose = append(n.loose, v[n.done:]...)
	return fmt.Sprintf("%q|%x|%v", n.loose, n.strictWords, n.attrs[1])
}

// memberOffsets is where the members of v, an object, begin: the offset
// of each name's opening quote, found with jsontext.
func memberOffsets(v []byte) []uint32 {
	dec := jsontext.NewDecoder(bytes.NewReader(v))
	if tok, err := dec.ReadToken(); err != nil || tok.Kind() != '{' {
		return nil
	}
	var members []uint32
	for dec.PeekKind() == '"' {
		at := int(dec.InputOffset())
		for v[at] != '"' {
			at++ // the comma and spaces before the name
		}
		members = append(members, uint32(at))
		if _, err := dec.ReadToken(); err != nil {
			return nil
		}
		if err := dec.SkipValue(); err != nil {
			return nil
		}
	}
	return members
}

// TestFastPathAgrees: skipping to the words that hold digits finds what
// reading every word finds, when no key is one letter.
func TestFastPathAgrees(t *testing.T) {
	for _, v := range fastPathSeeds {
		if fast, each := normalized([]byte(v), []string{"17", "web"}, false), normalized([]byte(v), []string{"17", "web"}, true); fast != each {
			t.Errorf("%s:\nfast %s\neach %s", v, fast, each)
		}
	}
}

var fastPathSeeds = []string{
	`{"a":"web-17 10.0.0.17","b":[1,2.5,-3e4],"c":{"d":"x\n17\u0026y"}}`,
	`{"user_data":"echo 'step 7 of instance 17' \u0026\u0026 systemctl restart app-7\n","size":17,"tags":{"Name":"web-17"}}`,
	`"\\17"`, `"a\"17"`, `{"k1":"\u00261x\u0026b","k\"2":[17,{"n3":"\\u0026"}]}`, `["\u00e9a1",{"a":1}]`, `[17,"17",{"17":17}]`, `{"x":"#1 #web"}`, `{}`, `null`}

// FuzzShapePaths: the two paths agree on any input, valid JSON or not.
func FuzzShapePaths(f *testing.F) {
	for _, v := range fastPathSeeds {
		f.Add(v)
		f.Add(`{"pad":"` + strings.Repeat(" ", 55) + `","v":` + v + `}`) // longer, at another offset
	}
	f.Fuzz(func(t *testing.T, v string) {
		if !jsontext.Value(v).IsValid() {
			return // the fast path reads what the reader checked
		}
		if fast, each := normalized([]byte(v), []string{"17"}, false), normalized([]byte(v), []string{"17"}, true); fast != each {
			t.Errorf("%q:\nfast %s\neach %s", v, fast, each)
		}
	})
}

// TestFastPathAgreesAtAnyOffset: nextDigit reads eight bytes at a time
// and the hash of a word loads its bytes at once; words, escapes and runs
// of backslashes wherever they fall against those steps, in values longer
// than the seeds, are found as writeEachWord finds them.
func TestFastPathAgreesAtAnyOffset(t *testing.T) {
	pieces := []string{
		`web-17`, `\u0026\u0026a1`, `\\\\17`, `\\\"x1`, `\n17`, `ab\u00e9c2`, `#1`, `i-0abc12`,
		`10.0.3.17`, `\u0026`, `\\`, strings.Repeat("a", 70) + "1", strings.Repeat("1", 130), `\u00261x`,
	}
	for _, p := range pieces {
		for pad := 40; pad <= 140; pad++ {
			v := `{"k":"` + strings.Repeat(" ", pad) + p + ` ` + p + `","n":17}`
			if fast, each := normalized([]byte(v), []string{"17"}, false), normalized([]byte(v), []string{"17"}, true); fast != each {
				t.Fatalf("%q at %d:\nfast %s\neach %s", p, pad, fast, each)
			}
		}
	}
}

// TestDigitsIn8MarksEachByte: every byte value, in every lane, beside
// neighbours that could carry or borrow, is marked exactly when it is a
// digit or #.
func TestDigitsIn8MarksEachByte(t *testing.T) {
	for b := range 256 {
		for lane := range 8 {
			for _, fill := range []byte{0x00, '/', '0', '9', ':', '#', 0x7f, 0x80, 0xff} {
				x := uint64(fill) * 0x0101010101010101
				x = x&^(0xff<<(8*lane)) | uint64(b)<<(8*lane)
				got := digitsIn8(x)>>(8*lane+7)&1 == 1
				if want := byteClass[b] == digitLike; got != want {
					t.Fatalf("byte %#x in lane %d among %#x: marked %v", b, lane, fill, got)
				}
			}
		}
	}
}
