package main

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestHealthNeverPrintsTheURLsPassword: a URL with credentials is said
// without its password, whether serve answers 200, another status, or
// nothing at all.
func TestHealthNeverPrintsTheURLsPassword(t *testing.T) {
	t.Parallel()
	const password = "hunter2-secret"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/healthz" {
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	host := strings.TrimPrefix(srv.URL, "http://")
	closed := httptest.NewServer(http.NotFoundHandler())
	closedHost := strings.TrimPrefix(closed.URL, "http://")
	closed.Close()
	cases := map[string]struct {
		url  string
		code int
		want string
	}{
		"healthy":      {"http://user:" + password + "@" + host + "/", 0, "healthy: http://user:xxxxx@" + host + "/healthz"},
		"not found":    {"http://user:" + password + "@" + host + "/nothing", 1, "answered 404"},
		"nobody there": {"http://user:" + password + "@" + closedHost + "/healthz", 1, "connection refused"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if code := run([]string{"health", c.url}, strings.NewReader(""), &stdout, &stderr); code != c.code {
				t.Fatalf("exit %d, want %d; stderr %s", code, c.code, stderr.String())
			}
			out := stdout.String() + stderr.String()
			if strings.Contains(out, password) {
				t.Errorf("the password is printed:\n%s", out)
			}
			if !strings.Contains(out, c.want) {
				t.Errorf("output lacks %q:\n%s", c.want, out)
			}
		})
	}
}
