package jsonread

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
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
