package verify

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/ProtonMail/go-crypto/openpgp"
	pgperrors "github.com/ProtonMail/go-crypto/openpgp/errors"
	"github.com/planpr/planpr/lockdiff"
)

// answer is what a registry's signature proved of one provider version:
// the signed checksums by file, the key that signed them, and the
// packages' hashes the download document lists. It is what the cache
// keeps; a request that failed or a signature that did not verify is
// never kept.
type answer struct {
	Unknown   bool                 `json:"unknown,omitempty"` // the registry does not list the version
	Expires   time.Time            `json:"expires,omitzero"`  // when an Unknown answer is to be asked again
	KeyID     string               `json:"key_id,omitempty"`
	KeyOwner  string               `json:"key_owner,omitempty"`
	Sums      map[string]string    `json:"sums,omitempty"`      // zh hex -> release file, from the signed SHA256SUMS
	Packages  map[string][2]string `json:"packages,omitempty"`  // platform -> zh:, h1: (OpenTofu's registry)
	Downloads map[string]string    `json:"downloads,omitempty"` // platform -> download_url, as known

	err   *requestError // why the registry could not be asked
	alert string        // why its answer cannot be trusted
}

// unknownLife is how long "the registry does not know this version" is
// believed: a version published after a pull request named it is asked
// about again within minutes.
const unknownLife = 10 * time.Minute

func (a *answer) signer() string {
	if a.KeyOwner != "" {
		return fmt.Sprintf("%s (key %s)", a.KeyOwner, a.KeyID)
	}
	return "key " + a.KeyID
}

// fetch asks the registry about a provider version, or reads what an
// earlier answer proved.
func (r *verifyRun) fetch(ctx context.Context, a lockdiff.Address, version string) *answer {
	if ans := r.v.cache.read(a, version); ans != nil {
		return ans
	}
	if err := r.down[a.Host]; err != nil {
		return &answer{err: err} // one registry that does not answer costs one wait, not one per provider
	}
	raw, err := r.ask(ctx, a, version)
	if err != nil {
		if err.class == classUnreachable || err.class == classTimeout || err.class == classForbidden {
			if r.down == nil {
				r.down = map[string]*requestError{}
			}
			r.down[a.Host] = err
		}
		return &answer{err: err}
	}
	ans := prove(raw)
	if ans.alert == "" {
		if ans.Unknown {
			ans.Expires = time.Now().Add(unknownLife)
		}
		r.v.cache.write(a, version, ans)
	}
	return ans
}

// rawRelease is what the registry sent, before its signature is checked.
type rawRelease struct {
	unknown   bool
	shasums   []byte
	signature []byte
	keys      []string
	packages  map[string][2]string
	downloads map[string]string
}

// ask is the protocol: discovery, the versions, one platform's download
// document (the checksums and keys are the same for every platform), the
// checksums and their signature.
func (r *verifyRun) ask(ctx context.Context, a lockdiff.Address, version string) (*rawRelease, *requestError) {
	base, err := r.base(ctx, a.Host)
	if err != nil {
		return nil, err
	}
	var versions struct {
		Versions []struct {
			Version   string `json:"version"`
			Platforms []struct {
				OS   string `json:"os"`
				Arch string `json:"arch"`
			} `json:"platforms"`
		} `json:"versions"`
	}
	versionsURL := base.JoinPath(a.Namespace, a.Type, "versions")
	if err := r.getJSON(ctx, versionsURL, &versions); err != nil {
		return nil, err
	}
	var platforms []string
	found := false
	for _, ver := range versions.Versions {
		if strings.TrimPrefix(ver.Version, "v") == strings.TrimPrefix(version, "v") {
			found = true
			for _, p := range ver.Platforms {
				platforms = append(platforms, p.OS+"_"+p.Arch)
			}
		}
	}
	if !found {
		return &rawRelease{unknown: true}, nil
	}
	if len(platforms) == 0 {
		return nil, &requestError{class: classBadAnswer, detail: "the version is listed for no platform"}
	}
	first := platforms[0]
	if slices.Contains(platforms, "linux_amd64") {
		first = "linux_amd64"
	}
	var dl struct {
		DownloadURL         string `json:"download_url"`
		ShasumsURL          string `json:"shasums_url"`
		ShasumsSignatureURL string `json:"shasums_signature_url"`
		SigningKeys         struct {
			GPGPublicKeys []struct {
				KeyID      string `json:"key_id"`
				ASCIIArmor string `json:"ascii_armor"`
			} `json:"gpg_public_keys"`
		} `json:"signing_keys"`
		Packages map[string]struct {
			ZH     string   `json:"zh"`
			H1     string   `json:"h1"`
			Hashes []string `json:"hashes"`
		} `json:"packages"`
	}
	goos, arch, _ := strings.Cut(first, "_")
	dlURL := base.JoinPath(a.Namespace, a.Type, version, "download", goos, arch)
	if err := r.getJSON(ctx, dlURL, &dl); err != nil {
		return nil, err
	}
	raw := &rawRelease{downloads: map[string]string{}}
	if u, err := dlURL.Parse(dl.DownloadURL); err == nil && dl.DownloadURL != "" {
		raw.downloads[first] = u.String()
	}
	for _, k := range dl.SigningKeys.GPGPublicKeys {
		raw.keys = append(raw.keys, k.ASCIIArmor)
	}
	for p, h := range dl.Packages {
		if raw.packages == nil {
			raw.packages = map[string][2]string{}
		}
		zh, h1 := withPrefix("zh:", h.ZH), withPrefix("h1:", h.H1)
		for _, x := range h.Hashes {
			switch {
			case strings.HasPrefix(x, "zh:"):
				zh = x
			case strings.HasPrefix(x, "h1:"):
				h1 = x
			}
		}
		raw.packages[p] = [2]string{zh, h1}
	}
	for _, f := range []struct {
		raw string
		dst *[]byte
	}{{dl.ShasumsURL, &raw.shasums}, {dl.ShasumsSignatureURL, &raw.signature}} {
		u, err := dlURL.Parse(f.raw)
		if err != nil || f.raw == "" {
			return nil, &requestError{class: classBadAnswer, detail: "the download document has no usable checksum URLs"}
		}
		body, rerr := r.get(ctx, u, 1<<20, true)
		if rerr != nil {
			return nil, rerr
		}
		*f.dst = body
	}
	return raw, nil
}

var sumsLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^([0-9a-f]{64})\s+\*?(\S+)$`) })

// prove checks the checksums' signature with the keys the registry lists
// and keeps what it proves.
func prove(raw *rawRelease) *answer {
	if raw.unknown {
		return &answer{Unknown: true}
	}
	keyring := openpgp.EntityList{}
	for _, k := range raw.keys {
		if ks, err := openpgp.ReadArmoredKeyRing(strings.NewReader(k)); err == nil {
			keyring = append(keyring, ks...)
		}
	}
	if len(keyring) == 0 {
		return &answer{alert: "the registry lists no usable signing key, so its checksums cannot be trusted"}
	}
	check := openpgp.CheckDetachedSignature
	if bytes.HasPrefix(bytes.TrimSpace(raw.signature), []byte("-----BEGIN PGP")) {
		check = openpgp.CheckArmoredDetachedSignature
	}
	signer, err := check(keyring, bytes.NewReader(raw.shasums), bytes.NewReader(raw.signature), nil)
	if err != nil {
		if errors.Is(err, pgperrors.ErrUnknownIssuer) {
			return &answer{alert: "the SHA256SUMS is signed by a key the registry does not list, so its checksums cannot be trusted"}
		}
		return &answer{alert: "the signature of the SHA256SUMS does not verify with the registry's keys, so its checksums cannot be trusted"}
	}
	a := &answer{KeyID: fmt.Sprintf("%016X", signer.PrimaryKey.KeyId), Sums: map[string]string{}, Packages: raw.packages, Downloads: raw.downloads}
	if id := signer.PrimaryIdentity(); id != nil {
		a.KeyOwner = id.Name
	}
	for _, line := range strings.Split(string(raw.shasums), "\n") {
		if m := sumsLine().FindStringSubmatch(strings.TrimSpace(line)); m != nil {
			a.Sums[m[1]] = m[2]
		}
	}
	return a
}

func withPrefix(p, h string) string {
	if h == "" || strings.HasPrefix(h, p) {
		return h
	}
	return p + h
}

// base is a registry's providers.v1 URL: an override, or service
// discovery (https://HOST/.well-known/terraform.json).
func (r *verifyRun) base(ctx context.Context, host string) (*url.URL, *requestError) {
	v := r.v
	v.mu.Lock()
	b, ok := v.Registries[host]
	if !ok {
		b, ok = v.bases[host]
	}
	v.mu.Unlock()
	if !ok {
		var disco struct {
			ProvidersV1 string `json:"providers.v1"`
		}
		wellKnown := &url.URL{Scheme: "https", Host: host, Path: "/.well-known/terraform.json"}
		if err := r.getJSON(ctx, wellKnown, &disco); err != nil {
			return nil, err
		}
		rel, err := wellKnown.Parse(disco.ProvidersV1)
		if disco.ProvidersV1 == "" || err != nil || rel.Scheme != "https" {
			return nil, &requestError{class: classBadAnswer, detail: "service discovery names no https providers.v1"}
		}
		b = rel.String()
		v.mu.Lock()
		if v.bases == nil {
			v.bases = map[string]string{}
		}
		v.bases[host] = b
		v.mu.Unlock()
	}
	u, err := url.Parse(b)
	if err != nil {
		return nil, &requestError{class: classBadAnswer, detail: "the providers.v1 base is not a URL"}
	}
	if !strings.HasSuffix(u.Path, "/") {
		u.Path += "/"
	}
	return u, nil
}

// get fetches a URL, at most limit bytes, within the run's budget; a
// status other than 200 is an error naming it. Files (checksums,
// packages) may be redirected; the protocol's documents may not.
func (r *verifyRun) get(ctx context.Context, u *url.URL, limit int64, file bool) ([]byte, *requestError) {
	resp, err := r.do(ctx, u, file)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	b, rerr := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if rerr != nil {
		return nil, classify(rerr)
	}
	if int64(len(b)) > limit {
		return nil, &requestError{class: classTooLarge, detail: fmt.Sprintf("%s: more than %d bytes", u.Redacted(), limit)}
	}
	return b, nil
}

// do sends one GET, counted against the run's budget; the caller closes
// the body of the 200 it returns.
func (r *verifyRun) do(ctx context.Context, u *url.URL, file bool) (*http.Response, *requestError) {
	if r.left <= 0 {
		return nil, &requestError{class: classBudget, detail: "request budget spent"}
	}
	if who, ok := ctx.Value(requesterKey{}).(string); ok && !r.v.quota.take(who, cmpPositive(r.v.RequesterRequests, DefaultRequesterRequests)) {
		return nil, &requestError{class: classQuota, detail: "hourly budget of " + who + " spent"}
	}
	if u.Scheme != "https" && u.Scheme != "http" {
		return nil, &requestError{class: classBadAnswer, detail: "not an http URL: " + u.Redacted()}
	}
	if u.Scheme == "http" && !r.v.net.trusted[strings.ToLower(u.Host)] {
		return nil, &requestError{class: classForbidden, detail: "plain http to a host the operator did not name: " + u.Redacted()}
	}
	r.left--
	r.v.requests.Add(1)
	if !file {
		ctx = context.WithValue(ctx, noRedirects{}, true)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, &requestError{class: classBadAnswer, detail: err.Error()}
	}
	resp, err := r.v.net.client.Do(req)
	if err != nil {
		return nil, classify(err)
	}
	if resp.StatusCode != http.StatusOK {
		resp.Body.Close()
		return nil, &requestError{class: classStatus, status: resp.StatusCode, detail: u.Redacted()}
	}
	return resp, nil
}

func (r *verifyRun) getJSON(ctx context.Context, u *url.URL, dst any) *requestError {
	b, err := r.get(ctx, u, 8<<20, false)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, dst); err != nil {
		return &requestError{class: classBadAnswer, detail: fmt.Sprintf("%s: %v", u.Redacted(), err)}
	}
	return nil
}

// platformOf reads a release file's platform: NAME_VERSION_OS_ARCH.zip.
func platformOf(file string) string {
	parts := strings.Split(strings.TrimSuffix(file, ".zip"), "_")
	if len(parts) < 3 || !strings.HasSuffix(file, ".zip") {
		return ""
	}
	return parts[len(parts)-2] + "_" + parts[len(parts)-1]
}

// ParseVerify reads how far to verify: "" or off/false/no (not at all),
// on/true/yes (the zh: hashes against the signed checksums), full (the h1:
// hashes too, downloading the packages).
func ParseVerify(s string) (on, full bool, err error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "off", "false", "no", "0":
		return false, false, nil
	case "on", "true", "yes", "1":
		return true, false, nil
	case "full":
		return true, true, nil
	}
	return false, false, fmt.Errorf("verify %q: want on, off or full", s)
}

// ParseRegistries reads HOST=URL overrides of service discovery (URL the
// providers.v1 base discovery would give), separated by commas, spaces or
// lines.
func ParseRegistries(specs ...string) (map[string]string, error) {
	out := map[string]string{}
	for _, spec := range specs {
		for _, item := range splitList(spec) {
			host, u, ok := strings.Cut(item, "=")
			_, err := parseHTTPURL(u)
			if !ok || !lockdiff.ValidHost(host) || err != nil {
				return nil, fmt.Errorf("registry %q: want HOST=URL, e.g. registry.opentofu.org=https://mirror.example.com/v1/providers/", item)
			}
			out[strings.ToLower(host)] = u
		}
	}
	return out, nil
}

// ParseHosts reads an allow list of registry hosts (PLANPR_VERIFY_HOSTS,
// --verify-host), separated by commas, spaces or lines.
func ParseHosts(specs ...string) ([]string, error) {
	var out []string
	for _, spec := range specs {
		for _, h := range splitList(spec) {
			if !lockdiff.ValidHost(h) {
				return nil, fmt.Errorf("registry host %q: want a host name, with a port if it has one (registry.example.com or registry.example.com:8443)", h)
			}
			out = append(out, strings.ToLower(h))
		}
	}
	return out, nil
}

func splitList(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == '\n' || r == ' ' || r == '\t' })
}

func parseHTTPURL(s string) (*url.URL, error) {
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return nil, fmt.Errorf("%q is not an http(s) URL", s)
	}
	return u, nil
}
