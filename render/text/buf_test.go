package text

import (
	"fmt"
	"strings"
	"testing"
)

func TestTextBuf(t *testing.T) {
	var b Buf
	var want strings.Builder
	for i := range 1000 { // across many growths, with and without room
		s := strings.Repeat("x", i%7)
		b.WriteString(s)
		b.WriteByte(byte('a' + i%26))
		fmt.Fprintf(&b, "%d", i)
		fmt.Fprintf(&want, "%s%c%d", s, 'a'+i%26, i)
		if i == 500 {
			b.Grow(1 << 16)
			if b.Cap()-b.Len() < 1<<16 {
				t.Fatalf("Grow left room for %d bytes", b.Cap()-b.Len())
			}
		}
	}
	if b.String() != want.String() {
		t.Fatal("Buf lost or reordered what was written")
	}
	n := b.Len()
	b.WriteString("tail")
	b.Truncate(n)
	if b.String() != want.String() {
		t.Error("Truncate did not cut back to the length")
	}
	b.Reset()
	if b.Len() != 0 || b.Cap() == 0 {
		t.Errorf("Reset: len %d cap %d, want 0 and the memory kept", b.Len(), b.Cap())
	}
}
