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

// TestA11SetupBoundToBrowser: without PLANPR_SETUP_TOKEN, a state is good
// only in the browser that opened /setup: a stranger holding the state,
// or a state of their own with another browser's cookie, cannot finish it
// with their App's code.
func TestA11SetupBoundToBrowser(t *testing.T) {
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

// TestA11SetupFirstCompletedWins: two callbacks at once, each with a good
// state and code of its own: one App is kept and served, the other is
// refused, and app.json names the App that runs.
func TestA11SetupFirstCompletedWins(t *testing.T) {
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

// TestA11SetupRateLimited: one client opening /setup a thousand times is
// refused past its allowance, and the administrator's state, handed out
// before, still completes (nothing is stored per page to evict).
func TestA11SetupRateLimited(t *testing.T) {
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
