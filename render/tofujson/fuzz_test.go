package tofujson

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/planpr/planpr/render/tofujson/internal/jsonread"
)

// FuzzReadPlan checks that no input makes the plan reader panic: every
// input either decodes or returns an *InputError.
func FuzzReadPlan(f *testing.F) {
	f.Add([]byte(minimalPlan))
	f.Add([]byte(`{"format_version":"1.2","resource_changes":[{"change":{"actions":["no-op"],"before":{"a":[1,{"b":null}]},"after_unknown":true}}]}`))
	f.Add([]byte(`{"format_version":"1.0","values":{}}`))
	f.Add([]byte("[command]terraform-bin show -json\n{}"))
	f.Add([]byte(`{"format_version":"1.2","resource_changes":null,"output_changes":{"x":{"actions":["create"]}}}`))
	// What editors and shells write: byte-order marks, UTF-16 both ways,
	// a lone surrogate, an odd byte count.
	f.Add([]byte("\xEF\xBB\xBF" + minimalPlan))
	f.Add(utf16Bytes(minimalPlan, binary.LittleEndian, true))
	f.Add(utf16Bytes(`{"format_version":"0.1","resource_changes":[]}`, binary.BigEndian, true))
	f.Add([]byte("\xFF\xFE{\x00\x00\xD8}\x00\x00"))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(dir, "plan.json")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		for _, opts := range []ReadOptions{{}, {Lazy: true}} { // values decoded as read, or kept raw
			_, err := ReadPlan(path, opts, func(string, *ResourceChange) error { return nil })
			switch err.(type) {
			case nil, *InputError, *SeveralPlansError:
			default:
				t.Fatalf("error of type %T: %v", err, err)
			}
		}
	})
}

// FuzzSplitPlans checks the reader of files of several plans: on any
// input it fails with an *InputError or returns parts that, put back
// together, are the input's text, each holding one JSON object and
// starting where the parts before it end.
func FuzzSplitPlans(f *testing.F) {
	f.Add([]byte(minimalPlan + "\n" + minimalPlan + "\n"))
	f.Add([]byte(`{"format_version":"1.2"}{"format_version":"0.1"}`))
	f.Add([]byte("{}\n\n  {\"a\":\"}{\"}\n[1]"))
	f.Add([]byte("{} trailing"))
	f.Add([]byte("\xEF\xBB\xBF{}\r\n{}"))
	f.Add(utf16Bytes(`{"format_version":"1.2"}`+"\n"+`{"format_version":"1.2"}`, binary.LittleEndian, true))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(dir, "plans.json")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		parts, release, err := SplitPlans(path)
		defer release()
		if err != nil {
			if _, ok := err.(*InputError); !ok {
				t.Fatalf("error of type %T: %v", err, err)
			}
			return
		}
		text, err := ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var joined []byte
		for i, p := range parts {
			b, err := ReadFile(p.Path)
			if err != nil {
				t.Fatal(err)
			}
			if line, col := jsonread.LineCol(text, int64(len(joined))); line != p.Line || col != p.Column {
				t.Fatalf("part %d starts at %d:%d, says %d:%d", i+1, line, col, p.Line, p.Column)
			}
			dec := jsontext.NewDecoder(bytes.NewReader(b), jsontext.AllowDuplicateNames(true))
			if v, err := dec.ReadValue(); err != nil || v.Kind() != '{' {
				t.Fatalf("part %d is not one object: %v", i+1, err)
			}
			if _, err := dec.ReadToken(); err == nil {
				t.Fatalf("part %d holds more than one value", i+1)
			}
			joined = append(joined, b...)
		}
		if rest := bytes.TrimLeft(text[len(joined):], " \t\r\n"); len(rest) > 0 {
			t.Fatalf("%d bytes after the last part: %q", len(rest), rest)
		}
		if !bytes.Equal(joined, text[:len(joined)]) {
			t.Fatal("the parts are not the input's text")
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
		var plain, reusing jsonread.Decoder
		plain.Reset(string(data))
		terr := changeDecoder{&plain}.resourceChange(&got)
		// Reusing its memory, and after decoding something else first, the
		// decoder must give the same values.
		reusing.ReuseMemory()
		reusing.Reset(`{"address":"old\u0026","change":{"after":{"s":"x\ny"}}}`)
		var old ResourceChange
		_ = changeDecoder{&reusing}.resourceChange(&old)
		reusing.FreeMemory()
		reusing.Reset(string(data))
		serr := changeDecoder{&reusing}.resourceChange(&slabbed)
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
