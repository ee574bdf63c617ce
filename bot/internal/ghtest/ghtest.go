// Package ghtest is what bot's packages' tests share: a fake GitHub with
// a client for it, and ways to look at the comments planpr left there.
package ghtest

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/planpr/planpr/bot/gh"
	"github.com/planpr/planpr/bot/githubtest"
	"github.com/planpr/planpr/render/report"
)

// NewFake starts a fake GitHub and a client for it whose retries do not
// really sleep; slept counts the waits.
func NewFake(t *testing.T, token string) (*githubtest.Server, *gh.Client, *atomic.Int64) {
	t.Helper()
	fake := githubtest.New()
	t.Cleanup(fake.Close)
	var slept atomic.Int64
	rt := &gh.RetryTransport{Sleep: func(d time.Duration) { slept.Add(int64(d / time.Second)) }}
	c, err := gh.NewClient(&http.Client{Transport: rt}, fake.APIURL(), fake.URL+"/graphql", token)
	if err != nil {
		t.Fatal(err)
	}
	return fake, c, &slept
}

// BodyFor is a comment body with its marker.
func BodyFor(m report.Marker, text string) string { return m.String() + "\n" + text }

// CountKey counts the comments of a pull request that carry key's
// marker, and returns the last.
func CountKey(fake *githubtest.Server, pr int, key string) (n int, last githubtest.Comment) {
	for _, c := range fake.Comments(pr) {
		if m, ok := report.ParseMarker(c.Body); ok && m.Key == key {
			n++
			last = c
		}
	}
	return
}

// MustContain fails the test unless s holds sub.
func MustContain(t *testing.T, s, sub string) {
	t.Helper()
	if !strings.Contains(s, sub) {
		t.Errorf("%q does not contain %q", s, sub)
	}
}

// WriteFiles writes files under dir, making their directories.
func WriteFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
