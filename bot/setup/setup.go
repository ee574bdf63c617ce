package setup

import (
	"bytes"
	"cmp"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"crypto/x509"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"html/template"
	"io"
	"log/slog"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/planpr/planpr/internal/lazyre"
)

// Config configures the one-click App setup (see Setup).
type Config struct {
	ServerURL string // GITHUB_SERVER_URL: https://github.com, or https://HOST (GitHub Enterprise Server)
	APIURL    string // GITHUB_API_URL: https://api.github.com, or https://HOST/api/v3
	// PublicURL is where GitHub reaches planpr (PLANPR_PUBLIC_URL): the
	// webhook is PublicURL/webhook. Empty: the URL /setup was opened at,
	// as the proxy in front says it (X-Forwarded-Proto, X-Forwarded-Host).
	PublicURL string
	Org       string // PLANPR_GITHUB_ORG: create the App in this organisation
	AppName   string // the App's name on GitHub (default "planpr")
	// Token, when set (PLANPR_SETUP_TOKEN), must be given as /setup?token=
	// before the page offers to create the App.
	Token string
	// TrustedProxies are the proxies in front (PLANPR_TRUSTED_PROXIES):
	// behind them, the client is the address X-Forwarded-For names.
	TrustedProxies []netip.Prefix
	DataDir        string // where the credentials are kept
	Client         *http.Client
	Logger         *slog.Logger
}

// Setup is `planpr serve` before it has an App: it serves GET /setup, a
// page that creates the GitHub App through GitHub's App manifest flow —
// name, webhook URL, permissions and events filled in — and GET
// /setup/callback?code=…&state=…, where GitHub sends the browser back:
// the code is exchanged (POST /app-manifests/{code}/conversions) for the
// App's id, private key and webhook secret, which are kept in the data
// directory (mode 0600) and handed to Done, so that the same process
// serves the App from then on. Until then, other paths answer 503.
type Setup struct {
	cfg      Config
	key      []byte // signs the states this process hands out: no table to fill
	limiter  *clientLimiter
	done     chan AppCredentials
	claimed  atomic.Bool // a callback is exchanging its code: others wait their turn
	finished atomic.Bool
}

// setupStateLife is how long a /setup page's state stays good: GitHub's
// manifest codes expire after an hour too.
const setupStateLife = time.Hour

// New starts a setup.
func New(cfg Config) *Setup {
	cfg.ServerURL = strings.TrimSuffix(cmp.Or(cfg.ServerURL, "https://github.com"), "/")
	cfg.APIURL = strings.TrimSuffix(cmp.Or(cfg.APIURL, "https://api.github.com"), "/")
	cfg.AppName = cmp.Or(cfg.AppName, "planpr")
	if cfg.Client == nil {
		cfg.Client = &http.Client{Timeout: 30 * time.Second}
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	key := make([]byte, 32)
	rand.Read(key)
	return &Setup{cfg: cfg, key: key, limiter: newClientLimiter(setupPagesPerMinute, time.Minute), done: make(chan AppCredentials, 1)}
}

// Done receives the App's credentials once they are kept.
func (s *Setup) Done() <-chan AppCredentials { return s.done }

// Handler serves the setup.
func (s *Setup) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /setup", s.page)
	mux.HandleFunc("GET /setup/callback", s.callback)
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "ok: waiting to be set up at /setup\n")
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "planpr has no GitHub App yet: open /setup in a browser to create it (or set PLANPR_APP_ID, PLANPR_PRIVATE_KEY and PLANPR_WEBHOOK_SECRET)", http.StatusServiceUnavailable)
	})
	return mux
}

// AppManifest is what GitHub's "Create GitHub App" form is given: the App
// planpr needs.
type AppManifest struct {
	Name               string            `json:"name"`
	URL                string            `json:"url"`
	Description        string            `json:"description"`
	HookAttributes     map[string]any    `json:"hook_attributes"`
	RedirectURL        string            `json:"redirect_url"`
	Public             bool              `json:"public"`
	DefaultPermissions map[string]string `json:"default_permissions"`
	DefaultEvents      []string          `json:"default_events"`
}

// NewAppManifest is planpr's App served at base: the permissions and
// events `planpr serve` uses and no more.
func NewAppManifest(name, base string) AppManifest {
	return AppManifest{
		Name:           name,
		URL:            "https://github.com/planpr/planpr",
		Description:    "Reviews OpenTofu and Terraform plans and lock-file changes in one pull-request comment.",
		HookAttributes: map[string]any{"url": base + "/webhook", "active": true},
		RedirectURL:    base + "/setup/callback",
		DefaultPermissions: map[string]string{
			"pull_requests": "write", // the comment, its labels
			"contents":      "read",  // lock files and configuration at base and head
			"actions":       "read",  // workflow runs' planpr* artifacts
			"checks":        "write", // a check run per key, branch protection can require
			"metadata":      "read",
		},
		DefaultEvents: []string{"pull_request", "workflow_run"},
	}
}

var (
	orgName     = lazyre.New(`^[A-Za-z0-9](?:[A-Za-z0-9-]{0,37}[A-Za-z0-9])?$`)
	manifestKey = lazyre.New(`^[A-Za-z0-9_-]{1,200}$`)
)

// base is the URL GitHub reaches planpr at.
func (s *Setup) base(r *http.Request) string {
	if s.cfg.PublicURL != "" {
		return strings.TrimSuffix(s.cfg.PublicURL, "/")
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	if p := r.Header.Get("X-Forwarded-Proto"); p == "https" || p == "http" {
		scheme = p
	}
	host := r.Host
	if h := r.Header.Get("X-Forwarded-Host"); h != "" && !strings.ContainsAny(h, "/ ,\\@") {
		host = h
	}
	return scheme + "://" + host
}

// setupCookie binds a setup to the browser that opened /setup: the
// callback must come from the same browser, so a stranger cannot finish
// the setup with an App of their own.
const setupCookie = "planpr_setup"

var nonceShape = lazyre.New(`^[0-9a-f]{32}$`)

// newState hands out a state bound to a fresh nonce, which the browser
// keeps in an HttpOnly cookie: NONCE.EXPIRY.MAC, signed with the
// process's key, so that nothing is stored per page and no stranger can
// evict the administrator's state.
func (s *Setup) newState(w http.ResponseWriter, r *http.Request, secure bool) string {
	var nonce string
	if c, err := r.Cookie(setupCookie); err == nil && nonceShape().MatchString(c.Value) {
		nonce = c.Value // the pages one browser opens share its nonce
	} else {
		b := make([]byte, 16)
		rand.Read(b)
		nonce = hex.EncodeToString(b)
	}
	expiry := strconv.FormatInt(time.Now().Add(setupStateLife).Unix(), 10)
	http.SetCookie(w, &http.Cookie{Name: setupCookie, Value: nonce, Path: "/setup", MaxAge: int(setupStateLife.Seconds()),
		HttpOnly: true, Secure: secure, SameSite: http.SameSiteLaxMode}) // Lax: GitHub's redirect back is a top-level GET
	return nonce + "." + expiry + "." + s.mac(nonce, expiry)
}

func (s *Setup) mac(nonce, expiry string) string {
	m := hmac.New(sha256.New, s.key)
	io.WriteString(m, nonce+"."+expiry)
	return hex.EncodeToString(m.Sum(nil))
}

// validState reports whether state was handed out here, lately, to the
// browser making the request.
func (s *Setup) validState(r *http.Request, state string) bool {
	nonce, rest, ok1 := strings.Cut(state, ".")
	expiry, mac, ok2 := strings.Cut(rest, ".")
	cookie, err := r.Cookie(setupCookie)
	if !ok1 || !ok2 || err != nil || !hmac.Equal([]byte(mac), []byte(s.mac(nonce, expiry))) ||
		subtle.ConstantTimeCompare([]byte(cookie.Value), []byte(nonce)) != 1 {
		return false
	}
	at, err := strconv.ParseInt(expiry, 10, 64)
	return err == nil && time.Now().Unix() <= at
}

// setupPagesPerMinute is how many setup pages one client may open a
// minute.
const setupPagesPerMinute = 20

var setupPage = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("setup").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Set up planpr</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:44em;margin:3em auto;padding:0 1em;color:#1f2328}
code{background:#f6f8fa;padding:.1em .3em;border-radius:4px}button{font-size:1em;padding:.5em 1.2em;background:#1f883d;color:#fff;border:0;border-radius:6px;cursor:pointer}
.warn{background:#fff8c5;padding:.6em 1em;border-radius:6px}</style></head><body>
<h1>Set up planpr</h1>
{{if .Denied}}<p class="warn">This page needs the setup token: open <code>/setup?token=…</code> with the token planpr was started with (<code>PLANPR_SETUP_TOKEN</code>).</p>
{{else}}<p>planpr has no GitHub App yet. The button below asks GitHub to create one{{if .Org}} in the organisation <b>{{.Org}}</b>{{else}} for your account{{end}}, with what planpr needs and nothing more:</p>
<ul>
<li>webhook: <code>{{.Manifest.HookAttributes.url}}</code> — GitHub must be able to reach it</li>
<li>permissions: pull requests (write), contents (read), actions (read), checks (write), metadata (read)</li>
<li>events: <code>pull_request</code>, <code>workflow_run</code></li>
</ul>
<form method="post" action="{{.Action}}">
<input type="hidden" name="manifest" value="{{.ManifestJSON}}">
<button type="submit">Create the GitHub App on {{.Server}}</button>
</form>
<p>GitHub then brings you back to <code>{{.Manifest.RedirectURL}}</code>; planpr keeps the App's key and webhook secret in its data directory and starts serving at once.</p>
<form method="get" action="setup"><p>Create it in an organisation instead:
{{if .Token}}<input type="hidden" name="token" value="{{.Token}}">{{end}}
<input name="org" placeholder="organisation" value="{{.Org}}" pattern="[A-Za-z0-9-]+"> <button type="submit">Use it</button></p></form>
{{end}}</body></html>
`))
})

// page is GET /setup.
func (s *Setup) page(w http.ResponseWriter, r *http.Request) {
	if s.finished.Load() {
		http.NotFound(w, r)
		return
	}
	token := r.URL.Query().Get("token")
	withToken := s.cfg.Token != "" && subtle.ConstantTimeCompare([]byte(token), []byte(s.cfg.Token)) == 1
	// The admin with the token is never limited: strangers filling the
	// allowance (behind a proxy, all from its address) cannot lock them out.
	if !withToken && !s.limiter.allow(clientAddr(r, s.cfg.TrustedProxies)) {
		http.Error(w, "too many setup pages from this address: wait a minute", http.StatusTooManyRequests)
		return
	}
	w.Header().Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; form-action *")
	w.Header().Set("Referrer-Policy", "no-referrer")
	if s.cfg.Token != "" && !withToken {
		w.WriteHeader(http.StatusForbidden)
		setupPage().Execute(w, map[string]any{"Denied": true})
		return
	}
	org := cmp.Or(r.URL.Query().Get("org"), s.cfg.Org)
	if org != "" && !orgName().MatchString(org) {
		http.Error(w, "not an organisation's name: "+template.HTMLEscapeString(org), http.StatusBadRequest)
		return
	}
	manifest := NewAppManifest(s.cfg.AppName, s.base(r))
	raw, _ := json.Marshal(manifest)
	action := s.cfg.ServerURL + "/settings/apps/new"
	if org != "" {
		action = s.cfg.ServerURL + "/organizations/" + url.PathEscape(org) + "/settings/apps/new"
	}
	action += "?state=" + s.newState(w, r, strings.HasPrefix(s.base(r), "https://"))
	setupPage().Execute(w, map[string]any{"Manifest": manifest, "ManifestJSON": string(raw), "Action": action,
		"Org": org, "Server": strings.TrimPrefix(strings.TrimPrefix(s.cfg.ServerURL, "https://"), "http://"), "Token": token})
}

var donePage = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("done").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>planpr is set up</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:44em;margin:3em auto;padding:0 1em;color:#1f2328}</style></head><body>
<h1>planpr is set up</h1>
<p>The GitHub App <b>{{.Slug}}</b> (id {{.ID}}) exists, and this planpr serves it now. Its private key and webhook secret are in planpr's data directory: back it up, or keep it on a volume.</p>
<p>Last step: <a href="{{.Install}}">install the App</a> on the repositories planpr should review.</p>
</body></html>
`))
})

// callback is GET /setup/callback?code=…&state=….
func (s *Setup) callback(w http.ResponseWriter, r *http.Request) {
	if s.finished.Load() {
		http.NotFound(w, r)
		return
	}
	code, state := r.URL.Query().Get("code"), r.URL.Query().Get("state")
	if !manifestKey().MatchString(code) {
		http.Error(w, "no code from GitHub: open /setup to create the App", http.StatusBadRequest)
		return
	}
	if !s.validState(r, state) {
		http.Error(w, "this setup link is not one this planpr handed out to this browser, or it expired: open /setup in this browser and start again", http.StatusBadRequest)
		return
	}
	// One setup at a time, and only the first completed one counts.
	if !s.claimed.CompareAndSwap(false, true) {
		http.Error(w, "another setup is being completed: wait a moment, then open /setup", http.StatusConflict)
		return
	}
	creds, err := s.convert(r.Context(), code)
	if err != nil {
		s.claimed.Store(false)
		s.cfg.Logger.Error("setup: the App manifest code could not be exchanged", "error", err.Error())
		http.Error(w, "GitHub did not hand over the App: "+err.Error()+"; open /setup to start again", http.StatusBadGateway)
		return
	}
	if err := creds.SaveNew(s.cfg.DataDir); err != nil {
		s.claimed.Store(false)
		s.cfg.Logger.Error("setup: the App's credentials could not be kept", "dir", s.cfg.DataDir, "error", err.Error())
		http.Error(w, "the App was created on GitHub, but planpr could not keep its credentials in its data directory ("+err.Error()+"): delete that App on GitHub; if PLANPR_DATA_DIR is not writable make it so, then open /setup again", http.StatusInternalServerError)
		return
	}
	s.finished.Store(true)
	s.cfg.Logger.Info("setup: GitHub App created and kept", "app_id", creds.ID, "slug", creds.Slug, "owner", creds.Owner)
	install := creds.HTMLURL + "/installations/new"
	if !strings.HasPrefix(creds.HTMLURL, "https://") && !strings.HasPrefix(creds.HTMLURL, "http://") {
		install = s.cfg.ServerURL + "/apps/" + url.PathEscape(creds.Slug) + "/installations/new"
	}
	donePage().Execute(w, map[string]any{"Slug": creds.Slug, "ID": creds.ID, "Install": template.URL(install)})
	s.done <- creds
}

// convert exchanges a manifest code for the App's credentials.
func (s *Setup) convert(ctx context.Context, code string) (AppCredentials, error) {
	var creds AppCredentials
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.cfg.APIURL+"/app-manifests/"+url.PathEscape(code)+"/conversions", bytes.NewReader(nil))
	if err != nil {
		return creds, err
	}
	req.Header.Set("Accept", "application/vnd.github+json")
	req.Header.Set("X-GitHub-Api-Version", "2022-11-28")
	resp, err := s.cfg.Client.Do(req)
	if err != nil {
		return creds, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return creds, err
	}
	if resp.StatusCode != http.StatusCreated {
		var m struct {
			Message string `json:"message"`
		}
		json.Unmarshal(body, &m)
		return creds, fmt.Errorf("POST /app-manifests/…/conversions answered %d %s (codes work once, within an hour)", resp.StatusCode, m.Message)
	}
	var app struct {
		ID    int64  `json:"id"`
		Slug  string `json:"slug"`
		Owner struct {
			Login string `json:"login"`
		} `json:"owner"`
		HTMLURL       string `json:"html_url"`
		WebhookSecret string `json:"webhook_secret"`
		PEM           string `json:"pem"`
	}
	if err := json.Unmarshal(body, &app); err != nil {
		return creds, fmt.Errorf("the conversion's answer is not JSON: %w", err)
	}
	if app.ID <= 0 || app.WebhookSecret == "" || app.PEM == "" {
		return creds, fmt.Errorf("the conversion's answer lacks the App's id, webhook secret or key")
	}
	if block, _ := pem.Decode([]byte(app.PEM)); block == nil {
		return creds, fmt.Errorf("the App's key is not PEM")
	} else if _, err := x509.ParsePKCS1PrivateKey(block.Bytes); err != nil {
		if _, err8 := x509.ParsePKCS8PrivateKey(block.Bytes); err8 != nil {
			return creds, fmt.Errorf("the App's key is not an RSA private key: %w", err)
		}
	}
	return AppCredentials{ID: app.ID, Slug: app.Slug, Owner: app.Owner.Login, HTMLURL: app.HTMLURL, WebhookSecret: app.WebhookSecret, PrivateKey: app.PEM}, nil
}
