package mask

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestCredentialShapes: shapes the masker missed.
func TestCredentialShapes(t *testing.T) {
	m := NewMasker()
	for name, tc := range map[string]struct{ in, leak string }{
		"aws secret by name":    {`aws_secret_access_key = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"`, "wJalrXUtnFEMI"},
		"aws secret alone":      {`value: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"`, "wJalrXUtnFEMI"},
		"password in a url":     {`url = "postgres://admin:hunter2pass@db.internal:5432/app"`, "hunter2pass"},
		"pgp private key":       {"-----BEGIN PGP PRIVATE KEY BLOCK-----\n\nlQOYBF0000000000000000000\n-----END PGP PRIVATE KEY BLOCK-----", "lQOYBF0"},
		"token then underscore": {"x_ghp_" + strings.Repeat("a", 36) + "_y", "ghp_aaaa"},
	} {
		if got := m.Mask(tc.in); strings.Contains(got, tc.leak) {
			t.Errorf("%s: %q", name, got)
		}
	}
	for _, keep := range []string{"3484a3fb816e0859fd6e1cea078d76385ff50625", "https://example.com/a:b@c", "registry.opentofu.org/hashicorp/aws"} {
		if got := m.Mask(keep); got != keep {
			t.Errorf("%q masked as %q", keep, got)
		}
	}
}

// TestManySecretsOfDistinctLengths: 3,000 secrets of distinct lengths
// took 51.7 s in the job-summary render, since each position of the text
// tried every length. A position now costs a lookup per short length and
// one for every long secret: the time no longer grows with their number.
func TestManySecretsOfDistinctLengths(t *testing.T) {
	text := strings.Repeat("the secretary sent a secret-ary note, seen = 1234\n", 20000) // 1 MB
	timeWith := func(n int) time.Duration {
		m := NewMasker()
		for i := range n {
			m.Add(fmt.Sprintf("secret-%s", strings.Repeat("x", i)))
		}
		start := time.Now()
		m.Mask(text)
		return time.Since(start)
	}
	timeWith(10) // warm up
	few, many := timeWith(10), timeWith(3000)
	t.Logf("masking 1 MB: %v with 10 secrets, %v with 3,000 of distinct lengths", few, many)
	// Trying every length made the 3,000 secrets some 300 times slower.
	if many > 10*few+50*time.Millisecond {
		t.Errorf("masking 1 MB took %v with 10 secrets and %v with 3,000 of distinct lengths", few, many)
	}
}

// TestMaskingIsIdempotent: a secret inside "(sensitive value)" does not
// mask the mask.
func TestMaskingIsIdempotent(t *testing.T) {
	m := NewMasker()
	m.Add("sensitive")
	once := m.Mask("a sensitive word")
	if twice := m.Mask(once); twice != once || once != "a (sensitive value) word" {
		t.Errorf("once %q, twice %q", once, twice)
	}
}

// TestURLPasswordShapes: a password after an empty user, and one
// holding a slash, are hidden; a port and path before an @ are not.
func TestURLPasswordShapes(t *testing.T) {
	m := NewMasker()
	for _, tc := range []struct{ in, leak string }{
		{`redis://:s3cretpw@cache.internal:6379/0`, "s3cretpw"},
		{`postgres://app:pa/ss/word@db.internal/app`, "pa/ss/word"},
		{`amqp://:a/b@mq`, "a/b"},
		{`https://user:12345678@host`, "12345678"},
	} {
		if got := m.Mask(tc.in); strings.Contains(got, tc.leak) {
			t.Errorf("%q masked as %q", tc.in, got)
		}
	}
	for _, keep := range []string{"https://example.com:8443/releases@latest", "docker://registry:5000/image@sha256", "https://example.com/a:b@c"} {
		if got := m.Mask(keep); got != keep {
			t.Errorf("%q masked as %q", keep, got)
		}
	}
}
