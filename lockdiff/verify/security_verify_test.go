package verify

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/planpr/planpr/lockdiff"
)

// countingListener is a loopback port that counts the connections made to
// it: a request planpr must not make shows up here.
type countingListener struct {
	net.Listener
	accepted atomic.Int64
}

func listenCounting(t *testing.T) *countingListener {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	c := &countingListener{Listener: ln}
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			c.accepted.Add(1)
			conn.Close()
		}
	}()
	t.Cleanup(func() { ln.Close() })
	return c
}

// closedPort is a loopback port nothing listens on.
func closedPort(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

// upgradeAt is an upgrade of acme/x at host, as a pull request writes it.
func upgradeAt(t *testing.T, host string) *lockdiff.FileDiff {
	t.Helper()
	before := fmt.Sprintf("provider %q {\n  version = \"1.0.0\"\n  hashes = [\"zh:%s\"]\n}\n", host+"/acme/x", strings.Repeat("1", 64))
	after := fmt.Sprintf("provider %q {\n  version = \"1.1.0\"\n  hashes = [\"zh:%s\"]\n}\n", host+"/acme/x", strings.Repeat("2", 64))
	fd, diags := lockdiff.ComparePair(lockdiff.Pair{Path: ".terraform.lock.hcl", Before: []byte(before), After: []byte(after)})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	return fd
}

// transportWords are what a transport error says of the network: none
// may reach a comment.
var transportWords = []string{"dial", "connection refused", "tls:", "lookup", "127.0.0.1", "169.254", "i/o timeout", "no such host", "EOF"}

func assertNoTransportWords(t *testing.T, msg string) {
	t.Helper()
	for _, w := range transportWords {
		if strings.Contains(msg, w) {
			t.Errorf("message %q says %q", msg, w)
		}
	}
}

// TestLockFileHostNotContacted: a lock file naming a loopback or private
// host makes no connection, open and closed ports read the same, and the
// reason is plain.
func TestLockFileHostNotContacted(t *testing.T) {
	open := listenCounting(t)
	closed := closedPort(t)
	var messages []string
	for _, host := range []string{open.Addr().String(), closed, "10.1.2.3:8080", "169.254.169.254"} {
		v := &Verifier{}
		fd := upgradeAt(t, host)
		v.Verify(context.Background(), []*lockdiff.FileDiff{fd})
		ver := fd.Providers[0].Verification
		if ver == nil || ver.Status != "unchecked" || !strings.Contains(ver.Message, "is not one of them") {
			t.Fatalf("%s: %+v", host, ver)
		}
		if v.Requests() != 0 {
			t.Errorf("%s: %d requests", host, v.Requests())
		}
		messages = append(messages, strings.ReplaceAll(ver.Message, host, "HOST"))
	}
	if n := open.accepted.Load(); n != 0 {
		t.Errorf("%d connections to the open port", n)
	}
	if messages[0] != messages[1] {
		t.Errorf("open and closed ports read differently:\n%s\n%s", messages[0], messages[1])
	}
}

// TestRegistryCannotPointInside: an allowed registry that sends planpr
// to an internal address — a loopback port by IP, a name resolving to
// loopback (checked after DNS), or a redirect to plain http — gets no
// connection there, and the comment says one fixed sentence.
func TestRegistryCannotPointInside(t *testing.T) {
	internal := listenCounting(t)
	_, port, _ := net.SplitHostPort(internal.Addr().String())
	redirector := httptest.NewServer(http.RedirectHandler("http://169.254.169.254/latest/meta-data/iam/security-credentials/", http.StatusFound))
	t.Cleanup(redirector.Close)
	reg := newTestRegistry(t, false)
	host := "registry.opentofu.org"
	for _, target := range []string{
		"https://127.0.0.1:" + port + "/sums",
		"https://localhost:" + port + "/sums",
		"https://[::ffff:127.0.0.1]:" + port + "/sums",
	} {
		reg.set(func() { reg.sumsURL = target })
		v := &Verifier{Registries: map[string]string{host: reg.URL + "/v1/providers/"}}
		fd := lockDiff(t, host, "6.0.0", reg.zh["linux_amd64"])
		v.Verify(context.Background(), []*lockdiff.FileDiff{fd})
		ver := fd.Providers[0].Verification
		if ver.Status != "unchecked" || !strings.Contains(ver.Message, "the registry's address is not one planpr may contact") {
			t.Errorf("%s: %s: %s", target, ver.Status, ver.Message)
		}
		assertNoTransportWords(t, ver.Message)
	}
	if n := internal.accepted.Load(); n != 0 {
		t.Errorf("%d connections to the internal port", n)
	}
	// A redirect to plain http (the metadata service) is not followed.
	reg.set(func() { reg.sumsURL = redirector.URL + "/sums" })
	v := &Verifier{Registries: map[string]string{host: reg.URL + "/v1/providers/", "mirror.example": redirector.URL}}
	fd := lockDiff(t, host, "6.0.0", reg.zh["linux_amd64"])
	v.Verify(context.Background(), []*lockdiff.FileDiff{fd})
	if ver := fd.Providers[0].Verification; ver.Status != "unchecked" || !strings.Contains(ver.Message, "not one planpr may contact") {
		t.Errorf("redirect: %s: %s", ver.Status, ver.Message)
	} else {
		assertNoTransportWords(t, ver.Message)
	}
}

// TestRequestBudget: a lock file of 500 providers on one allowed host
// makes at most the budget's requests; the rest say why they are not
// checked.
func TestRequestBudget(t *testing.T) {
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		http.NotFound(w, r)
	}))
	t.Cleanup(srv.Close)
	host := "registry.opentofu.org"
	var before, after strings.Builder
	for i := range 500 {
		fmt.Fprintf(&before, "provider \"%s/acme/p%d\" {\n  version = \"1.0.0\"\n  hashes = [\"zh:%s\"]\n}\n", host, i, strings.Repeat("1", 64))
		fmt.Fprintf(&after, "provider \"%s/acme/p%d\" {\n  version = \"1.1.0\"\n  hashes = [\"zh:%s\"]\n}\n", host, i, strings.Repeat("2", 64))
	}
	fd, diags := lockdiff.ComparePair(lockdiff.Pair{Path: ".terraform.lock.hcl", Before: []byte(before.String()), After: []byte(after.String())})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	v := &Verifier{Registries: map[string]string{host: srv.URL + "/v1/providers/"}, MaxRequests: 20}
	v.Verify(context.Background(), []*lockdiff.FileDiff{fd})
	if hits.Load() > 20 || v.Requests() > 20 {
		t.Errorf("%d requests made (%d counted), budget 20", hits.Load(), v.Requests())
	}
	spent := 0
	for _, d := range fd.Providers {
		if strings.Contains(d.Verification.Message, "budget of registry requests is spent") {
			spent++
		}
	}
	if spent != 480 {
		t.Errorf("%d providers say the budget is spent, want 480", spent)
	}
}

// TestForgedHashOnUnchangedVersion: a pull request that only adds an
// h1: to a version the lock already had gets an alert, not ✓, whether or
// not the registry publishes h1: hashes.
func TestForgedHashOnUnchangedVersion(t *testing.T) {
	reg := newTestRegistry(t, false)
	host := "registry.opentofu.org"
	zh := reg.zh["linux_amd64"]
	evil := "h1:EVILEVILEVILEVILEVILEVILEVILEVILEVILEVIL123="
	before := fmt.Sprintf("provider %q {\n  version = \"6.0.0\"\n  hashes = [%q]\n}\n", host+"/hashicorp/aws", zh)
	after := fmt.Sprintf("provider %q {\n  version = \"6.0.0\"\n  hashes = [%q, %q]\n}\n", host+"/hashicorp/aws", evil, zh)
	for _, packages := range []bool{false, true} {
		reg.set(func() { reg.packages = packages })
		fd, diags := lockdiff.ComparePair(lockdiff.Pair{Path: ".terraform.lock.hcl", Before: []byte(before), After: []byte(after)})
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		v := &Verifier{Registries: map[string]string{host: reg.URL + "/v1/providers/"}}
		v.Verify(context.Background(), []*lockdiff.FileDiff{fd})
		ver := fd.Providers[0].Verification
		if ver.Status != "alert" || !strings.Contains(ver.Message, "h1:EVILEVILEVILEVILE") {
			t.Errorf("packages=%v: %s: %s", packages, ver.Status, ver.Message)
		}
	}
}

// TestCacheOthersCanWrite: a cache others can write is not read, and a
// cache file that is not private is not believed; the cache that is
// written is 0600 in 0700.
func TestCacheOthersCanWrite(t *testing.T) {
	reg := newTestRegistry(t, false)
	host := "registry.opentofu.org"
	forged := strings.Repeat("ab", 32)
	answerFile := func(dir string) string {
		return filepath.Join(dir, "registry", host, "hashicorp", "aws", "6.0.0.json")
	}
	forge := func(dir string, mode os.FileMode) {
		os.MkdirAll(filepath.Dir(answerFile(dir)), 0o700)
		b, _ := json.Marshal(answer{KeyID: "FORGED", Sums: map[string]string{forged: "terraform-provider-aws_6.0.0_linux_amd64.zip"}})
		os.WriteFile(answerFile(dir), b, mode)
		os.Chmod(answerFile(dir), mode)
	}
	for name, setup := range map[string]func(dir string){
		"a directory others can write": func(dir string) { forge(dir, 0o600); os.Chmod(dir, 0o777) },
		"a file others can write":      func(dir string) { forge(dir, 0o666) },
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			setup(dir)
			v := &Verifier{Registries: map[string]string{host: reg.URL + "/v1/providers/"}, CacheDir: dir}
			fd := lockDiff(t, host, "6.0.0", "zh:"+forged)
			v.Verify(context.Background(), []*lockdiff.FileDiff{fd})
			if ver := fd.Providers[0].Verification; ver.Status != "alert" {
				t.Errorf("the forged cache was believed: %s: %s", ver.Status, ver.Message)
			}
		})
	}
	dir := filepath.Join(t.TempDir(), "cache")
	v := &Verifier{Registries: map[string]string{host: reg.URL + "/v1/providers/"}, CacheDir: dir}
	v.Verify(context.Background(), []*lockdiff.FileDiff{lockDiff(t, host, "6.0.0", reg.zh["linux_amd64"])})
	for _, p := range []string{dir, filepath.Join(dir, "registry"), filepath.Dir(answerFile(dir))} {
		if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != 0o700 {
			t.Errorf("%s: %v %v, want 0700", p, fi.Mode(), err)
		}
	}
	if fi, err := os.Stat(answerFile(dir)); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("answer: %v %v, want 0600", fi, err)
	}
}

// TestFullModeBounds: --verify=full refuses a package over its size
// cap while downloading, and a zip bomb while inflating.
func TestFullModeBounds(t *testing.T) {
	reg := newTestRegistry(t, false)
	host := "registry.opentofu.org"
	v := &Verifier{Registries: map[string]string{host: reg.URL + "/v1/providers/"}, Full: true, MaxPackage: 64}
	fd := lockDiff(t, host, "6.0.0", reg.zh["linux_amd64"], reg.h1["linux_amd64"])
	v.Verify(context.Background(), []*lockdiff.FileDiff{fd})
	if ver := fd.Providers[0].Verification; ver.Status != "unchecked" || !strings.Contains(ver.Message, "is larger than 0 MiB") {
		t.Errorf("size cap: %s: %s", ver.Status, ver.Message)
	}

	var bomb bytes.Buffer
	zw := zip.NewWriter(&bomb)
	w, _ := zw.Create("terraform-provider-bomb")
	zero := make([]byte, 1<<20)
	for range 64 { // 64 MiB of zeros: about 64 KB compressed
		w.Write(zero)
	}
	zw.Close()
	start := time.Now()
	_, err := hashZipBounded(bytes.NewReader(bomb.Bytes()), int64(bomb.Len()))
	if err == nil || !strings.Contains(err.Error(), "inflates past") {
		t.Errorf("bomb of %d bytes: %v", bomb.Len(), err)
	}
	t.Logf("a %d KB zip of 64 MiB refused in %v", bomb.Len()>>10, time.Since(start))
}

// TestUnknownVersionExpires: "the registry does not know this version"
// is asked again once its time is up, so a version published after the
// pull request named it verifies.
func TestUnknownVersionExpires(t *testing.T) {
	reg := newTestRegistry(t, false)
	host := "registry.opentofu.org"
	dir := t.TempDir()
	verify := func() (*lockdiff.Verification, int64) {
		v := &Verifier{Registries: map[string]string{host: reg.URL + "/v1/providers/"}, CacheDir: dir}
		fd := lockDiff(t, host, "6.6.6", reg.zh["linux_amd64"])
		v.Verify(context.Background(), []*lockdiff.FileDiff{fd})
		return fd.Providers[0].Verification, v.Requests()
	}
	if ver, n := verify(); ver.Status != "alert" || n == 0 {
		t.Fatalf("first: %s after %d requests", ver.Status, n)
	}
	if _, n := verify(); n != 0 {
		t.Errorf("within its time: %d requests, want the cached answer", n)
	}
	file := filepath.Join(dir, "registry", host, "hashicorp", "aws", "6.6.6.json")
	b, _ := json.Marshal(answer{Unknown: true, Expires: time.Now().Add(-time.Second)})
	if err := os.WriteFile(file, b, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, n := verify(); n == 0 {
		t.Error("past its time: the registry was not asked again")
	}
}

// TestRequesterHourlyBudget: one requester (an App installation) gets a
// bounded number of registry requests an hour, whatever its reviews ask;
// another requester is not held by it.
func TestRequesterHourlyBudget(t *testing.T) {
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		http.NotFound(w, r)
	}))
	t.Cleanup(srv.Close)
	host := "registry.opentofu.org"
	v := &Verifier{Registries: map[string]string{host: srv.URL + "/v1/providers/"}, RequesterRequests: 5}
	hostile := WithRequester(context.Background(), "installation-1")
	for range 10 {
		v.Verify(hostile, []*lockdiff.FileDiff{upgradeAt(t, host)})
	}
	if n := hits.Load(); n != 5 {
		t.Errorf("%d requests for one requester, want its 5", n)
	}
	fd := upgradeAt(t, host)
	v.Verify(hostile, []*lockdiff.FileDiff{fd})
	if msg := fd.Providers[0].Verification.Message; !strings.Contains(msg, "this installation's hourly budget of registry requests is spent") {
		t.Errorf("message %q", msg)
	}
	v.Verify(WithRequester(context.Background(), "installation-2"), []*lockdiff.FileDiff{upgradeAt(t, host)})
	if n := hits.Load(); n != 6 {
		t.Errorf("another requester was held: %d requests", n)
	}
}
