package mask

import (
	"fmt"
	"strings"
	"testing"
)

// BenchmarkAddSharedPrefix adds 20,000 secrets that begin alike, as
// private keys in PEM do: each add must not look through all the others.
func BenchmarkAddSharedPrefix(b *testing.B) {
	secrets := make([]string, 20000)
	for i := range secrets {
		secrets[i] = fmt.Sprintf("-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA%08d\n-----END RSA PRIVATE KEY-----", i)
	}
	for b.Loop() {
		m := NewMasker()
		for _, s := range secrets {
			m.Add(s)
		}
	}
}

// BenchmarkMaskSharedPrefix masks a text of 1,000 certificates (public,
// not secret) with 20,000 private keys known: each "-----BEGIN" in the
// text must not be compared with every key.
func BenchmarkMaskSharedPrefix(b *testing.B) {
	m := NewMasker()
	for i := range 20000 {
		m.Add(fmt.Sprintf("-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA%08d\n-----END RSA PRIVATE KEY-----", i))
	}
	var text strings.Builder
	for i := range 1000 {
		fmt.Fprintf(&text, "  + certificate_pem = <<-EOT\n        -----BEGIN CERTIFICATE-----\n        MIIC%08d\n        -----END CERTIFICATE-----\n    EOT\n", i)
	}
	b.SetBytes(int64(text.Len()))
	for b.Loop() {
		m.Mask(text.String())
	}
}
