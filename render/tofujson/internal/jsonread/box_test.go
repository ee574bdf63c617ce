package jsonread

import (
	"encoding/json"
	"fmt"
	"reflect"
	"runtime"
	"testing"
	"unsafe"
)

// Values boxed into chunks must behave exactly like values the runtime
// boxes: in type switches, comparisons, maps, reflection and printing.
func TestBoxesBehaveLikeInterfaces(t *testing.T) {
	var b boxes
	o := Object{{"k", "v"}}
	a := []any{"x", json.Number("1")}
	for _, c := range []struct{ boxed, plain any }{
		{b.string("hello"), "hello"},
		{b.string(""), ""},
		{b.number("-1.5e3"), json.Number("-1.5e3")},
		{b.object(o), o},
		{b.array(a), a},
	} {
		if reflect.TypeOf(c.boxed) != reflect.TypeOf(c.plain) || !reflect.DeepEqual(c.boxed, c.plain) {
			t.Errorf("%#v boxed is %#v", c.plain, c.boxed)
		}
		if fmt.Sprint(c.boxed) != fmt.Sprint(c.plain) {
			t.Errorf("%v prints as %v", c.plain, c.boxed)
		}
		if reflect.TypeOf(c.plain).Comparable() {
			if c.boxed != c.plain {
				t.Errorf("%#v boxed is not == to itself", c.plain)
			}
			if m := map[any]bool{c.plain: true}; !m[c.boxed] {
				t.Errorf("%#v boxed is a different map key", c.plain)
			}
		}
	}
	if s, ok := b.string("abc").(string); !ok || s != "abc" {
		t.Errorf("type switch on a boxed string gave %q, %v", s, ok)
	}
}

// Without reuse, every value stays as it was for as long as it is held,
// however many more are boxed and however often the collector runs.
func TestBoxesKeepTheirValues(t *testing.T) {
	var b boxes
	var kept []any
	for i := range 10 * boxChunk {
		kept = append(kept, b.string(fmt.Sprint("s", i)), b.number(json.Number(fmt.Sprint(i))))
		if i%boxChunk == 0 {
			runtime.GC()
		}
	}
	runtime.GC()
	for i := range 10 * boxChunk {
		if kept[2*i] != fmt.Sprint("s", i) || kept[2*i+1] != json.Number(fmt.Sprint(i)) {
			t.Fatalf("value %d became %v, %v", i, kept[2*i], kept[2*i+1])
		}
	}
}

// With reuse, reset hands the same chunks out again and clears them.
func TestBoxesReuse(t *testing.T) {
	var b boxes
	b.reuse()
	for i := range 3 * boxChunk {
		b.string(fmt.Sprint(i))
	}
	chunks := len(b.strings.chunks)
	first := &b.strings.chunks[0][:1][0]
	b.reset()
	if b.strings.chunks[0][:1][0] != "" {
		t.Error("reset left an old string in its chunk")
	}
	b.string("again")
	if p := &b.strings.chunks[0][0]; p != first || len(b.strings.chunks) != chunks {
		t.Error("reset did not reuse the first chunk")
	}
}

// TestBoxesStartOverForEachInput: a decoder that does not reuse its
// memory puts each input's values in chunks of their own, so that a value
// kept from one input (drift, kept to the end) does not keep alive the
// values of every input decoded after it. Sharing a chunk, the second
// string would sit in the slot after the first.
func TestBoxesStartOverForEachInput(t *testing.T) {
	for name, decode := range map[string]func(string) (any, error){
		"DecodeChecked": func(s string) (any, error) { return DecodeChecked([]byte(s)) },
		"DecodeString":  DecodeString,
	} {
		kept, err := decode(`["kept"]`)
		if err != nil {
			t.Fatal(err)
		}
		next, err := decode(`["next"]`)
		if err != nil {
			t.Fatal(err)
		}
		at := func(v any) uintptr { return uintptr((*eface)(unsafe.Pointer(&v.([]any)[0])).data) }
		if at(next) == at(kept)+unsafe.Sizeof("") {
			t.Errorf("%s: the second input's string shares the first one's chunk", name)
		}
	}
}
