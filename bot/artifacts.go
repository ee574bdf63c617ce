package bot

import (
	"archive/zip"
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// Limits on artifacts, which come from untrusted workflows.
const (
	maxArtifactZip   = 200 << 20 // compressed
	maxArtifactFiles = 1000
	maxArtifactTotal = 500 << 20 // uncompressed, all files
)

// downloadArtifact fetches an artifact's zip from its pre-signed URL,
// without our token (it must not leak to the storage host).
func downloadArtifact(ctx context.Context, url string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, fmt.Errorf("downloading the artifact: %v", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("downloading the artifact: %s", resp.Status)
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, maxArtifactZip+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxArtifactZip {
		return nil, fmt.Errorf("the artifact is over %d MB", maxArtifactZip>>20)
	}
	return b, nil
}

// unpack extracts a zip into dir, refusing paths that leave it, links, and
// anything over the size and count limits.
func unpack(zipData []byte, dir string) error {
	zr, err := zip.NewReader(bytes.NewReader(zipData), int64(len(zipData)))
	if err != nil {
		return fmt.Errorf("the artifact is not a zip: %v", err)
	}
	if len(zr.File) > maxArtifactFiles {
		return fmt.Errorf("the artifact has %d files, more than %d", len(zr.File), maxArtifactFiles)
	}
	var total int64
	for _, f := range zr.File {
		name := path.Clean(strings.ReplaceAll(f.Name, `\`, "/"))
		if name == "." || strings.HasPrefix(name, "../") || name == ".." || path.IsAbs(name) || strings.Contains(name, ":") {
			return fmt.Errorf("the artifact has an unsafe path %q", f.Name)
		}
		mode := f.Mode()
		if mode.IsDir() {
			continue
		}
		if !mode.IsRegular() {
			return fmt.Errorf("the artifact has a link or special file %q", f.Name)
		}
		target := filepath.Join(dir, filepath.FromSlash(name))
		if !strings.HasPrefix(target, filepath.Clean(dir)+string(filepath.Separator)) {
			return fmt.Errorf("the artifact has an unsafe path %q", f.Name)
		}
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return err
		}
		rc, err := f.Open()
		if err != nil {
			return fmt.Errorf("the artifact's %s: %v", f.Name, err)
		}
		out, err := os.OpenFile(target, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
		if err != nil {
			rc.Close()
			return err
		}
		// Count what is really written, not what the header claims.
		n, err := io.Copy(out, io.LimitReader(rc, maxArtifactTotal-total+1))
		rc.Close()
		out.Close()
		if err != nil {
			return fmt.Errorf("the artifact's %s: %v", f.Name, err)
		}
		total += n
		if total > maxArtifactTotal {
			return fmt.Errorf("the artifact unpacks to more than %d MB", maxArtifactTotal>>20)
		}
	}
	return nil
}
