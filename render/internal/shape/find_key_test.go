package shape

import (
	"bytes"
	"strings"
	"testing"
)

// TestIndexKeyIsIndex: whatever the key's rarest byte and wherever the
// key falls, indexKey finds what bytes.Index finds.
func TestIndexKeyIsIndex(t *testing.T) {
	text := `{"name":"web-eu-west-2","k":"k2-eu-2","s":"eeeeu-2 eu-2eu-2"}`
	for _, k := range []string{"eu-2", "k2", "eu-west-2", "e", "zz", "2\"}", `{"`, "eeu", "", text, text + "x"} {
		for from := range len(text) + 1 {
			s := []byte(text[from:])
			if got, want := indexKey(s, k), bytes.Index(s, []byte(k)); got != want {
				t.Errorf("%q in %q: %d, want %d", k, s, got, want)
			}
		}
	}
}

// FuzzIndexKey: indexKey is bytes.Index on any input.
func FuzzIndexKey(f *testing.F) {
	f.Add(`{"name":"web-eu-2"}`, "eu-2")
	f.Add(strings.Repeat("ab", 40)+"abc", "abc")
	f.Fuzz(func(t *testing.T, s, k string) {
		if got, want := indexKey([]byte(s), k), strings.Index(s, k); got != want {
			t.Errorf("%q in %q: %d, want %d", k, s, got, want)
		}
	})
}
