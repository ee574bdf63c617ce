package mask

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestMatchLongIsLongestPattern holds the index of long patterns' lengths
// (a bit per length under 64, a list for longer ones) to the longest
// pattern at each place of a text, found the slow way.
func TestMatchLongIsLongestPattern(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	m := NewMasker()
	var pieces []string
	for range 400 {
		// Patterns sharing their first bytes, of lengths both sides of 64.
		p := strings.Repeat("ab", 4) + strings.Repeat("x", r.IntN(120))
		if r.IntN(2) == 0 {
			p = "-----BEGIN " + p[:r.IntN(len(p))]
		}
		m.add(p)
		pieces = append(pieces, p)
	}
	for range 200 {
		var text strings.Builder
		for range 5 {
			p := pieces[r.IntN(len(pieces))]
			text.WriteString(p[:min(len(p), r.IntN(40)+indexLen)])
			text.WriteString(strings.Repeat("x", r.IntN(70)))
		}
		s := text.String()
		m.sortLong()
		for i := 0; i+indexLen <= len(s); i++ {
			want := 0
			for p := range m.long {
				if len(p) > want && strings.HasPrefix(s[i:], p) {
					want = len(p)
				}
			}
			if got := m.matchLong(s[i:]); got != want {
				t.Fatalf("at %d of %q: matched %d bytes, the longest pattern there has %d", i, s, got, want)
			}
		}
	}
}
