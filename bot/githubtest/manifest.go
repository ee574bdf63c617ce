package githubtest

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/hex"
	"encoding/pem"
	"net/http"
	"strings"
)

// ManifestApp is the App GitHub creates from a manifest: what the
// conversion answers, once, for its code.
type ManifestApp struct {
	ID            int64
	Slug          string
	Owner         string
	WebhookSecret string
	PEM           string // a fresh RSA key: the fake's only copy
}

// AddManifestCode makes code redeemable once at POST
// /app-manifests/{code}/conversions, as GitHub's redirect after "Create
// GitHub App" hands it out (it expires in an hour there). The App becomes
// the one the fake checks JWTs against, as on GitHub.
func (s *Server) AddManifestCode(code string, app ManifestApp) ManifestApp {
	if app.PEM == "" {
		key, err := rsa.GenerateKey(rand.Reader, 2048)
		if err != nil {
			panic(err)
		}
		app.PEM = string(pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(key)}))
	}
	if app.WebhookSecret == "" {
		b := make([]byte, 20)
		rand.Read(b)
		app.WebhookSecret = hex.EncodeToString(b)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.manifestCodes == nil {
		s.manifestCodes = map[string]ManifestApp{}
	}
	s.manifestCodes[code] = app
	return app
}

// convertManifest answers POST /app-manifests/{code}/conversions: 201 with
// the App's credentials, then 404 for that code; s.mu is held.
func (s *Server) convertManifest(r *http.Request, path string) status {
	code, ok := strings.CutSuffix(strings.TrimPrefix(path, "/app-manifests/"), "/conversions")
	app, known := s.manifestCodes[code]
	if !ok || r.Method != http.MethodPost || !known {
		return msg(http.StatusNotFound, "Not Found")
	}
	delete(s.manifestCodes, code)
	s.appID, s.appSlug = app.ID, app.Slug
	return status{code: http.StatusCreated, body: map[string]any{
		"id": app.ID, "slug": app.Slug, "node_id": "A_kwDO", "name": app.Slug, "owner": map[string]any{"login": app.Owner},
		"html_url": "https://github.com/apps/" + app.Slug, "client_id": "Iv1.0123456789abcdef", "client_secret": "client-secret-never-stored",
		"webhook_secret": app.WebhookSecret, "pem": app.PEM, "permissions": map[string]string{}, "events": []string{},
	}}
}
