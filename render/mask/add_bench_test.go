package mask

import (
	"fmt"
	"testing"

	"github.com/planpr/planpr/render/tofujson"
)

// BenchmarkAddSecrets adds 14,000 distinct one-line secrets, as many as
// the generated 10k plan marks sensitive, and 750 of them again.
func BenchmarkAddSecrets(b *testing.B) {
	secrets := make([]string, 0, 14750)
	for i := range 14000 {
		secrets = append(secrets, fmt.Sprintf("pw-%06d-Zq8x", i))
	}
	secrets = append(secrets, secrets[:750]...)
	for b.Loop() {
		m := NewMasker()
		for _, s := range secrets {
			m.AddSecret(s, tofujson.SecretString)
		}
	}
}
