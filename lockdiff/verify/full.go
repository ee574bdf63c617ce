package verify

import (
	"archive/zip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path"
	"strings"

	"golang.org/x/mod/sumdb/dirhash"
)

// Limits on a provider package inflated to compute its h1: hash: a zip
// bomb is refused, not inflated.
const (
	maxInflated     = 2 << 30 // all files of one package
	maxInflateRatio = 100     // inflated : compressed, per file
)

// hashPackages downloads the packages of the platforms the lock's zh:
// hashes cover, each checked against the signed checksums, and computes
// their h1: hashes. A problem is said in words and no hash is computed.
func (r *verifyRun) hashPackages(ctx context.Context, a *answer, covered map[string]bool) (map[string]bool, string) {
	computed := map[string]bool{}
	for zhHex, file := range a.Sums {
		p := platformOf(file)
		if !covered[p] {
			continue
		}
		raw := a.Downloads[p]
		if raw == "" {
			for _, first := range a.Downloads {
				raw = strings.TrimSuffix(first, path.Base(first)) + file
				break
			}
		}
		u, err := url.Parse(raw)
		if raw == "" || err != nil {
			return nil, fmt.Sprintf("the h1: hashes (the registry names no package to download for %s)", p)
		}
		h, problem := r.hashPackage(ctx, u, zhHex)
		if problem != "" {
			return nil, fmt.Sprintf("the h1: hashes (the package for %s %s)", p, problem)
		}
		computed[h] = true
	}
	return computed, ""
}

// hashPackage streams one package to a temporary file, no larger than the
// Verifier's MaxPackage, checks its SHA-256 against zhHex as it goes, and
// computes its h1: hash with bounded inflation.
func (r *verifyRun) hashPackage(ctx context.Context, u *url.URL, zhHex string) (string, string) {
	resp, err := r.do(ctx, u, true)
	if err != nil {
		r.v.Logger.Debug("provider package download failed", "reason", err.Error(), "detail", err.detail)
		return "", "could not be downloaded: " + err.Error()
	}
	defer resp.Body.Close()
	limit := cmpPositive(r.v.MaxPackage, DefaultMaxPackage)
	tmp, cerr := os.CreateTemp("", "planpr-provider-*.zip")
	if cerr != nil {
		return "", "could not be kept on disk"
	}
	defer os.Remove(tmp.Name())
	defer tmp.Close()
	sum := sha256.New()
	n, cerr := io.Copy(io.MultiWriter(tmp, sum), io.LimitReader(resp.Body, limit+1))
	switch {
	case cerr != nil:
		r.v.Logger.Debug("provider package download failed", "detail", cerr.Error())
		return "", "could not be downloaded: " + classify(cerr).Error()
	case n > limit:
		return "", fmt.Sprintf("is larger than %d MiB, the most planpr downloads", limit>>20)
	case hex.EncodeToString(sum.Sum(nil)) != zhHex:
		return "", "is not the one the SHA256SUMS names"
	}
	h, err2 := hashZipBounded(tmp, n)
	if err2 != nil {
		return "", err2.Error()
	}
	return h, ""
}

var errInflate = errors.New("inflates past what planpr reads (a zip bomb?)")

// hashZipBounded is dirhash's h1: of a zip, each file read through a
// limit of maxInflateRatio times its compressed size and maxInflated in
// all.
func hashZipBounded(f io.ReaderAt, size int64) (string, error) {
	zr, err := zip.NewReader(f, size)
	if err != nil {
		return "", errors.New("is not a zip")
	}
	byName := map[string]*zip.File{}
	var names []string
	for _, zf := range zr.File {
		if strings.Contains(zf.Name, "\n") || byName[zf.Name] != nil {
			return "", errors.New("has a file name h1: cannot hash")
		}
		byName[zf.Name] = zf
		names = append(names, zf.Name)
	}
	left := int64(maxInflated)
	return dirhash.Hash1(names, func(name string) (io.ReadCloser, error) {
		zf := byName[name]
		rc, err := zf.Open()
		if err != nil {
			return nil, err
		}
		allowed := min(left, max(int64(zf.CompressedSize64)*maxInflateRatio, 1<<20))
		return &boundedReader{rc: rc, left: allowed, spent: &left}, nil
	})
}

// boundedReader fails once more than left bytes are read.
type boundedReader struct {
	rc    io.ReadCloser
	left  int64
	spent *int64
}

func (b *boundedReader) Read(p []byte) (int, error) {
	n, err := b.rc.Read(p)
	b.left -= int64(n)
	*b.spent -= int64(n)
	if b.left < 0 || *b.spent < 0 {
		return n, errInflate
	}
	return n, err
}

func (b *boundedReader) Close() error { return b.rc.Close() }
