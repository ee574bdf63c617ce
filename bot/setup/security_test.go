package setup

import (
	"fmt"
	"html"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/planpr/planpr/bot/githubtest"
)

// setupBrowser opens /setup in a browser of its own and returns it with
// the state GitHub would send back.
func setupBrowser(t *testing.T, base string) (*http.Client, string) {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar}
	resp, err := c.Get(base + "/setup")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	page, _ := io.ReadAll(resp.Body)
	m := regexp.MustCompile(`\?state=([^"]+)"`).FindSubmatch(page)
	if resp.StatusCode != http.StatusOK || m == nil {
		t.Fatalf("GET /setup: %d\n%s", resp.StatusCode, page)
	}
	return c, html.UnescapeString(string(m[1]))
}

func newSetupServer(t *testing.T) (*Setup, *httptest.Server, *githubtest.Server, string) {
	gh := githubtest.New()
	t.Cleanup(gh.Close)
	dir := t.TempDir()
	s := New(Config{APIURL: gh.URL, ServerURL: "https://github.example", PublicURL: "https://planpr.example.com", DataDir: dir})
	srv := httptest.NewServer(s.Handler())
	t.Cleanup(srv.Close)
	return s, srv, gh, dir
}

// TestSetupBoundToBrowser: without PLANPR_SETUP_TOKEN, a state is good
// only in the browser that opened /setup: a stranger holding the state,
// or a state of their own with another browser's cookie, cannot finish it
// with their App's code.
func TestSetupBoundToBrowser(t *testing.T) {
	_, srv, gh, dir := newSetupServer(t)
	gh.AddManifestCode("attacker-code", githubtest.ManifestApp{ID: 666, Slug: "evil"})
	_, adminState := setupBrowser(t, srv.URL)
	attacker, attackerState := setupBrowser(t, srv.URL)
	for name, try := range map[string]func() (*http.Response, error){
		"the admin's state, no cookie": func() (*http.Response, error) {
			return http.Get(srv.URL + "/setup/callback?code=attacker-code&state=" + adminState)
		},
		"the admin's state, the attacker's cookie": func() (*http.Response, error) {
			return attacker.Get(srv.URL + "/setup/callback?code=attacker-code&state=" + adminState)
		},
		"the attacker's state, no cookie": func() (*http.Response, error) {
			return http.Get(srv.URL + "/setup/callback?code=attacker-code&state=" + attackerState)
		},
		"a forged signature": func() (*http.Response, error) {
			return attacker.Get(srv.URL + "/setup/callback?code=attacker-code&state=" + attackerState[:strings.LastIndex(attackerState, ".")] + ".00")
		},
	} {
		resp, err := try()
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusBadRequest {
			t.Errorf("%s: %d", name, resp.StatusCode)
		}
	}
	if _, ok, _ := LoadAppCredentials(dir); ok {
		t.Error("an App was adopted")
	}
}

// TestSetupFirstCompletedWins: two callbacks at once, each with a good
// state and code of its own: one App is kept and served, the other is
// refused, and app.json names the App that runs.
func TestSetupFirstCompletedWins(t *testing.T) {
	s, srv, gh, dir := newSetupServer(t)
	var browsers []*http.Client
	var states []string
	for i := range 2 {
		gh.AddManifestCode(fmt.Sprintf("code-%d", i), githubtest.ManifestApp{ID: int64(100 + i), Slug: fmt.Sprintf("app-%d", i)})
		b, st := setupBrowser(t, srv.URL)
		browsers, states = append(browsers, b), append(states, st)
	}
	codes := make([]int, 2)
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp, err := browsers[i].Get(fmt.Sprintf("%s/setup/callback?code=code-%d&state=%s", srv.URL, i, states[i]))
			if err != nil {
				t.Error(err)
				return
			}
			resp.Body.Close()
			codes[i] = resp.StatusCode
		}()
	}
	wg.Wait()
	ok := 0
	for _, c := range codes {
		if c == http.StatusOK {
			ok++
		}
	}
	if ok != 1 {
		t.Fatalf("callbacks answered %v: want exactly one 200", codes)
	}
	running := <-s.Done()
	kept, found, err := LoadAppCredentials(dir)
	if err != nil || !found || kept.ID != running.ID {
		t.Errorf("app.json holds %d, the process runs %d (%v)", kept.ID, running.ID, err)
	}
	// A later callback with the other App is refused too.
	if err := (AppCredentials{ID: 7, WebhookSecret: "x", PrivateKey: "y"}).SaveNew(dir); err != ErrAppExists {
		t.Errorf("SaveNew over an App: %v", err)
	}
}

// TestSetupRateLimited: one client opening /setup a thousand times is
// refused past its allowance, and the administrator's state, handed out
// before, still completes (nothing is stored per page to evict).
func TestSetupRateLimited(t *testing.T) {
	s, srv, gh, dir := newSetupServer(t)
	gh.AddManifestCode("admin-code", githubtest.ManifestApp{ID: 1, Slug: "admin"})
	admin, state := setupBrowser(t, srv.URL)
	limited := 0
	for range 1000 {
		resp, err := http.Get(srv.URL + "/setup")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode == http.StatusTooManyRequests {
			limited++
		}
	}
	if limited < 1000-setupPagesPerMinute {
		t.Errorf("%d of 1000 pages refused", limited)
	}
	resp, err := admin.Get(srv.URL + "/setup/callback?code=admin-code&state=" + state)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("the admin's callback: %d", resp.StatusCode)
	}
	<-s.Done()
	if kept, _, _ := LoadAppCredentials(dir); kept.ID != 1 {
		t.Errorf("kept %d", kept.ID)
	}
}

// TestSetupTokenIsNeverRateLimitedBehindAProxy: behind the documented
// proxy every request comes from its address; strangers' pages fill their
// own allowance (read from X-Forwarded-For, which the trusted proxy
// writes), never the administrator's, and a request with the setup token
// is never limited.
func TestSetupTokenIsNeverRateLimitedBehindAProxy(t *testing.T) {
	trusted, err := ParseTrustedProxies("127.0.0.0/8, ::1")
	if err != nil {
		t.Fatal(err)
	}
	s := New(Config{ServerURL: "https://github.example", PublicURL: "https://planpr.example.com", DataDir: t.TempDir(), Token: "let-me-in", TrustedProxies: trusted})
	srv := httptest.NewServer(s.Handler())
	t.Cleanup(srv.Close)
	get := func(query, forwardedFor string) int {
		req, _ := http.NewRequest(http.MethodGet, srv.URL+"/setup"+query, nil)
		if forwardedFor != "" {
			req.Header.Set("X-Forwarded-For", forwardedFor)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	for range 3 * setupPagesPerMinute { // a stranger, through the proxy, with or without a wrong token
		get("?token=guess", "203.0.113.9")
		get("", "203.0.113.9")
	}
	if got := get("", "203.0.113.9"); got != http.StatusTooManyRequests {
		t.Errorf("the stranger's page past the allowance: %d", got)
	}
	if got := get("?token=let-me-in", "203.0.113.9"); got != http.StatusOK {
		t.Errorf("the token from the stranger's address: %d, want 200", got)
	}
	if got := get("?token=let-me-in", ""); got != http.StatusOK {
		t.Errorf("the token from the proxy itself: %d, want 200", got)
	}
	if got := get("", "198.51.100.4"); got != http.StatusForbidden { // another client: its own allowance, asked for the token
		t.Errorf("another client behind the proxy: %d, want 403", got)
	}
	// A forwarded header a client writes itself, past the proxy's, does not
	// give it a fresh allowance: the rightmost untrusted hop counts.
	if got := get("", "198.51.100.77, 203.0.113.9"); got != http.StatusTooManyRequests {
		t.Errorf("a spoofed first hop: %d, want 429", got)
	}
}

// TestClientAddrBelievesOnlyTrustedProxies: X-Forwarded-For from anyone
// but a trusted proxy is ignored.
func TestClientAddrBelievesOnlyTrustedProxies(t *testing.T) {
	trusted, _ := ParseTrustedProxies("10.0.0.0/8")
	for _, tc := range []struct{ remote, xff, want string }{
		{"203.0.113.9:1234", "1.2.3.4", "203.0.113.9"},
		{"10.1.2.3:1234", "1.2.3.4", "1.2.3.4"},
		{"10.1.2.3:1234", "1.2.3.4, 10.9.9.9", "1.2.3.4"},
		{"10.1.2.3:1234", "not-an-address", "10.1.2.3"},
		{"10.1.2.3:1234", "", "10.1.2.3"},
	} {
		r := httptest.NewRequest(http.MethodGet, "/setup", nil)
		r.RemoteAddr = tc.remote
		if tc.xff != "" {
			r.Header.Set("X-Forwarded-For", tc.xff)
		}
		if got := clientAddr(r, trusted); got != tc.want {
			t.Errorf("%s with %q: %s, want %s", tc.remote, tc.xff, got, tc.want)
		}
	}
	if _, err := ParseTrustedProxies("10.0.0.0/8, bogus"); err == nil {
		t.Error("a bad entry is accepted")
	}
}
