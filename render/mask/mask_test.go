package mask

import (
	"fmt"
	"strings"
	"testing"
)

func TestMaskerLongestFirstAndQuotedShortSecrets(t *testing.T) {
	m := NewMasker()
	m.Add("abc")            // short: only as a quoted value
	m.Add("secret")         // long: anywhere
	m.Add("secret-longer!") // a secret containing another is masked whole
	got := m.Mask(`x = "abc"; fabcd; y = secret-longer! and secretive; z = "secret"`)
	want := `x = (sensitive value); fabcd; y = (sensitive value) and (sensitive value)ive; z = (sensitive value)`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if m.Count != 4 {
		t.Errorf("count %d", m.Count)
	}
}

// TestMaskerScalesWithSecrets: 200,000 secrets cost a lookup per distinct
// length, not a scan each.
func TestMaskerScalesWithSecrets(t *testing.T) {
	m := NewMasker()
	for i := 0; i < 200000; i++ {
		m.Add(fmt.Sprintf("pw-%d-x", i))
	}
	text := strings.Repeat("nothing to hide here ", 3000) + "pw-123456-x"
	if got := m.Mask(text); !strings.HasSuffix(got, Masked) || m.Count != 1 {
		t.Errorf("count %d", m.Count)
	}
}
