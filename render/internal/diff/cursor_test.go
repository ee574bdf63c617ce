package diff

import (
	"math/rand/v2"
	"testing"

	"github.com/planpr/planpr/render/tofujson"
)

// A cursor must answer exactly as Object.Get does, whatever order the
// names come in: in order (the fast path), backwards, absent or repeated.
func TestCursorAgreesWithGet(t *testing.T) {
	names := []string{"", "a", "aa", "b", "id", "name", "tags", "z"}
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		var o tofujson.Object
		for _, n := range names {
			if r.IntN(2) == 0 {
				o = append(o, tofujson.Member{Name: n, Value: n + "!"})
			}
		}
		c := cursor{o: o}
		for range 12 {
			name := names[r.IntN(len(names))]
			if r.IntN(4) == 0 {
				name += "x" // between two members, or past the end
			}
			got, gotOK := c.get(name)
			want, wantOK := o.Get(name)
			if got != want || gotOK != wantOK {
				t.Fatalf("in %v, get(%q) = %v, %v; Get says %v, %v", o, name, got, gotOK, want, wantOK)
			}
		}
	}
}
