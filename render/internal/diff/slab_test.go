package diff

import (
	"slices"
	"strings"
	"testing"
)

// TestSlabSlicesStayApart: slices handed out by a slab never share an
// element, appending past one's room leaves its neighbour alone, and a
// reset hands out cleared memory again.
func TestSlabSlicesStayApart(t *testing.T) {
	var s slab[string]
	for round := range 3 {
		var got [][]string
		for i := range 400 {
			n := i % 300 // some over a quarter chunk: allocated apart
			out := s.take(n)
			if len(out) != 0 || cap(out) != n {
				t.Fatalf("take(%d) gave len %d cap %d", n, len(out), cap(out))
			}
			for j, x := range out[:n] {
				if x != "" {
					t.Fatalf("round %d: take(%d) handed out %q at %d, not cleared memory", round, n, x, j)
				}
			}
			for range n {
				out = append(out, strings.Repeat("x", i%7+1))
			}
			got = append(got, out)
		}
		before := slices.Clone(got[6])
		if grown := append(got[5], "past its room"); &grown[0] == &got[5][0] {
			t.Fatal("a full slice grew in place")
		}
		if !slices.Equal(got[6], before) {
			t.Fatal("appending past a slice's room wrote into the next")
		}
		for i, out := range got {
			for _, x := range out {
				if x != strings.Repeat("x", i%7+1) {
					t.Fatalf("round %d: slice %d holds %q: slices overlap", round, i, x)
				}
			}
		}
		s.reset()
	}
}

// TestArenaLinesMatchStringsSplit: the lines an Arena splits are those of
// strings.Split, with and without an Arena.
func TestArenaLinesMatchStringsSplit(t *testing.T) {
	var a Arena
	for _, text := range []string{"", "one", "a\nb", "\n", "a\n\nb\n", strings.Repeat("line\n", 600)} {
		want := strings.Split(text, "\n")
		if got := a.splitLines(text); !slices.Equal(got, want) {
			t.Errorf("Arena split %q into %q", text, got)
		}
		if got := (*Arena)(nil).splitLines(text); !slices.Equal(got, want) {
			t.Errorf("nil Arena split %q into %q", text, got)
		}
		a.Reset()
	}
}
