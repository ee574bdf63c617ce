package verify

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/sha256"
	"crypto/x509"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"text/template"
	"time"

	"github.com/ProtonMail/go-crypto/openpgp"
	"github.com/ProtonMail/go-crypto/openpgp/armor"
	"github.com/planpr/planpr/lockdiff"
	"golang.org/x/mod/sumdb/dirhash"
)

// testRegistry serves testdata/registry on loopback with release files
// it makes: a zip per platform, SHA256SUMS, and its signature by a key
// made here.
type testRegistry struct {
	*httptest.Server
	mu             sync.Mutex      // guards the knobs below, which tests turn while requests run
	listed, signer *openpgp.Entity // the key the registry lists, the key that signs
	files          map[string][]byte
	zh, h1         map[string]string // platform -> hash, for version 6.0.0
	tamperSig      bool
	packages       bool // answer OpenTofu's packages object in the download document
	slow           time.Duration
	notFound       bool
	requests       int
	sumsURL        string // answered as the download document's shasums_url instead of the registry's own
}

var platformsServed = []string{"linux_amd64", "darwin_arm64", "windows_amd64"}

func newTestRegistry(t *testing.T, tls bool) *testRegistry {
	t.Helper()
	key, err := openpgp.NewEntity("planpr test registry", "", "registry@example.invalid", nil)
	if err != nil {
		t.Fatal(err)
	}
	r := &testRegistry{listed: key, signer: key, files: map[string][]byte{}, zh: map[string]string{}, h1: map[string]string{}}
	for _, v := range []string{"5.9.0", "6.0.0"} {
		var sums strings.Builder
		for _, p := range platformsServed {
			name := fmt.Sprintf("terraform-provider-aws_%s_%s.zip", v, p)
			var buf bytes.Buffer
			zw := zip.NewWriter(&buf)
			w, _ := zw.Create(fmt.Sprintf("terraform-provider-aws_v%s", v))
			fmt.Fprintf(w, "provider %s for %s", v, p)
			zw.Close()
			r.files["/files/"+v+"/"+name] = buf.Bytes()
			sum := sha256.Sum256(buf.Bytes())
			fmt.Fprintf(&sums, "%x  %s\n", sum, name)
			if v == "6.0.0" {
				r.zh[p] = "zh:" + hex.EncodeToString(sum[:])
				path := filepath.Join(t.TempDir(), name)
				os.WriteFile(path, buf.Bytes(), 0o600)
				h, err := dirhash.HashZip(path, dirhash.Hash1)
				if err != nil {
					t.Fatal(err)
				}
				r.h1[p] = h
			}
		}
		r.files["/files/"+v+"/terraform-provider-aws_"+v+"_SHA256SUMS"] = []byte(sums.String())
	}
	handler := http.HandlerFunc(r.serve)
	if tls {
		r.Server = httptest.NewTLSServer(handler)
	} else {
		r.Server = httptest.NewServer(handler)
	}
	t.Cleanup(r.Close)
	return r
}

// set turns the registry's knobs.
func (r *testRegistry) set(f func()) {
	r.mu.Lock()
	defer r.mu.Unlock()
	f()
}

func (r *testRegistry) serve(w http.ResponseWriter, req *http.Request) {
	r.mu.Lock()
	r.requests++
	slow, notFound, tamperSig, signer, listed, packages, sumsURL := r.slow, r.notFound, r.tamperSig, r.signer, r.listed, r.packages, r.sumsURL
	r.mu.Unlock()
	if slow > 0 {
		time.Sleep(slow)
	}
	path := req.URL.Path
	testdata := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join("testdata", "registry", name))
		if err != nil {
			panic(err)
		}
		return b
	}
	switch {
	case notFound:
		http.NotFound(w, req)
	case path == "/.well-known/terraform.json":
		w.Write(testdata("well-known.json"))
	case path == "/v1/providers/hashicorp/aws/versions":
		w.Write(testdata("versions.json"))
	case strings.HasPrefix(path, "/v1/providers/hashicorp/aws/") && strings.Contains(path, "/download/"):
		parts := strings.Split(strings.TrimPrefix(path, "/v1/providers/hashicorp/aws/"), "/") // VERSION download OS ARCH
		if len(parts) != 4 {
			http.NotFound(w, req)
			return
		}
		var armored bytes.Buffer
		aw, _ := armor.Encode(&armored, openpgp.PublicKeyType, nil)
		listed.Serialize(aw)
		aw.Close()
		quoted, _ := json.Marshal(armored.String())
		file := fmt.Sprintf("terraform-provider-aws_%s_%s_%s.zip", parts[0], parts[2], parts[3])
		sum := sha256.Sum256(r.files["/files/"+parts[0]+"/"+file])
		var doc bytes.Buffer
		template.Must(template.New("dl").Parse(string(testdata("download.json")))).Execute(&doc, map[string]any{
			"Version": parts[0], "OS": parts[2], "Arch": parts[3], "Shasum": hex.EncodeToString(sum[:]),
			"KeyID": fmt.Sprintf("%016X", listed.PrimaryKey.KeyId), "Armor": string(quoted)})
		if sumsURL != "" {
			var m map[string]any
			json.Unmarshal(doc.Bytes(), &m)
			m["shasums_url"] = sumsURL
			b, _ := json.Marshal(m)
			doc.Reset()
			doc.Write(b)
		}
		if packages && parts[0] == "6.0.0" {
			var m map[string]any
			json.Unmarshal(doc.Bytes(), &m)
			pk := map[string]any{}
			for _, p := range platformsServed {
				pk[p] = map[string]any{"zh": r.zh[p], "h1": r.h1[p], "size": 123}
			}
			m["packages"] = pk
			b, _ := json.Marshal(m)
			doc.Reset()
			doc.Write(b)
		}
		w.Write(doc.Bytes())
	case strings.HasSuffix(path, "_SHA256SUMS.sig"):
		sums := r.files[strings.TrimSuffix(path, ".sig")]
		if tamperSig {
			sums = append(bytes.Clone(sums), "# tampered\n"...)
		}
		var sig bytes.Buffer
		if err := openpgp.DetachSign(&sig, signer, bytes.NewReader(sums), nil); err != nil {
			panic(err)
		}
		w.Write(sig.Bytes())
	default:
		b, ok := r.files[path]
		if !ok {
			http.NotFound(w, req)
			return
		}
		w.Write(b)
	}
}

// lockDiff is the diff of an upgrade of hashicorp/aws 5.9.0 → version,
// whose lock records hashes.
func lockDiff(t *testing.T, host, version string, hashes ...string) *lockdiff.FileDiff {
	t.Helper()
	before := fmt.Sprintf("provider %q {\n  version = \"5.9.0\"\n  hashes = [\"zh:1111\"]\n}\n", host+"/hashicorp/aws")
	var quoted []string
	for _, h := range hashes {
		quoted = append(quoted, fmt.Sprintf("%q", h))
	}
	after := fmt.Sprintf("provider %q {\n  version = %q\n  hashes = [%s]\n}\n", host+"/hashicorp/aws", version, strings.Join(quoted, ", "))
	fd, diags := lockdiff.ComparePair(lockdiff.Pair{Path: ".terraform.lock.hcl", Before: []byte(before), After: []byte(after)})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	return fd
}

func TestVerify(t *testing.T) {
	reg := newTestRegistry(t, false)
	host := "registry.opentofu.org"
	all := []string{reg.h1["linux_amd64"], reg.zh["linux_amd64"], reg.zh["darwin_arm64"], reg.zh["windows_amd64"]}
	other, _ := openpgp.NewEntity("someone else", "", "else@example.invalid", nil)
	for _, tc := range []struct {
		name       string
		version    string
		hashes     []string
		setup      func()
		status     string
		message    string
		severity   lockdiff.Severity
		platforms  string
		full       bool
		clientWait time.Duration
	}{
		{name: "a good upgrade", version: "6.0.0", hashes: all[1:], status: "verified", severity: lockdiff.Info,
			message: "every hash checked — 3 `zh:` hashes are in the SHA256SUMS signed by planpr test registry <registry@example.invalid> (key", platforms: "darwin_arm64 linux_amd64 windows_amd64"},
		{name: "an h1: the default mode cannot check", version: "6.0.0", hashes: all, status: "unchecked", severity: lockdiff.Warning,
			message: "is not verified: 3 `zh:` hashes are in the SHA256SUMS signed by planpr test registry <registry@example.invalid> (key"},
		{name: "a good upgrade, h1: checked", version: "6.0.0", hashes: all, full: true, status: "verified", severity: lockdiff.Info,
			message: "1 `h1:` hash matches the packages downloaded and checked against the signed checksums"},
		{name: "a zh: the registry did not sign", version: "6.0.0", hashes: append(all[1:], "zh:"+strings.Repeat("ab", 32)), status: "alert", severity: lockdiff.Alert,
			message: "`zh:ababababababababa…` is not a checksum the registry signed"},
		{name: "an h1: of no package", version: "6.0.0", hashes: append(all[1:], "h1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="), full: true, status: "alert", severity: lockdiff.Alert,
			message: "is not the h1: hash of any package the registry signed"},
		{name: "a wrong signature", version: "6.0.0", hashes: all, setup: func() { reg.tamperSig = true }, status: "alert", severity: lockdiff.Alert,
			message: "does not verify with the registry's keys"},
		{name: "a key the registry does not list", version: "6.0.0", hashes: all, setup: func() { reg.signer = other }, status: "alert", severity: lockdiff.Alert,
			message: "signed by a key the registry does not list"},
		{name: "a version the registry does not know", version: "6.6.6", hashes: all, status: "alert", severity: lockdiff.Alert,
			message: "The registry does not know registry.opentofu.org/hashicorp/aws 6.6.6"},
		{name: "a registry answering 404", version: "6.0.0", hashes: all, setup: func() { reg.notFound = true }, status: "unchecked", severity: lockdiff.Warning,
			message: "registry.opentofu.org/hashicorp/aws 6.0.0 is not checked: the registry refused the request (HTTP 404)."},
		{name: "a registry that does not answer", version: "6.0.0", hashes: all, setup: func() { reg.slow = 300 * time.Millisecond }, clientWait: 100 * time.Millisecond,
			status: "unchecked", severity: lockdiff.Warning, message: "is not checked: the registry did not answer in time."},
		{name: "a lock missing a platform", version: "6.0.0", hashes: all[1:3], status: "verified", severity: lockdiff.Info, platforms: "darwin_arm64 linux_amd64"},
		{name: "h1: checked against the registry's packages", version: "6.0.0", hashes: all, setup: func() { reg.packages = true }, status: "verified", severity: lockdiff.Info,
			message: "1 `h1:` hash matches the packages the registry publishes"},
		{name: "an h1:-only lock", version: "6.0.0", hashes: all[:1], setup: func() { reg.packages = true }, status: "verified", severity: lockdiff.Info,
			message: "✓ registry.opentofu.org/hashicorp/aws 6.0.0: every hash checked — 1 `h1:` hash matches the packages the registry publishes (platforms linux_amd64)."},
		{name: "an h1: of none of the registry's packages", version: "6.0.0", hashes: append(all[1:], "h1:BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB="), setup: func() { reg.packages = true },
			status: "alert", severity: lockdiff.Alert, message: "is not the h1: hash of any package the registry publishes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			reg.set(func() {
				reg.tamperSig, reg.signer, reg.notFound, reg.slow, reg.packages, reg.sumsURL = false, reg.listed, false, 0, false, ""
				if tc.setup != nil {
					tc.setup()
				}
			})
			v := &Verifier{Registries: map[string]string{host: reg.URL + "/v1/providers/"}, Full: tc.full}
			if tc.clientWait > 0 {
				v.RequestTimeout = tc.clientWait
			}
			fd := lockDiff(t, host, tc.version, tc.hashes...)
			v.Verify(context.Background(), []*lockdiff.FileDiff{fd})
			d := fd.Providers[0]
			if d.Verification == nil {
				t.Fatal("no verification")
			}
			t.Logf("%s: %s", d.Verification.Status, d.Verification.Message)
			if d.Verification.Status != tc.status || !strings.Contains(d.Verification.Message, tc.message) {
				t.Errorf("status %q, message %q; want %q with %q", d.Verification.Status, d.Verification.Message, tc.status, tc.message)
			}
			var found *lockdiff.Finding
			for i, f := range d.Findings {
				if strings.HasPrefix(f.Kind, "verify-") {
					found = &d.Findings[i]
				}
			}
			for i, f := range fd.Findings { // a reason said once for the file
				if f.Kind == "verify-unchecked" && strings.Contains(f.Message, d.Address.Short()) {
					found = &fd.Findings[i]
				}
			}
			if found == nil || found.Severity != tc.severity {
				t.Errorf("finding %+v, want severity %s", found, tc.severity)
			}
			if tc.platforms != "" && strings.Join(d.Verification.Platforms, " ") != tc.platforms {
				t.Errorf("platforms %v, want %s", d.Verification.Platforms, tc.platforms)
			}
			if tc.name == "a lock missing a platform" {
				if strings.Join(d.Verification.Missing, " ") != "windows_amd64" || !hasFinding(d.Findings, "platforms-missing") {
					t.Errorf("missing %v; findings %+v", d.Verification.Missing, d.Findings)
				}
				fix := "`tofu providers lock -platform=linux_amd64 -platform=darwin_arm64 -platform=windows_amd64 registry.opentofu.org/hashicorp/aws`"
				if !slices.ContainsFunc(d.Findings, func(f lockdiff.Finding) bool {
					return strings.Contains(f.Message, "no hashes for windows_amd64") && strings.Contains(f.Message, fix)
				}) {
					t.Errorf("no fix command %s in %+v", fix, d.Findings)
				}
			}
			if tc.status == "verified" && d.Verification.SignedBy != fmt.Sprintf("%016X", reg.listed.PrimaryKey.KeyId) {
				t.Errorf("signed by %s", d.Verification.SignedBy)
			}
		})
	}
}

func hasFinding(fs []lockdiff.Finding, kind string) bool {
	for _, f := range fs {
		if f.Kind == kind {
			return true
		}
	}
	return false
}

// TestVerifyDiscoversAndCaches: the registry is found through service
// discovery; a verification makes five requests, and with the cache none.
func TestVerifyDiscoversAndCaches(t *testing.T) {
	reg := newTestRegistry(t, true)
	host := strings.TrimPrefix(reg.URL, "https://")
	cache := t.TempDir()
	hashes := []string{reg.zh["linux_amd64"], reg.zh["darwin_arm64"], reg.zh["windows_amd64"]}
	for i, want := range []int64{5, 0} {
		v := &Verifier{RootCAs: roots(reg), AllowHosts: []string{host}, CacheDir: cache}
		fd := lockDiff(t, host, "6.0.0", hashes...)
		start := time.Now()
		v.Verify(context.Background(), []*lockdiff.FileDiff{fd})
		if s := fd.Providers[0].Verification.Status; s != "verified" {
			t.Fatalf("run %d: %s: %s", i, s, fd.Providers[0].Verification.Message)
		}
		if v.Requests() != want {
			t.Errorf("run %d: %d requests, want %d", i, v.Requests(), want)
		}
		t.Logf("run %d (%s): %d requests in %v", i, map[int]string{0: "cold", 1: "cached"}[i], v.Requests(), time.Since(start).Round(time.Microsecond))
	}
	// Two files locking the same version ask once.
	v := &Verifier{RootCAs: roots(reg), AllowHosts: []string{host}}
	v.Verify(context.Background(), []*lockdiff.FileDiff{lockDiff(t, host, "6.0.0", hashes...), lockDiff(t, host, "6.0.0", hashes...)})
	if v.Requests() != 5 {
		t.Errorf("two files: %d requests", v.Requests())
	}
}

func TestParseVerifyAndRegistries(t *testing.T) {
	for in, want := range map[string][2]bool{"": {}, "off": {}, "true": {true, false}, "on": {true, false}, "full": {true, true}} {
		on, full, err := ParseVerify(in)
		if err != nil || on != want[0] || full != want[1] {
			t.Errorf("ParseVerify(%q) = %v %v %v", in, on, full, err)
		}
	}
	if _, _, err := ParseVerify("sometimes"); err == nil {
		t.Error("ParseVerify(sometimes): no error")
	}
	got, err := ParseRegistries("registry.opentofu.org=http://127.0.0.1:8080/v1/providers/", "a.example=https://m.example/p/,b.example=https://m.example/q/")
	if err != nil || len(got) != 3 || got["b.example"] != "https://m.example/q/" {
		t.Errorf("ParseRegistries: %v %v", got, err)
	}
	for _, bad := range []string{"noequals", "h=ftp://x/", "h=", "bad host=https://x/"} {
		if _, err := ParseRegistries(bad); err == nil {
			t.Errorf("ParseRegistries(%q): no error", bad)
		}
	}
}

// roots trusts a TLS test registry's certificate.
func roots(reg *testRegistry) *x509.CertPool {
	pool := x509.NewCertPool()
	pool.AddCert(reg.Certificate())
	return pool
}

// TestUncheckedSaidOnce: providers a registry could not be asked about are
// named in one sentence that says why, in words: no address, no Go error.
func TestUncheckedSaidOnce(t *testing.T) {
	fd := lockDiff(t, "registry.opentofu.org", "6.0.0", "zh:1")
	other := *fd.Providers[0]
	other.Address.Type = "null"
	fd.Providers = append(fd.Providers, &other)
	v := &Verifier{Registries: map[string]string{"registry.opentofu.org": "http://127.0.0.1:1/v1/providers/"}}
	v.Verify(context.Background(), []*lockdiff.FileDiff{fd})
	var said []string
	for _, f := range fd.AllFindings() {
		if strings.HasPrefix(f.Kind, "verify-") {
			said = append(said, f.Message)
		}
	}
	want := "Not checked against the registry (hashicorp/aws 6.0.0, hashicorp/null 6.0.0): the registry could not be reached; their hashes are as the pull request wrote them."
	if len(said) != 1 || said[0] != want {
		t.Errorf("said %q, want once %q", said, want)
	}
	for _, p := range fd.Providers {
		if p.Verification == nil || p.Verification.Status != "unchecked" {
			t.Errorf("%s: verification %+v", p.Address, p.Verification)
		}
	}
}

// TestHashAddedToAnUnchangedVersionIsAnAlertUntilVerified: without
// verification a hash added to a version the lock already had is an
// alert (OpenTofu accepts a package matching any listed hash); once the
// registry vouches for every hash of the lock, it is info.
func TestHashAddedToAnUnchangedVersionIsAnAlertUntilVerified(t *testing.T) {
	reg := newTestRegistry(t, false)
	host := "registry.opentofu.org"
	before := fmt.Sprintf("provider %q {\n  version = \"6.0.0\"\n  hashes = [%q]\n}\n", host+"/hashicorp/aws", reg.zh["linux_amd64"])
	after := fmt.Sprintf("provider %q {\n  version = \"6.0.0\"\n  hashes = [%q, %q]\n}\n", host+"/hashicorp/aws", reg.zh["linux_amd64"], reg.zh["darwin_arm64"])
	severity := func(fd *lockdiff.FileDiff) lockdiff.Severity {
		for _, f := range fd.Providers[0].Findings {
			if f.Kind == "zh-added" {
				return f.Severity
			}
		}
		t.Fatalf("no zh-added finding: %+v", fd.Providers[0].Findings)
		return lockdiff.Info
	}
	fd, diags := lockdiff.ComparePair(lockdiff.Pair{Path: ".terraform.lock.hcl", Before: []byte(before), After: []byte(after)})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if got := severity(fd); got != lockdiff.Alert {
		t.Errorf("unverified: %v, want alert", got)
	}
	(&Verifier{Registries: map[string]string{host: reg.URL + "/v1/providers/"}}).Verify(t.Context(), []*lockdiff.FileDiff{fd})
	if got := severity(fd); got != lockdiff.Info || fd.Providers[0].Verification.Status != "verified" {
		t.Errorf("verified: %v (%s), want info", got, fd.Providers[0].Verification.Status)
	}
	// A registry that does not answer verifies nothing: the alert stays.
	fd, _ = lockdiff.ComparePair(lockdiff.Pair{Path: ".terraform.lock.hcl", Before: []byte(before), After: []byte(after)})
	reg.set(func() { reg.notFound = true })
	(&Verifier{Registries: map[string]string{host: reg.URL + "/v1/providers/"}}).Verify(t.Context(), []*lockdiff.FileDiff{fd})
	if got := severity(fd); got != lockdiff.Alert {
		t.Errorf("unchecked: %v, want alert", got)
	}
}
