package mask

import (
	"fmt"
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
