package diff

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

// The common-suffix shortcut must choose exactly the subsequence the full
// table chooses, ties included: small alphabets make ties common.
func TestLCSSuffixShortcutMatchesTable(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	// Elements compare by letter but keep their position, so a result that
	// picks a different one of two equal elements is caught.
	type elem struct {
		letter rune
		at     int
	}
	eq := func(a, b elem) bool { return a.letter == b.letter }
	word := func() []elem {
		s := make([]elem, r.IntN(9))
		for i := range s {
			s[i] = elem{rune('a' + r.IntN(3)), i}
		}
		return s
	}
	for range 20000 {
		xs, ys := word(), word()
		got, want := lcs(xs, ys, eq), lcsTable(xs, ys, eq)
		if !slices.Equal(got, want) {
			t.Fatalf("lcs(%v, %v) = %v, the full table gives %v", xs, ys, got, want)
		}
	}
}

func TestEqualJSONIsDeepEqual(t *testing.T) {
	values := []any{
		nil, true, false, "a", "", json.Number("1"), json.Number("1.0"),
		map[string]any{}, map[string]any(nil), map[string]any{"a": nil}, map[string]any{"b": nil},
		map[string]any{"a": []any{"x", json.Number("2")}}, map[string]any{"a": []any{"x", json.Number("3")}},
		[]any{}, []any(nil), []any{nil}, []any{map[string]any{"k": true}}, []any{map[string]any{"k": false}},
		3.5,
	}
	for _, a := range values {
		for _, b := range values {
			if got, want := equalJSON(a, b), reflect.DeepEqual(a, b); got != want {
				t.Errorf("equalJSON(%#v, %#v) = %v, DeepEqual says %v", a, b, got, want)
			}
		}
	}
}
