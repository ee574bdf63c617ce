package githubtest

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/hex"
	"encoding/pem"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
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

// HookDelivery is one attempt to deliver to the App's webhook, as GET
// /app/hook/deliveries lists it.
type HookDelivery struct {
	ID          int64
	GUID        string
	StatusCode  int
	Event       string
	DeliveredAt time.Time
}

// AddHookDelivery lists a delivery attempt among the App's recent ones.
func (s *Server) AddHookDelivery(d HookDelivery) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.hookDeliveries = append(s.hookDeliveries, d)
}

// Redeliveries counts the redeliveries asked of each attempt.
func (s *Server) Redeliveries() map[int64]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return maps.Clone(s.redeliveries)
}

// hookDeliveries answers GET /app/hook/deliveries (newest first, paged
// with a cursor as GitHub does) and POST /app/hook/deliveries/{id}/attempts
// (202), as the App; s.mu is held.
func (s *Server) hookDeliveriesRoute(r *http.Request, path string) status {
	if st, ok := s.checkJWT(r); !ok {
		return st
	}
	if path == "/app/hook/deliveries" && r.Method == http.MethodGet {
		list := slices.Clone(s.hookDeliveries)
		slices.SortFunc(list, func(a, b HookDelivery) int { return b.DeliveredAt.Compare(a.DeliveredAt) })
		per, _ := strconv.Atoi(r.URL.Query().Get("per_page"))
		per = min(max(per, 1), 100)
		start := 0
		if c := r.URL.Query().Get("cursor"); c != "" {
			start, _ = strconv.Atoi(c)
		}
		end := min(start+per, len(list))
		var items []any
		for _, d := range list[min(start, end):end] {
			st := "OK"
			if d.StatusCode < 200 || d.StatusCode >= 300 {
				st = fmt.Sprintf("Invalid HTTP Response: %d", d.StatusCode)
			}
			items = append(items, map[string]any{"id": d.ID, "guid": d.GUID, "delivered_at": d.DeliveredAt.UTC().Format(time.RFC3339),
				"redelivery": false, "duration": 0.1, "status": st, "status_code": d.StatusCode, "event": d.Event, "action": "synchronize"})
		}
		st := status{code: http.StatusOK, body: items}
		if items == nil {
			st.body = []any{}
		}
		if end < len(list) {
			next := fmt.Sprintf("%s%s?per_page=%d&cursor=%d", "http://"+r.Host, r.URL.Path, per, end)
			st.hdr = map[string]string{"Link": fmt.Sprintf("<%s>; rel=\"next\"", next)}
		}
		return st
	}
	idText, ok := strings.CutSuffix(strings.TrimPrefix(path, "/app/hook/deliveries/"), "/attempts")
	id, err := strconv.ParseInt(idText, 10, 64)
	if !ok || err != nil || r.Method != http.MethodPost {
		return msg(http.StatusNotFound, "Not Found")
	}
	if !slices.ContainsFunc(s.hookDeliveries, func(d HookDelivery) bool { return d.ID == id }) {
		return msg(http.StatusNotFound, "Not Found")
	}
	if s.redeliveries == nil {
		s.redeliveries = map[int64]int{}
	}
	s.redeliveries[id]++
	return status{code: http.StatusAccepted, body: map[string]any{}}
}
