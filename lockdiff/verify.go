package lockdiff

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ProtonMail/go-crypto/openpgp"
	pgperrors "github.com/ProtonMail/go-crypto/openpgp/errors"
	"golang.org/x/mod/sumdb/dirhash"
)

// Verification is what the provider's registry says of the hashes a lock
// file records for one provider version.
type Verification struct {
	// Status is "verified" (every zh: hash is in the SHA256SUMS the
	// registry's key signed), "alert" (something is not), "unchecked"
	// (nothing to check) or "error" (the registry could not be asked).
	Status    string   `json:"status"`
	SignedBy  string   `json:"signed_by,omitempty"` // the signing key's id
	Platforms []string `json:"platforms,omitempty"` // the platforms the lock's hashes cover
	Missing   []string `json:"missing,omitempty"`   // wanted platforms the lock does not cover
	Message   string   `json:"message"`
}

// DefaultPlatforms are the platforms a team's CI and laptops usually run
// on: a lock that misses one fails `tofu init` there.
var DefaultPlatforms = []string{"linux_amd64", "darwin_arm64", "windows_amd64"}

// Verifier checks lock files' new hashes against the registries' signed
// checksums (the provider registry protocol, which OpenTofu's and
// Terraform's registries both speak).
type Verifier struct {
	Client *http.Client // default: a 20-second timeout
	// Registries maps a registry host to its providers.v1 base URL,
	// instead of service discovery (mirrors, private registries, tests).
	Registries map[string]string
	// CacheDir keeps what registries answered, by registry, provider and
	// version: a second verification asks nothing. "" keeps nothing.
	CacheDir  string
	Platforms []string // wanted platforms (default DefaultPlatforms)
	// Full downloads each platform's package to check h1: hashes too.
	Full bool

	requests atomic.Int64
	mu       sync.Mutex
	bases    map[string]string
}

// Requests counts the HTTP requests made so far.
func (v *Verifier) Requests() int64 { return v.requests.Load() }

// Verify checks every provider version a diff adds or changes, sets its
// Verification, and adds its findings: alerts for hashes the registry did
// not sign, a note when the registry could not be asked (never an error:
// the review goes on).
func (v *Verifier) Verify(ctx context.Context, files []*FileDiff) {
	done := map[string]*release{}
	for _, fd := range files {
		for _, d := range fd.Providers {
			if d.After == nil || d.Change == Removed || d.Change == Unchanged || d.Change == Changed && len(d.HashesAdded) == 0 {
				continue
			}
			key := d.Address.String() + " " + d.After.RawVersion
			rel, ok := done[key]
			if !ok {
				rel = v.fetch(ctx, d.Address, d.After.RawVersion)
				done[key] = rel
			}
			ver := v.check(ctx, rel, d)
			d.Verification = ver
			sev := Info
			switch ver.Status {
			case "alert":
				sev = Alert
			case "error":
				sev = Warning // visible: never a silent pass
			}
			d.Findings = append(d.Findings, Finding{Kind: "verify-" + ver.Status, Severity: sev, Message: ver.Message})
			if len(ver.Missing) > 0 && ver.Status == "verified" {
				d.Findings = append(d.Findings, Finding{Kind: "platforms-missing", Severity: Warning, Message: fmt.Sprintf(
					"The lock for %s %s has no hashes for %s: `tofu init` there will fail to verify the package; %s.",
					d.Address, d.After.RawVersion, strings.Join(ver.Missing, ", "), lockCommand)})
			}
		}
	}
}

// release is what a registry answered for one provider version.
type release struct {
	Unknown   bool                 `json:"unknown,omitempty"` // the registry does not list the version
	Err       string               `json:"-"`                 // why it could not be asked
	Shasums   []byte               `json:"shasums,omitempty"`
	Signature []byte               `json:"signature,omitempty"`
	Keys      []string             `json:"keys,omitempty"`      // ASCII-armored public keys
	Packages  map[string][2]string `json:"packages,omitempty"`  // platform -> zh:, h1: (OpenTofu's registry)
	Downloads map[string]string    `json:"downloads,omitempty"` // platform -> download_url, as known
}

// fetch asks the registry about a provider version, or reads its cached
// answer.
func (v *Verifier) fetch(ctx context.Context, a Address, version string) *release {
	cache := ""
	if v.CacheDir != "" {
		cache = filepath.Join(v.CacheDir, "registry", safePath(a.Host), safePath(a.Namespace), safePath(a.Type), safePath(version)+".json")
		if b, err := os.ReadFile(cache); err == nil {
			var r release
			if json.Unmarshal(b, &r) == nil {
				return &r
			}
		}
	}
	r := v.ask(ctx, a, version)
	if cache != "" && r.Err == "" {
		if b, err := json.Marshal(r); err == nil && os.MkdirAll(filepath.Dir(cache), 0o700) == nil {
			os.WriteFile(cache, b, 0o600)
		}
	}
	return r
}

var unsafeChars = regexp.MustCompile(`[^A-Za-z0-9._-]`)

func safePath(s string) string { return unsafeChars.ReplaceAllString(s, "_") }

// ask is the protocol: discovery, the versions, one platform's download
// document (the checksums and keys are the same for every platform), the
// checksums and their signature.
func (v *Verifier) ask(ctx context.Context, a Address, version string) *release {
	fail := func(format string, args ...any) *release { return &release{Err: fmt.Sprintf(format, args...)} }
	base, err := v.base(ctx, a.Host)
	if err != nil {
		return fail("%v", err)
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
	if err := v.getJSON(ctx, versionsURL.String(), &versions); err != nil {
		return fail("%v", err)
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
		return &release{Unknown: true}
	}
	if len(platforms) == 0 {
		return fail("the registry lists %s %s for no platform", a, version)
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
	if err := v.getJSON(ctx, dlURL.String(), &dl); err != nil {
		return fail("%v", err)
	}
	r := &release{Downloads: map[string]string{}}
	if u, err := dlURL.Parse(dl.DownloadURL); err == nil && dl.DownloadURL != "" {
		r.Downloads[first] = u.String()
	}
	for _, k := range dl.SigningKeys.GPGPublicKeys {
		r.Keys = append(r.Keys, k.ASCIIArmor)
	}
	for p, h := range dl.Packages {
		if r.Packages == nil {
			r.Packages = map[string][2]string{}
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
		r.Packages[p] = [2]string{zh, h1}
	}
	for _, f := range []struct {
		raw string
		dst *[]byte
	}{{dl.ShasumsURL, &r.Shasums}, {dl.ShasumsSignatureURL, &r.Signature}} {
		u, err := dlURL.Parse(f.raw)
		if err != nil || f.raw == "" {
			return fail("the registry's download document for %s %s has no usable checksum URLs", a, version)
		}
		if *f.dst, err = v.get(ctx, u.String(), 1<<20); err != nil {
			return fail("%v", err)
		}
	}
	return r
}

func withPrefix(p, h string) string {
	if h == "" || strings.HasPrefix(h, p) {
		return h
	}
	return p + h
}

// base is a registry's providers.v1 URL: an override, or service
// discovery (https://HOST/.well-known/terraform.json).
func (v *Verifier) base(ctx context.Context, host string) (*url.URL, error) {
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
		wellKnown := "https://" + host + "/.well-known/terraform.json"
		if err := v.getJSON(ctx, wellKnown, &disco); err != nil {
			return nil, err
		}
		if disco.ProvidersV1 == "" {
			return nil, fmt.Errorf("%s is not a provider registry (no providers.v1 in %s)", host, wellKnown)
		}
		u, err := url.Parse(wellKnown)
		if err != nil {
			return nil, err
		}
		rel, err := u.Parse(disco.ProvidersV1)
		if err != nil {
			return nil, fmt.Errorf("%s: providers.v1 is not a URL: %v", wellKnown, err)
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
		return nil, fmt.Errorf("registry %s: %q is not a URL", host, b)
	}
	if !strings.HasSuffix(u.Path, "/") {
		u.Path += "/"
	}
	return u, nil
}

func (v *Verifier) client() *http.Client {
	if v.Client != nil {
		return v.Client
	}
	return &http.Client{Timeout: 20 * time.Second}
}

// get fetches a URL, at most limit bytes; a status other than 200 is an
// error naming it.
func (v *Verifier) get(ctx context.Context, u string, limit int64) ([]byte, error) {
	v.requests.Add(1)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, err
	}
	resp, err := v.client().Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) && ue.Timeout() {
			return nil, fmt.Errorf("%s: timed out", u)
		}
		return nil, fmt.Errorf("%s: %v", u, errors.Unwrap(err))
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%s answered %d", u, resp.StatusCode)
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %v", u, err)
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("%s: more than %d bytes", u, limit)
	}
	return b, nil
}

func (v *Verifier) getJSON(ctx context.Context, u string, dst any) error {
	b, err := v.get(ctx, u, 8<<20)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, dst); err != nil {
		return fmt.Errorf("%s: not the JSON a registry answers: %v", u, err)
	}
	return nil
}

var sumsLine = regexp.MustCompile(`^([0-9a-f]{64})\s+\*?(\S+)$`)

// platformOf reads a release file's platform: NAME_VERSION_OS_ARCH.zip.
func platformOf(file string) string {
	parts := strings.Split(strings.TrimSuffix(file, ".zip"), "_")
	if len(parts) < 3 || !strings.HasSuffix(file, ".zip") {
		return ""
	}
	return parts[len(parts)-2] + "_" + parts[len(parts)-1]
}

// check compares a lock's hashes with what the registry answered.
func (v *Verifier) check(ctx context.Context, r *release, d *ProviderDiff) *Verification {
	name := fmt.Sprintf("%s %s", d.Address, d.After.RawVersion)
	switch {
	case r.Err != "":
		return &Verification{Status: "error", Message: fmt.Sprintf("Could not verify %s against its registry: %s. Its hashes are not checked.", name, r.Err)}
	case r.Unknown:
		return &Verification{Status: "alert", Message: fmt.Sprintf("The registry does not know %s: no published release has these hashes.", name)}
	}
	keyring := openpgp.EntityList{}
	for _, k := range r.Keys {
		if ks, err := openpgp.ReadArmoredKeyRing(strings.NewReader(k)); err == nil {
			keyring = append(keyring, ks...)
		}
	}
	if len(keyring) == 0 {
		return &Verification{Status: "alert", Message: fmt.Sprintf("The registry lists no usable signing key for %s: its checksums cannot be trusted.", name)}
	}
	check := openpgp.CheckDetachedSignature
	if bytes.HasPrefix(bytes.TrimSpace(r.Signature), []byte("-----BEGIN PGP")) {
		check = openpgp.CheckArmoredDetachedSignature
	}
	signer, err := check(keyring, bytes.NewReader(r.Shasums), bytes.NewReader(r.Signature), nil)
	if err != nil {
		if errors.Is(err, pgperrors.ErrUnknownIssuer) {
			return &Verification{Status: "alert", Message: fmt.Sprintf("The SHA256SUMS of %s is signed by a key the registry does not list: its checksums cannot be trusted.", name)}
		}
		return &Verification{Status: "alert", Message: fmt.Sprintf("The signature of the SHA256SUMS of %s does not verify with the registry's keys (%v): its checksums cannot be trusted.", name, err)}
	}
	ver := &Verification{Status: "verified", SignedBy: fmt.Sprintf("%016X", signer.PrimaryKey.KeyId)}
	sums := map[string]string{} // zh hex -> file
	for _, line := range strings.Split(string(r.Shasums), "\n") {
		if m := sumsLine.FindStringSubmatch(strings.TrimSpace(line)); m != nil {
			sums[m[1]] = m[2]
		}
	}
	var alerts []string
	covered := map[string]bool{}
	zh, h1 := 0, 0
	for _, h := range d.After.Hashes {
		switch {
		case strings.HasPrefix(h, "zh:"):
			zh++
			file, ok := sums[strings.TrimPrefix(h, "zh:")]
			if !ok {
				alerts = append(alerts, fmt.Sprintf("`%s` is not a checksum the registry signed", short(h)))
				continue
			}
			if p := platformOf(file); p != "" {
				covered[p] = true
			}
		case strings.HasPrefix(h, "h1:"):
			h1++
		}
	}
	h1Checked := false
	if len(r.Packages) > 0 {
		h1Checked = true
		known := map[string]string{}
		for p, hs := range r.Packages {
			known[hs[1]] = p
		}
		for _, h := range d.After.Hashes {
			if !strings.HasPrefix(h, "h1:") {
				continue
			}
			if p, ok := known[h]; ok {
				covered[p] = true
			} else {
				alerts = append(alerts, fmt.Sprintf("`%s` is not the h1: hash of any package the registry publishes", short(h)))
			}
		}
	} else if v.Full && h1 > 0 {
		h1Checked = true
		alerts = append(alerts, v.checkPackages(ctx, r, d, sums, covered)...)
	}
	for p := range covered {
		ver.Platforms = append(ver.Platforms, p)
	}
	slices.Sort(ver.Platforms)
	for _, p := range cmpPlatforms(v.Platforms) {
		if !covered[p] {
			ver.Missing = append(ver.Missing, p)
		}
	}
	if len(alerts) > 0 {
		ver.Status = "alert"
		ver.Message = fmt.Sprintf("%s: %s.", name, strings.Join(alerts, "; "))
		return ver
	}
	if zh == 0 && !h1Checked {
		ver.Status = "unchecked"
		ver.Message = fmt.Sprintf("%s has no `zh:` hashes to check against the registry's signed checksums (%d `h1:` not checked: `--verify=full` downloads the packages).", name, h1)
		return ver
	}
	ver.Message = fmt.Sprintf("✓ %s: %d `zh:` hashes are in the SHA256SUMS signed by key %s (platforms %s)", name, zh, ver.SignedBy, strings.Join(ver.Platforms, ", "))
	switch {
	case h1 == 0:
	case h1Checked:
		ver.Message += fmt.Sprintf("; %d `h1:` hashes match the registry's packages", h1)
	default:
		ver.Message += fmt.Sprintf("; %d `h1:` hashes not checked (`--verify=full` downloads the packages)", h1)
	}
	ver.Message += "."
	return ver
}

func cmpPlatforms(p []string) []string {
	if len(p) == 0 {
		return DefaultPlatforms
	}
	return p
}

func short(h string) string {
	if len(h) > 20 {
		return h[:20] + "…"
	}
	return h
}

// checkPackages downloads the platforms' packages the lock has zh: hashes
// for and checks that every h1: hash is one of theirs.
func (v *Verifier) checkPackages(ctx context.Context, r *release, d *ProviderDiff, sums map[string]string, covered map[string]bool) []string {
	computed := map[string]bool{}
	for zhHex, file := range sums {
		p := platformOf(file)
		if !covered[p] {
			continue
		}
		u := r.Downloads[p]
		if u == "" {
			if first := firstDownload(r); first != "" {
				u = strings.TrimSuffix(first, filepath.Base(first)) + file
			}
		}
		if u == "" {
			continue
		}
		zip, err := v.get(ctx, u, 1<<30)
		if err != nil {
			return []string{fmt.Sprintf("the package for %s could not be downloaded to check `h1:` (%v)", p, err)}
		}
		sum := sha256.Sum256(zip)
		if hex.EncodeToString(sum[:]) != zhHex {
			return []string{fmt.Sprintf("the package downloaded for %s is not the one the SHA256SUMS names", p)}
		}
		tmp, err := os.CreateTemp("", "planpr-provider-*.zip")
		if err != nil {
			return []string{err.Error()}
		}
		tmp.Write(zip)
		tmp.Close()
		h, err := dirhash.HashZip(tmp.Name(), dirhash.Hash1)
		os.Remove(tmp.Name())
		if err != nil {
			return []string{fmt.Sprintf("the package for %s is not a zip (%v)", p, err)}
		}
		computed[h] = true
	}
	var alerts []string
	for _, h := range d.After.Hashes {
		if strings.HasPrefix(h, "h1:") && !computed[h] {
			alerts = append(alerts, fmt.Sprintf("`%s` is not the h1: hash of any package the registry signed", short(h)))
		}
	}
	return alerts
}

func firstDownload(r *release) string {
	for _, u := range r.Downloads {
		return u
	}
	return ""
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
		for _, item := range strings.FieldsFunc(spec, func(r rune) bool { return r == ',' || r == '\n' || r == ' ' || r == '\t' }) {
			host, u, ok := strings.Cut(item, "=")
			parsed, err := url.Parse(u)
			if !ok || !hostPart.MatchString(host) || err != nil || (parsed.Scheme != "https" && parsed.Scheme != "http") || parsed.Host == "" {
				return nil, fmt.Errorf("registry %q: want HOST=URL, e.g. registry.opentofu.org=https://mirror.example.com/v1/providers/", item)
			}
			out[strings.ToLower(host)] = u
		}
	}
	return out, nil
}
