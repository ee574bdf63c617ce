package jsonread

import (
	"bytes"
	"testing"
	"unsafe"

	"github.com/go-json-experiment/json/jsontext"
)

// A value read from memory the decoder parses in place is that memory:
// the whole point of borrowing is not to copy it.
func TestRawValueInBorrows(t *testing.T) {
	mem := []byte(`{"before":{"a":"x\n"},"after":[1,2]}`)
	dec := jsontext.NewDecoder(bytes.NewBuffer(mem))
	if _, err := dec.ReadToken(); err != nil {
		t.Fatal(err)
	}
	var got []string
	for dec.PeekKind() != '}' {
		if _, err := dec.ReadToken(); err != nil {
			t.Fatal(err)
		}
		v, _, err := RawValueIn(dec, mem, nil)
		if err != nil {
			t.Fatal(err)
		}
		if at := uintptr(unsafe.Pointer(&v[0])) - uintptr(unsafe.Pointer(&mem[0])); at >= uintptr(len(mem)) {
			t.Errorf("%s was copied", v)
		}
		got = append(got, string(v))
	}
	if want := `{"a":"x\n"} [1,2]`; got[0]+" "+got[1] != want {
		t.Errorf("read %q, want %s", got, want)
	}
}
