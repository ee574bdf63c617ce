package tofujson

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
)

// FuzzReadPlan checks that no input makes the plan reader panic: every
// input either decodes or returns an *InputError.
func FuzzReadPlan(f *testing.F) {
	f.Add([]byte(minimalPlan))
	f.Add([]byte(`{"format_version":"1.2","resource_changes":[{"change":{"actions":["no-op"],"before":{"a":[1,{"b":null}]},"after_unknown":true}}]}`))
	f.Add([]byte(`{"format_version":"1.0","values":{}}`))
	f.Add([]byte("[command]terraform-bin show -json\n{}"))
	f.Add([]byte(`{"format_version":"1.2","resource_changes":null,"output_changes":{"x":{"actions":["create"]}}}`))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(dir, "plan.json")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := ReadPlanFile(path, func(string, *ResourceChange) error { return nil })
		if err != nil {
			if _, ok := err.(*InputError); !ok {
				t.Fatalf("error of type %T: %v", err, err)
			}
		}
	})
}

// FuzzDecodeSchemas checks that no schema document makes the decoder panic.
func FuzzDecodeSchemas(f *testing.F) {
	f.Add([]byte(schemasDoc))
	f.Add([]byte(`{"format_version":"1.0","provider_schemas":{"p":{"resource_schemas":{"t":{"block":{"attributes":{"a":{"nested_type":{"nesting_mode":"map","attributes":{}}}}}}}}}}`))
	f.Add([]byte(`{"format_version":"1.0","provider_schemas":{"p":null}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		if _, err := DecodeSchemas("schemas.json", data); err != nil {
			if _, ok := err.(*InputError); !ok {
				t.Fatalf("error of type %T: %v", err, err)
			}
		}
	})
}

// FuzzReadStream checks that no input makes the UI-stream reader panic.
func FuzzReadStream(f *testing.F) {
	f.Add([]byte(`{"type":"version","ui":"1.0","terraform":"1.9.0"}` + "\n" + `{"type":"change_summary","changes":{"add":1}}` + "\n"))
	f.Add([]byte(`{"type":"version","ui":"1.2"}` + "\n" + `{"type":"diagnostic","diagnostic":{"severity":"error","snippet":{"code":"x","highlight_start_offset":9}}}`))
	f.Add([]byte(`{"type":"version","ui":"2.0"}`))
	f.Add([]byte("{\"type\":\"version\",\"ui\":\"1.0\"}\n{\"type\":\"outp"))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(dir, "stream.jsonl")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := ReadStreamFile(path, func(*Message) error { return nil }); err != nil {
			if _, ok := err.(*InputError); !ok {
				t.Fatalf("error of type %T: %v", err, err)
			}
		}
	})
}

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
		want, werr := decodeAny(jsontext.NewDecoder(bytes.NewReader(data), jsontext.AllowDuplicateNames(true)))
		if (err == nil) != (werr == nil) {
			t.Fatalf("DecodeRaw error %v, streaming error %v", err, werr)
		}
		if err == nil && !reflect.DeepEqual(got, want) {
			t.Fatalf("DecodeRaw = %#v, streaming = %#v", got, want)
		}
		// DecodeString takes a shortcut through the trusted decoder for
		// text jsontext checks whole; what it decodes must not change.
		got, err = DecodeString(string(data))
		want, werr = decodeMemory(data, string(data))
		if (err == nil) != (werr == nil) || (err == nil && !reflect.DeepEqual(got, want)) {
			t.Fatalf("DecodeString = %#v (%v), decoding token by token = %#v (%v)", got, err, want, werr)
		}
	})
}

// FuzzTrusted checks the decoder for checked input: on any input it ends
// without panicking, and on a resource change jsontext accepts it decodes
// exactly what the checking reader decodes (or declines, leaving it to
// that reader), whether or not its strings go to a slab.
func FuzzTrusted(f *testing.F) {
	f.Add([]byte(`{"address":"a.b","index":"k","change":{"actions":["update"],"before":{"s":"x\"y\\u0026","n":[1,-2.5e3,true,null]},"after":{"s":"\ud83d\ude00"},"replace_paths":[["s"]],"importing":{"ID":"i-1","identity":{"k":[1]}}}}`))
	f.Add([]byte(`{"change":null,"mode":null,"unknown":[{"a":"]}"},"\\"]}`))
	f.Add([]byte(`{"change":{"after":"\\\"","after_unknown":{"a":"\"}"}}}`))
	f.Add([]byte(`{"address":"a","change":{"before":{"a":}}}`))
	f.Add([]byte(`{"address":"a\"`))
	// after shares what before writes the same: numbers that only start
	// alike, members out of order, repeated names, after first.
	f.Add([]byte(`{"change":{"before":{"a":1,"b":"x","c":[1,{"d":true}]},"after":{"a":12,"b":"x","c":[1,{"d":true}]}}}`))
	f.Add([]byte(`{"change":{"before":1,"after":10}}`))
	f.Add([]byte(`{"change":{"before":{"b":2,"a":1},"after":{"a":1,"b":2,"c":null}}}`))
	f.Add([]byte(`{"change":{"before":{"a":1,"a":2},"after":{"a":2,"a":1}}}`))
	f.Add([]byte(`{"change":{"after":{"a":"s"},"before":{"a":"s"}}}`))
	f.Add([]byte(`{"change":{"before":{"a":"s"} ,"after":{"a":"s"} }}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var got, slabbed ResourceChange
		terr := (&trusted{src: string(data)}).resourceChange(&got)
		// With a slab (a reader reusing its memory), and one already used,
		// the strings must come out the same.
		slab := &textSlab{}
		slab.keep(append(slab.take(3), "old"...))
		serr := (&trusted{src: string(data), slab: slab}).resourceChange(&slabbed)
		if (serr == nil) != (terr == nil) || (terr == nil && !reflect.DeepEqual(slabbed, got)) {
			t.Fatalf("with a slab, trusted decoded\n%#v (%v)\nwithout\n%#v (%v)", slabbed, serr, got, terr)
		}
		dec := jsontext.NewDecoder(bytes.NewReader(data), jsontext.AllowDuplicateNames(true))
		r := &reader{path: "fuzz", dec: dec}
		var want ResourceChange
		if err := r.resourceChange(&want); err != nil || terr != nil {
			return
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("trusted decoded\n%#v\nthe checking reader\n%#v", got, want)
		}
	})
}

// FuzzMarkedStrings: on values jsontext accepts, the trusted walk finds
// exactly the strings the jsontext walk finds, in the same order; on
// anything else MarkedStrings still never panics.
func FuzzMarkedStrings(f *testing.F) {
	f.Add([]byte(`{"a":"s1","b":{"c":["x","y\"z"],"d":"n"},"e":[{"f":"s2"},{"f":"s3"}]}`), []byte(`{"a":true,"b":{"c":[false,true]},"e":[{"f":true}]}`))
	f.Add([]byte(`["a",{"k":"\u00e9\ud83d\ude00"},3,null]`), []byte(`[true,{"k":true},true,true]`))
	f.Add([]byte(`{"a":{"b":"c"}}`), []byte(`{"a":true}`))
	f.Add([]byte(`{"a":"x","a":"y"}`), []byte(`{"a":{"b":true}}`))
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
		var want []string
		werr := walkMarked(jsontext.NewDecoder(bytes.NewReader(raw), jsontext.AllowDuplicateNames(true)), mask, func(s string, k SecretKind) { want = append(want, fmt.Sprint(k, ":", s)) })
		if (gerr == nil) != (werr == nil) || !slices.Equal(got, want) {
			t.Fatalf("MarkedStrings found %q (%v), the jsontext walk %q (%v)", got, gerr, want, werr)
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
		if got, want := depthWithin(raw, limit), deepest <= limit; got != want {
			t.Fatalf("depthWithin(%q, %d) = %v; jsontext's deepest is %d", raw, limit, got, deepest)
		}
	})
}
