package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/planpr/planpr/bot/githubtest"
	"github.com/planpr/planpr/bot/setup"
)

// startServe runs serve in this process with env until the test ends.
func startServe(t *testing.T, env map[string]string) (base string, log *githubtest.LogBuffer, stop func() error) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	env["PLANPR_LISTEN"] = addr
	ctx, cancel := context.WithCancel(context.Background())
	log = &githubtest.LogBuffer{}
	done := make(chan error, 1)
	go func() { done <- serve(ctx, func(k string) string { return env[k] }, log) }()
	base = "http://" + addr
	for i := 0; ; i++ {
		if resp, err := http.Get(base + "/healthz"); err == nil {
			resp.Body.Close()
			break
		}
		if i == 200 {
			t.Fatalf("serve did not listen:\n%s", log)
		}
		time.Sleep(10 * time.Millisecond)
	}
	stopped := false
	stop = func() error {
		if stopped {
			return nil
		}
		stopped = true
		cancel()
		return <-done
	}
	t.Cleanup(func() { stop() })
	return base, log, stop
}

// browser keeps cookies, as the administrator's browser does between
// /setup and GitHub's callback.
var browser = func() *http.Client {
	jar, _ := cookiejar.New(nil)
	return &http.Client{Jar: jar}
}()

func get(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := browser.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func deliver(t *testing.T, base, event, id string, body []byte, secret string) int {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, base+"/webhook", bytes.NewReader(body))
	req.Header.Set("X-GitHub-Event", event)
	req.Header.Set("X-GitHub-Delivery", id)
	req.Header.Set("X-Hub-Signature-256", githubtest.Sign(secret, body))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// TestServeSetup: serve with no App offers /setup; the page posts planpr's
// manifest to GitHub; GitHub's callback is exchanged for the App's
// credentials, kept 0600 in the data directory, and the same process then
// serves the App: a signed delivery is accepted, /setup is gone. A restart
// finds the App in the data directory.
func TestServeSetup(t *testing.T) {
	gh := githubtest.New()
	defer gh.Close()
	app := gh.AddManifestCode("code-123", githubtest.ManifestApp{ID: 4242, Slug: "planpr-acme", Owner: "acme"})
	data := filepath.Join(t.TempDir(), "data")
	env := map[string]string{"GITHUB_API_URL": gh.URL, "GITHUB_SERVER_URL": "https://github.example", "PLANPR_DATA_DIR": data, "PLANPR_PUBLIC_URL": "https://planpr.example.com"}
	base, log, stop := startServe(t, env)
	ping := []byte(`{"zen":"Keep it logically awesome.","hook_id":1}`)

	// Before setup: deliveries are refused, health is fine.
	if code := deliver(t, base, "ping", "d-0", ping, app.WebhookSecret); code != http.StatusServiceUnavailable {
		t.Errorf("a delivery before setup: %d", code)
	}
	code, page := get(t, base+"/setup")
	if code != http.StatusOK {
		t.Fatalf("GET /setup: %d\n%s", code, page)
	}
	action := regexp.MustCompile(`<form method="post" action="([^"]+)">`).FindStringSubmatch(page)
	manifestAttr := regexp.MustCompile(`name="manifest" value="([^"]+)"`).FindStringSubmatch(page)
	if action == nil || manifestAttr == nil {
		t.Fatalf("no manifest form:\n%s", page)
	}
	formURL := html.UnescapeString(action[1])
	state, ok := strings.CutPrefix(formURL, "https://github.example/settings/apps/new?state=")
	if !ok || len(state) < 16 {
		t.Errorf("the form posts to %s", formURL)
	}
	var manifest setup.AppManifest
	if err := json.Unmarshal([]byte(html.UnescapeString(manifestAttr[1])), &manifest); err != nil {
		t.Fatal(err)
	}
	if manifest.HookAttributes["url"] != "https://planpr.example.com/webhook" || manifest.RedirectURL != "https://planpr.example.com/setup/callback" ||
		manifest.DefaultPermissions["pull_requests"] != "write" || manifest.DefaultPermissions["contents"] != "read" || manifest.DefaultPermissions["actions"] != "read" || manifest.DefaultPermissions["checks"] != "write" ||
		fmt.Sprint(manifest.DefaultEvents) != "[pull_request workflow_run]" || manifest.Public {
		t.Errorf("manifest %+v", manifest)
	}
	// An organisation's form; a name that is not one is refused.
	if _, orgPage := get(t, base+"/setup?org=acme-inc"); !strings.Contains(orgPage, `action="https://github.example/organizations/acme-inc/settings/apps/new?state=`) {
		t.Errorf("organisation page:\n%s", orgPage)
	}
	if code, _ := get(t, base+"/setup?org=a/b"); code != http.StatusBadRequest {
		t.Errorf("org a/b: %d", code)
	}

	// A callback with a state this planpr never handed out changes nothing.
	if code, _ := get(t, base+"/setup/callback?code=code-123&state=forged"); code != http.StatusBadRequest {
		t.Errorf("forged state: %d", code)
	}
	// The right state from another browser (no cookie) changes nothing.
	if resp, err := http.Get(base + "/setup/callback?code=code-123&state=" + state); err != nil || resp.StatusCode != http.StatusBadRequest {
		t.Errorf("the state from another browser: %v %v", resp.StatusCode, err)
	}
	code, done := get(t, base+"/setup/callback?code=code-123&state="+state)
	if code != http.StatusOK || !strings.Contains(done, "https://github.com/apps/planpr-acme/installations/new") {
		t.Fatalf("callback: %d\n%s\n%s", code, done, log)
	}
	fi, err := os.Stat(filepath.Join(data, "app.json"))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("credentials file: %v %v", fi, err)
	}
	kept, ok, err := setup.LoadAppCredentials(data)
	if err != nil || !ok || kept.ID != 4242 || kept.WebhookSecret != app.WebhookSecret || kept.PrivateKey != app.PEM {
		t.Errorf("kept %+v %v %v", kept.ID, ok, err)
	}
	if strings.Contains(log.String(), app.WebhookSecret) || strings.Contains(log.String(), "PRIVATE KEY") {
		t.Errorf("the log shows a secret:\n%s", log)
	}

	// The same process now serves the App.
	waitFor(t, func() bool { return deliver(t, base, "ping", "d-1", ping, app.WebhookSecret) == http.StatusAccepted })
	if code := deliver(t, base, "ping", "d-2", ping, "wrong-secret"); code != http.StatusUnauthorized {
		t.Errorf("a delivery signed with another secret: %d", code)
	}
	for _, path := range []string{"/setup", "/setup/callback?code=code-123&state=" + state} {
		if code, _ := get(t, base+path); code != http.StatusNotFound {
			t.Errorf("GET %s after setup: %d", path, code)
		}
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}

	// A restart on the same data directory serves the App at once.
	base, _, _ = startServe(t, env)
	if code := deliver(t, base, "ping", "d-3", ping, app.WebhookSecret); code != http.StatusAccepted {
		t.Errorf("after a restart: %d", code)
	}
	if code, _ := get(t, base+"/setup"); code != http.StatusNotFound {
		t.Errorf("GET /setup after a restart: %d", code)
	}
}

// TestServeSetupToken: with PLANPR_SETUP_TOKEN, /setup offers nothing
// without it.
func TestServeSetupToken(t *testing.T) {
	env := map[string]string{"PLANPR_DATA_DIR": t.TempDir(), "PLANPR_SETUP_TOKEN": "let-me-in"}
	base, _, _ := startServe(t, env)
	if code, page := get(t, base+"/setup"); code != http.StatusForbidden || strings.Contains(page, "manifest") {
		t.Errorf("without the token: %d\n%s", code, page)
	}
	if code, page := get(t, base+"/setup?token=let-me-in"); code != http.StatusOK || !strings.Contains(page, `name="manifest"`) {
		t.Errorf("with the token: %d\n%s", code, page)
	}
}

func waitFor(t *testing.T, ok func() bool) {
	t.Helper()
	for i := 0; i < 2000; i++ {
		if ok() {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("timed out")
}
