package diff

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/planpr/planpr/render/tofujson"
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
		tofujson.Object{}, tofujson.Object(nil), tofujson.Object{{Name: "a"}}, tofujson.Object{{Name: "b"}},
		tofujson.Object{{Name: "a"}, {Name: "b", Value: true}},
		tofujson.Object{{Name: "a", Value: []any{"x", json.Number("2")}}}, tofujson.Object{{Name: "a", Value: []any{"x", json.Number("3")}}},
		[]any{}, []any(nil), []any{nil}, []any{tofujson.Object{{Name: "k", Value: true}}}, []any{tofujson.Object{{Name: "k", Value: false}}},
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
