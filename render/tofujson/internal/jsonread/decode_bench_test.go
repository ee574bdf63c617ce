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
