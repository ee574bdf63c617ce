package md

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestLastResortCutKeepsCharactersWhole: the byte cut emitted invalid
// UTF-8 for some budgets.
func TestLastResortCutKeepsCharactersWhole(t *testing.T) {
	text := strings.Repeat("ünïcödé ✅ line\n", 50)
	for limit := range 300 {
		got := Cut(text, limit)
		if len(got) > limit || !utf8.ValidString(got) {
			t.Fatalf("limit %d: %d bytes, valid %v: %q", limit, len(got), utf8.ValidString(got), got)
		}
	}
}

// TestCutRunesCountsCharacters: GitHub counts a comment's characters, not
// its bytes; the cut never splits one.
func TestCutRunesCountsCharacters(t *testing.T) {
	text := strings.Repeat("ü✅ line\n", 5000) // 8 characters, 11 bytes a line
	for _, limit := range []int{10, 17, 18, 100, 39999, 40000} {
		got := CutRunes(text, limit)
		if n := utf8.RuneCountInString(got); n > limit || !utf8.ValidString(got) {
			t.Errorf("limit %d: %d characters", limit, n)
		}
	}
}
