package githubtest

import (
	"archive/zip"
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"
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

// Deliver posts a webhook delivery to url as GitHub does (signature empty:
// none), reads the answer whole, and says how long it took.
func Deliver(url, event, delivery string, body []byte, signature string) (*http.Response, time.Duration, error) {
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return nil, 0, err
	}
	req.Header.Set("X-GitHub-Event", event)
	req.Header.Set("X-GitHub-Delivery", delivery)
	req.Header.Set("Content-Type", "application/json")
	if signature != "" {
		req.Header.Set("X-Hub-Signature-256", signature)
	}
	start := time.Now()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, 0, err
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp, time.Since(start), nil
}

// LogBuffer is a buffer many goroutines may write logs to.
type LogBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *LogBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// String is what was written.
func (l *LogBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// RepeatedKeys lists the log lines (JSON, one per line) in which a key
// appears twice at the top level: a reader of such a line sees only one of
// its values.
func (l *LogBuffer) RepeatedKeys() []string {
	var bad []string
	for line := range strings.SplitSeq(l.String(), "\n") {
		dec := json.NewDecoder(strings.NewReader(line))
		if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
			continue
		}
		seen := map[string]bool{}
		for dec.More() {
			key, err := dec.Token()
			if err != nil {
				break
			}
			k, _ := key.(string)
			if seen[k] {
				bad = append(bad, fmt.Sprintf("%q twice in %s", k, line))
				break
			}
			seen[k] = true
			var skip json.RawMessage
			if dec.Decode(&skip) != nil {
				break
			}
		}
	}
	return bad
}
