// Package artifact owns what comes from untrusted workflows as artifacts:
// downloading a zip from its pre-signed URL without planpr's token, and
// unpacking it safely (no path traversal, no links, caps on size, file
// count and directory, checked before the zip is parsed).
package artifact

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/binary"
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
	MaxZip   = 200 << 20 // compressed
	MaxFiles = 1000
	MaxTotal = 500 << 20 // uncompressed, all files
)

// Download fetches an artifact's zip from its pre-signed URL,
// without our token (it must not leak to the storage host).
func Download(ctx context.Context, url string) ([]byte, error) {
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
	b, err := io.ReadAll(io.LimitReader(resp.Body, MaxZip+1))
	if err != nil {
		return nil, err
	}
	if len(b) > MaxZip {
		return nil, fmt.Errorf("the artifact is over %d MB", MaxZip>>20)
	}
	return b, nil
}

// Unpack extracts a zip into dir, refusing paths that leave it, links, and
// anything over the size and count limits.
func Unpack(zipData []byte, dir string) error {
	if err := checkZipDirectory(zipData); err != nil {
		return err
	}
	zr, err := zip.NewReader(bytes.NewReader(zipData), int64(len(zipData)))
	if err != nil {
		return fmt.Errorf("the artifact is not a zip: %v", err)
	}
	if len(zr.File) > MaxFiles {
		return fmt.Errorf("the artifact has %d files, more than %d", len(zr.File), MaxFiles)
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
		n, err := io.Copy(out, io.LimitReader(rc, MaxTotal-total+1))
		rc.Close()
		out.Close()
		if err != nil {
			return fmt.Errorf("the artifact's %s: %v", f.Name, err)
		}
		total += n
		if total > MaxTotal {
			return fmt.Errorf("the artifact unpacks to more than %d MB", MaxTotal>>20)
		}
	}
	return nil
}

// maxZipDirectory bounds the central directory: an entry takes 46 bytes and
// its name, and names longer than a few hundred bytes are no plan's.
const maxZipDirectory = MaxFiles * 1024

// checkZipDirectory reads the count and size of a zip's entries from its
// end records before archive/zip parses them all into memory: a central
// directory of 500,000 entries took 155 MB to be refused.
func checkZipDirectory(data []byte) error {
	const eocdLen = 22
	start := max(0, len(data)-eocdLen-0xffff)
	i := bytes.LastIndex(data[start:], []byte("PK\x05\x06"))
	if i < 0 || start+i+eocdLen > len(data) {
		return nil // not a zip: archive/zip says so
	}
	eocd := data[start+i:]
	entries := uint64(binary.LittleEndian.Uint16(eocd[10:]))
	size := uint64(binary.LittleEndian.Uint32(eocd[12:]))
	if loc := start + i - 20; (entries == 0xffff || size == 0xffffffff) && loc >= 0 && bytes.Equal(data[loc:loc+4], []byte("PK\x06\x07")) {
		off := binary.LittleEndian.Uint64(data[loc+8:])
		if off+56 <= uint64(len(data)) && bytes.Equal(data[off:off+4], []byte("PK\x06\x06")) {
			entries = binary.LittleEndian.Uint64(data[off+32:])
			size = binary.LittleEndian.Uint64(data[off+40:])
		}
	}
	if entries > MaxFiles {
		return fmt.Errorf("the artifact has %d files, more than %d", entries, MaxFiles)
	}
	if size > maxZipDirectory {
		return fmt.Errorf("the artifact's list of files is %d KB, more than %d KB", size>>10, maxZipDirectory>>10)
	}
	return nil
}
