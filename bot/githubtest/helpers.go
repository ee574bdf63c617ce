package githubtest

import (
	"archive/zip"
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"maps"
	"slices"
	"strings"
)

// CountRequests counts the requests served whose "METHOD path" starts
// with prefix.
func (s *Server) CountRequests(prefix string) int {
	n := 0
	for _, l := range s.Log() {
		if strings.HasPrefix(l, prefix) {
			n++
		}
	}
	return n
}

// Sign is a delivery's X-Hub-Signature-256 for a webhook secret, as
// GitHub computes it.
func Sign(secret string, body []byte) string {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write(body)
	return "sha256=" + hex.EncodeToString(m.Sum(nil))
}

// Zip is an artifact's zip holding files (name → content), in name order.
func Zip(files map[string]string) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, n := range slices.Sorted(maps.Keys(files)) {
		w, err := zw.Create(n)
		if err != nil {
			panic(err) // only for names zip cannot hold
		}
		w.Write([]byte(files[n]))
	}
	zw.Close()
	return buf.Bytes()
}
