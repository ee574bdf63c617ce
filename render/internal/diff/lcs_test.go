package diff

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"runtime"
	"slices"
	"testing"

	"github.com/planpr/planpr/render/tofujson"
	"github.com/zclconf/go-cty/cty"
)

// lettered is a list element compared by its letter that keeps its place,
// so that a result picking another of two equal elements is caught.
type lettered struct {
	letter rune
	at     int
}

func sameLetter(a, b lettered) bool { return a.letter == b.letter }

// letteredWords makes random lists of fewer than longest elements over the first
// letters of the alphabet: few letters make ties common.
func letteredWords(r *rand.Rand, longest, letters int) func() []lettered {
	return func() []lettered {
		s := make([]lettered, r.IntN(longest))
		for i := range s {
			s[i] = lettered{rune('a' + r.IntN(letters)), i}
		}
		return s
	}
}

// The shortcuts for a common suffix and a common prefix must choose what
// the full table chooses, ties included (small alphabets make ties
// common): the same elements of the suffix and the middle, and elements
// equal to the prefix's where the table pairs the prefix otherwise —
// walkSlice compares the result's elements only with eq.
func TestLCSShortcutsMatchTable(t *testing.T) {
	word := letteredWords(rand.New(rand.NewPCG(1, 2)), 9, 3)
	letters := func(s []lettered) string {
		var b []rune
		for _, e := range s {
			b = append(b, e.letter)
		}
		return string(b)
	}
	for range 20000 {
		xs, ys := word(), word()
		got, _ := lcs(xs, ys, sameLetter)
		want := lcsTable(xs, ys, sameLetter, 0)
		p := 0
		for p < len(xs) && p < len(ys) && sameLetter(xs[p], ys[p]) {
			p++
		}
		p = min(p, len(got), len(want))
		if letters(got) != letters(want) || !slices.Equal(got[p:], want[p:]) {
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

// Myers' algorithm finds a common subsequence as long as the table's.
func TestMyersFindsALongestCommonSubsequence(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	eq := func(a, b byte) bool { return a == b }
	word := func() []byte {
		s := make([]byte, r.IntN(40))
		for i := range s {
			s[i] = byte('a' + r.IntN(4))
		}
		return s
	}
	isSubsequence := func(sub, of []byte) bool {
		i := 0
		for _, c := range of {
			if i < len(sub) && sub[i] == c {
				i++
			}
		}
		return i == len(sub)
	}
	for range 20000 {
		xs, ys := word(), word()
		got, ok := myers(xs, ys, eq, len(xs)+len(ys))
		want := lcsTable(xs, ys, eq, 0)
		if !ok || len(got) != len(want) || !isSubsequence(got, xs) || !isSubsequence(got, ys) {
			t.Fatalf("myers(%q, %q) = %q, %v; want a common subsequence of length %d", xs, ys, got, ok, len(want))
		}
	}
	if _, ok := myers([]byte("abcdef"), []byte("uvwxyz"), eq, 5); ok {
		t.Error("myers aligned 12 edits within 5")
	}
}

func bigList(n int, f func(i int) string) []any {
	out := make([]any, n)
	for i := range out {
		out[i] = f(i)
	}
	return out
}

// TestListDiffLinearSpace: a 20,000-element list with its last element
// changed took 3.1 GB for the n×m table; the aligner now needs memory for
// the differences only.
func TestListDiffLinearSpace(t *testing.T) {
	before := bigList(20000, func(i int) string { return fmt.Sprint("e", i) })
	after := slices.Clone(before)
	after[len(after)-1] = "changed"
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	start := m.TotalAlloc
	common, aligned := lcs(before, after, equalJSON)
	runtime.ReadMemStats(&m)
	if !aligned || len(common) != 19999 {
		t.Fatalf("aligned %v, %d common", aligned, len(common))
	}
	if used := m.TotalAlloc - start; used > 64<<20 {
		t.Fatalf("aligning used %d MB", used>>20)
	}
}

// TestListDiffFallsBack: 200,000 elements that all differ are too many
// to align: shown as removed and added, and said so, in bounded memory.
func TestListDiffFallsBack(t *testing.T) {
	before := bigList(200000, func(i int) string { return fmt.Sprint("b", i) })
	after := bigList(200000, func(i int) string { return fmt.Sprint("a", i) })
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	start := m.TotalAlloc
	n := ForTyped(&tofujson.Change{Before: before, After: after}, cty.List(cty.String))
	runtime.ReadMemStats(&m)
	if !n.Unaligned {
		t.Fatal("the list is not marked as unaligned")
	}
	if used := m.TotalAlloc - start; used > 512<<20 {
		t.Fatalf("diffing used %d MB", used>>20)
	}
	if len(n.Elements) != 400000 {
		t.Fatalf("%d elements, want every one removed and added", len(n.Elements))
	}
}

// lcsPlain is the table lcsTable fills, written plainly: its lengths and
// its equal pairs apart.
func lcsPlain[T any](xs, ys []T, eq func(a, b T) bool) []T {
	if len(xs) == 0 || len(ys) == 0 {
		return []T{}
	}
	n, m := len(xs), len(ys)
	c := make([][]int, m+1)
	for y := range c {
		c[y] = make([]int, n+1)
	}
	for y := 1; y <= m; y++ {
		for x := 1; x <= n; x++ {
			switch {
			case eq(xs[x-1], ys[y-1]):
				c[y][x] = c[y-1][x-1] + 1
			default:
				c[y][x] = max(c[y][x-1], c[y-1][x])
			}
		}
	}
	var out []T
	for x, y := n, m; x > 0 && y > 0; {
		switch {
		case eq(xs[x-1], ys[y-1]):
			out = append(out, xs[x-1])
			x, y = x-1, y-1
		case c[y][x-1] > c[y-1][x]:
			x--
		default:
			y--
		}
	}
	slices.Reverse(out)
	return out
}

// The table, its lengths and equal pairs in one cell, chooses what the
// plain table chooses, ties included, whichever tables came before it.
func TestLCSTableIsThePlainTable(t *testing.T) {
	word := letteredWords(rand.New(rand.NewPCG(5, 6)), 30, 4)
	for range 20000 {
		xs, ys := word(), word()
		if got, want := lcsTable(xs, ys, sameLetter, 0), lcsPlain(xs, ys, sameLetter); !slices.Equal(got, want) {
			t.Fatalf("lcsTable(%v, %v) = %v, the plain table gives %v", xs, ys, got, want)
		}
	}
}
