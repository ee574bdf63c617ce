package app

import (
	"net"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/planpr/planpr/bot/artifact"
	"github.com/planpr/planpr/bot/webhook"
)

// TestArtifactDownloadFaultsAreRetried: an artifact download the storage
// answers 503, or whose connection is refused, leaves the job to be tried
// again; one answered 404 is refused for good.
func TestArtifactDownloadFaultsAreRetried(t *testing.T) {
	permanent := func(err error) bool { return err != nil && webhook.IsPermanent(retryable(err)) }
	for status, wantPermanent := range map[int]bool{503: false, 502: false, 404: true} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(status) }))
		_, err := artifact.Download(t.Context(), srv.URL)
		srv.Close()
		if got := permanent(err); got != wantPermanent {
			t.Errorf("%d: permanent %v, want %v (%v)", status, got, wantPermanent, err)
		}
	}
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	addr := ln.Addr().String()
	ln.Close()
	_, err := artifact.Download(t.Context(), "http://"+addr+"/zip")
	if permanent(err) {
		t.Errorf("connection refused is refused for good: %v", err)
	}
}
