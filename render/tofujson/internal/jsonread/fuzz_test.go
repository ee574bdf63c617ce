package jsonread

import (
	"bytes"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
)

// FuzzDecodeRaw checks that decoding from memory, which takes strings as
// substrings of the input, gives exactly what the streaming decoder gives.
func FuzzDecodeRaw(f *testing.F) {
	for _, seed := range []string{
		`{"a":"b","c\n":"d\"e","n":-1.5e3,"l":[true,false,null,"x",{}],"u":"\u00e9\ud83d\ude00"}`,
		`"plain"`, `"esc\\aped\/"`, `12`, `[]`, `{"dup":1,"dup":2}`, `{"a":[1,2,{"b":"c"}]} trailing`,
		`"\ud800"`, "\"bad \xff utf8\"", `{"a":}`, `[1,`, `{"k":"v"`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return // an absent value: DecodeRaw returns nil by design
		}
		got, err := DecodeRaw(data)
		dec := jsontext.NewDecoder(bytes.NewReader(data), jsontext.AllowDuplicateNames(true))
		want, werr := DecodeAny(dec)
		if (err == nil) != (werr == nil) {
			t.Fatalf("DecodeRaw error %v, streaming error %v", err, werr)
		}
		if err == nil && !reflect.DeepEqual(got, want) {
			t.Fatalf("DecodeRaw = %#v, streaming = %#v", got, want)
		}
		// DecodeString reads the value at the start of a string, taking
		// its strings as substrings: it decodes what DecodeRaw decodes.
		got, err = DecodeString(string(data))
		want, werr = DecodeRaw(data)
		if (err == nil) != (werr == nil) || (err == nil && !reflect.DeepEqual(got, want)) {
			t.Fatalf("DecodeString = %#v (%v), DecodeRaw = %#v (%v)", got, err, want, werr)
		}
	})
}

// FuzzMarkedStrings: on values jsontext accepts, the walk that jumps to
// the marked members of a value MemberOffsets indexed finds exactly the
// strings the walk over the whole value finds, in the same order, and
// both find what the mirror marks in the value decoded whole; on
// anything else MarkedStrings still never panics.
func FuzzMarkedStrings(f *testing.F) {
	f.Add([]byte(`{"a":"s1","b":{"c":["x","y\"z"],"d":"n"},"e":[{"f":"s2"},{"f":"s3"}]}`), []byte(`{"a":true,"b":{"c":[false,true]},"e":[{"f":true}]}`))
	f.Add([]byte(`["a",{"k":"\u00e9\ud83d\ude00"},3,null]`), []byte(`[true,{"k":true},true,true]`))
	f.Add([]byte(`{"a":{"b":"c"}}`), []byte(`{"a":true}`))
	f.Add([]byte(`{"a":"x","a":"y"}`), []byte(`{"a":{"b":true}}`))
	f.Add([]byte(`{"n":-1.5e3,"p":"pw-1","q":true,"r":null,"s":17}`), []byte(`{"p":true}`))
	f.Add([]byte(`{"n":12,"p":7}`), []byte(`{"p":true}`))
	f.Add([]byte(` { "a" : "x" ,"b\u0022":{"c": "\"d\""} , "p":["q", {"r":"s"}]}`), []byte(`{"b\"":{"c":true},"p":[true,{"r":true}]}`))
	f.Add([]byte(`{"a":"x","a":"y","b":{"a":"z"}}`), []byte(`{"a":true}`))
	f.Add([]byte(`{"c":"x","a":"y","b":"z","d":"w"}`), []byte(`{"a":true,"b":true,"c":true,"d":true}`))
	f.Fuzz(func(t *testing.T, raw, maskJSON []byte) {
		mask, err := DecodeRaw(maskJSON)
		if err != nil {
			return
		}
		var got []string
		gerr := MarkedStrings(raw, mask, func(s string, k SecretKind) { got = append(got, fmt.Sprint(k, ":", s)) })
		if !jsontext.Value(raw).IsValid(jsontext.AllowDuplicateNames(true)) {
			return
		}
		if v := bytes.TrimSpace(raw); true {
			index := MemberOffsets(v)
			var jumped []string
			jerr := MarkedStringsIndexed(v, index, mask, func(s string, k SecretKind) { jumped = append(jumped, fmt.Sprint(k, ":", s)) })
			if (jerr == nil) != (gerr == nil) || !slices.Equal(jumped, got) {
				t.Fatalf("with the index %v found %q (%v), without %q (%v)", index, jumped, jerr, got, gerr)
			}
		}
		if gerr != nil {
			t.Fatalf("MarkedStrings failed on a valid value: %v", gerr)
		}
		// Decoded whole, a value keeps the last of repeated names, and
		// CollectMarked visits the mirror's members in its order: compare
		// the strings found as sets, on values without repeated names.
		v, err := DecodeRaw(raw)
		if err != nil || !jsontext.Value(raw).IsValid() { // IsValid refuses repeated names
			return
		}
		var want []string
		CollectMarked(v, mask, func(s string, k SecretKind) { want = append(want, fmt.Sprint(k, ":", s)) })
		slices.Sort(want)
		sorted := slices.Sorted(slices.Values(got))
		if !slices.Equal(sorted, want) {
			t.Fatalf("MarkedStrings found %q, the mirror over the decoded value %q", sorted, want)
		}
	})
}

// FuzzDepthWithin: the quick depth check agrees with the depth jsontext
// sees, on every valid document.
func FuzzDepthWithin(f *testing.F) {
	f.Add([]byte(`{"a":[{"b":"[[["}]}`), 2)
	f.Add([]byte(`[[["\"]"]]]`), 3)
	f.Add([]byte(strings.Repeat("[", 300)+strings.Repeat("]", 300)), 256)
	f.Fuzz(func(t *testing.T, raw []byte, limit int) {
		if limit < 0 || limit > 1000 || !jsontext.Value(raw).IsValid(jsontext.AllowDuplicateNames(true)) {
			return
		}
		dec := jsontext.NewDecoder(bytes.NewReader(raw), jsontext.AllowDuplicateNames(true))
		deepest := 0
		for {
			if _, err := dec.ReadToken(); err != nil {
				break
			}
			deepest = max(deepest, dec.StackDepth())
		}
		if got, want := DepthWithin(raw, limit), deepest <= limit; got != want {
			t.Fatalf("DepthWithin(%q, %d) = %v; jsontext's deepest is %d", raw, limit, got, deepest)
		}
	})
}
