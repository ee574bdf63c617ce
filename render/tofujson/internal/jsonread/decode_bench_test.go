package jsonread

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

func benchStrings() []string {
	var lines []string
	for k := 0; k < 40; k++ {
		lines = append(lines, fmt.Sprintf("echo 'step %d of instance %d' && systemctl restart app-%d", k, 7, k))
	}
	policy := `{"Statement":[{"Action":["s3:GetObject","s3:ListBucket"],"Effect":"Allow","Resource":"arn:aws:s3:::bucket-7/*"},{"Action":"s3:DeleteObject","Effect":"Deny","Resource":"*"}],"Version":"2012-10-17"}`
	var out []string
	for _, s := range []string{strings.Join(lines, "\n") + "\n", policy} {
		q, _ := json.Marshal(s)
		out = append(out, string(q))
	}
	return out
}

func BenchmarkUnescapeHeredoc(b *testing.B) { benchUnescape(b, benchStrings()[0]) }
func BenchmarkUnescapeJSON(b *testing.B)    { benchUnescape(b, benchStrings()[1]) }

func benchUnescape(b *testing.B, q string) {
	var t Decoder
	b.SetBytes(int64(len(q)))
	for b.Loop() {
		t.Reset(q)
		if _, err := t.str(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecodeStringPolicy(b *testing.B) {
	s := `{"Statement":[{"Action":["s3:GetObject","s3:ListBucket"],"Effect":"Allow","Resource":"arn:aws:s3:::bucket-7/*"},{"Action":"s3:DeleteObject","Effect":"Deny","Resource":"*"}],"Version":"2012-10-17"}`
	b.SetBytes(int64(len(s)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := DecodeString(s); err != nil {
			b.Fatal(err)
		}
	}
}

// TestIsOneValue: one value with space around it or not, and nothing else.
func TestIsOneValue(t *testing.T) {
	for text, want := range map[string]bool{
		`{"a":1}`: true, ` [1, 2] `: true, `"x"`: true, `1`: true, "\n{}\t": true, `{"a":1,"a":2}`: true,
		``: false, ` `: false, `{} {}`: false, `1 2`: false, `{"a":1}x`: false, `{"a":}`: false, `[1,]`: false, `{`: false,
	} {
		if got := isOneValue([]byte(text)); got != want {
			t.Errorf("isOneValue(%q) = %v, want %v", text, got, want)
		}
	}
}
