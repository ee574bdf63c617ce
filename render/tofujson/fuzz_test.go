package tofujson

import (
	"bytes"
	"encoding/binary"
	"io"
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
		files := NewFiles()
		defer files.Close()
		parts, release, err := files.SplitPlans(path)
		defer release()
		if err != nil {
			if _, ok := err.(*InputError); !ok {
				t.Fatalf("error of type %T: %v", err, err)
			}
			return
		}
		text, err := files.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var joined []byte
		for i, p := range parts {
			b, err := files.ReadFile(p.Path)
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

// FuzzChangeReader reads any bytes as a resource change from its span:
// the result is a change or an error located in the file, never a panic,
// and a change is exactly what the pass over a plan decodes from the same
// bytes, its values read raw and decoded after.
func FuzzChangeReader(f *testing.F) {
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
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(dir, "plan.json")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		file, err := OpenFile(path)
		if err != nil {
			return // not text a pass would have read
		}
		defer file.Close()
		text, err := io.ReadAll(io.NewSectionReader(file, 0, 1<<30)) // UTF-16 comes as UTF-8
		if err != nil {
			t.Fatal(err)
		}
		data = text
		var got ResourceChange
		rerr := NewChangeReader(path, file).Read(Span{Start: 0, End: int64(len(data))}, &got)
		if rerr != nil {
			if ie, ok := rerr.(*InputError); !ok || ie.File != path || (len(data) > 0 && ie.Line == 0) {
				t.Fatalf("error %T %v names no place in the file", rerr, rerr)
			}
			return
		}
		// A span may begin with the comma before its change.
		change := bytes.TrimLeft(data, " \t\r\n")
		if len(change) > 0 && change[0] == ',' {
			change = change[1:]
		}
		dec := jsontext.NewDecoder(bytes.NewReader(change), jsontext.AllowDuplicateNames(true))
		r := &reader{path: path, dec: dec, opts: ReadOptions{Lazy: true}}
		var want ResourceChange
		if err := r.resourceChange(&want); err != nil {
			t.Fatalf("the change reader read %q, the pass refuses it: %v", data, err)
		}
		if err := want.Change.Decode(); err != nil {
			t.Fatalf("the change reader read %q, its values do not decode: %v", data, err)
		}
		want.Change.raw, want.Change.decoded, want.Span = nil, false, got.Span
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("the change reader decoded\n%#v\nthe pass\n%#v", got, want)
		}
	})
}
