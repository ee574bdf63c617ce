package mask

import (
	"fmt"
	"strconv"
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

// TestMaskerLongestOfSecretsThatBeginAlike: of secrets sharing their
// first bytes, the longest that the text holds is masked, and text that
// only begins like them is left alone.
func TestMaskerLongestOfSecretsThatBeginAlike(t *testing.T) {
	m := NewMasker()
	for _, s := range []string{"-----BEGIN KEY a-----", "-----BEGIN KEY a-----tail", "-----BEGIN KEY bb-----", "-----BEGIN KEY a-"} {
		m.Add(s)
	}
	got := m.Mask("1 -----BEGIN KEY a-----tail 2 -----BEGIN KEY a----- 3 -----BEGIN KEY a- 4 -----BEGIN KEY bb----- 5 -----BEGIN CERT-----")
	want := "1 (sensitive value) 2 (sensitive value) 3 (sensitive value) 4 (sensitive value) 5 -----BEGIN CERT-----"
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// TestQuoteWithoutEscapes: a secret with nothing to escape is quoted by
// hand, as strconv.Quote quotes it.
func TestQuoteWithoutEscapes(t *testing.T) {
	for b := range 256 {
		if s := string([]byte{'a', byte(b), 'z'}); !needsEscape(s) && strconv.Quote(s) != `"`+s+`"` {
			t.Errorf("byte %#x: strconv.Quote gives %s", b, strconv.Quote(s))
		}
	}
}
