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

	"github.com/planpr/planpr/bot/gh"
)

// Limits on artifacts, which come from untrusted workflows.
const (
	MaxZip   = 200 << 20 // compressed
	MaxFiles = 1000
	MaxTotal = 500 << 20 // uncompressed, all files
)

// Limits on one job of the App, over every artifact it downloads: a
// commit's runs may each carry planpr artifacts, and a fork decides how
// many and how large.
const (
	JobArtifacts = 20        // artifacts downloaded
	JobRuns      = 10        // other completed runs of a commit looked at
	JobBytes     = 500 << 20 // unpacked, all artifacts
)

// Budget is what one job may still unpack. A nil *Budget is MaxTotal per
// artifact alone.
type Budget struct {
	Artifacts int   // downloads left
	Bytes     int64 // unpacked bytes left
}

// NewJobBudget is the budget of one job: JobArtifacts and JobBytes.
func NewJobBudget() *Budget { return &Budget{Artifacts: JobArtifacts, Bytes: JobBytes} }

// Take counts one more artifact; an error when none are left.
func (b *Budget) Take() error {
	if b == nil {
		return nil
	}
	if b.Artifacts <= 0 {
		return fmt.Errorf("more than %d artifacts in one job: the rest are not downloaded", JobArtifacts)
	}
	if b.Bytes <= 0 {
		return fmt.Errorf("the job's artifacts already unpack to %d MB: the rest are not downloaded", JobBytes>>20)
	}
	b.Artifacts--
	return nil
}

// Read reports whether an artifact's file is one planpr reads: plan
// JSON, UI streams (.jsonl, .log), schemas, scanners' reports (.sarif)
// and the pack's planpr.json. Nothing else is written to disk.
func Read(name string) bool {
	base := path.Base(name)
	return strings.HasSuffix(base, ".json") || strings.HasSuffix(base, ".jsonl") || strings.HasSuffix(base, ".log") || strings.HasSuffix(base, ".sarif")
}

// Download fetches an artifact's zip from its pre-signed URL,
// without our token (it must not leak to the storage host).
func Download(ctx context.Context, url string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		// A connection refused or a timeout is the network's fault: the
		// caller tries again (the error keeps what it wraps).
		return nil, fmt.Errorf("downloading the artifact: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		// A 5xx or 429 of the storage is temporary, a 404 or 410 is not.
		return nil, &gh.StatusError{What: "downloading the artifact", Status: resp.StatusCode, Message: http.StatusText(resp.StatusCode)}
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, MaxZip+1))
	if err != nil {
		return nil, fmt.Errorf("downloading the artifact: %w", err)
	}
	if len(b) > MaxZip {
		return nil, fmt.Errorf("the artifact is over %d MB", MaxZip>>20)
	}
	return b, nil
}

// Unpack extracts the files planpr reads (see Read) of a zip into dir,
// refusing paths that leave it, links, and anything over the size and
// count limits or what budget has left (nil: MaxTotal alone).
func Unpack(zipData []byte, dir string, budget *Budget) error {
	if err := checkZipDirectory(zipData); err != nil {
		return err
	}
	zr, err := zip.NewReader(bytes.NewReader(zipData), int64(len(zipData)))
	if err != nil {
		return fmt.Errorf("the artifact is not a zip: %w", err)
	}
	if len(zr.File) > MaxFiles {
		return fmt.Errorf("the artifact has %d files, more than %d", len(zr.File), MaxFiles)
	}
	// limit bounds what this artifact unpacks to, all files together.
	limit := int64(MaxTotal)
	if budget != nil {
		limit = min(limit, budget.Bytes)
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
		if !Read(name) {
			continue
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
			return fmt.Errorf("the artifact's %s: %w", f.Name, err)
		}
		out, err := os.OpenFile(target, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
		if err != nil {
			rc.Close()
			return err
		}
		// Count what is really written, not what the header claims.
		n, err := io.Copy(out, io.LimitReader(rc, limit-total+1))
		rc.Close()
		out.Close()
		if err != nil {
			return fmt.Errorf("the artifact's %s: %w", f.Name, err)
		}
		total += n
		if total > MaxTotal {
			return fmt.Errorf("the artifact unpacks to more than %d MB", MaxTotal>>20)
		}
		if total > limit {
			budget.Bytes = 0 // spent: the rest are refused before they are downloaded
			return fmt.Errorf("the job's artifacts unpack to more than %d MB", JobBytes>>20)
		}
	}
	if budget != nil {
		budget.Bytes -= total
	}
	return nil
}

// maxZipDirectory bounds the central directory: an entry takes 46 bytes and
// its name, and names longer than a few hundred bytes are no plan's.
const maxZipDirectory = MaxFiles * 1024

// checkZipDirectory counts a zip's entries by walking its central
// directory, record by record, before archive/zip parses it into memory.
// The end record's counts are not believed: archive/zip reads records
// until they stop and checks the count only modulo 65,536, so a
// directory of 2,097,153 entries under a count of 1 was parsed whole
// (628 MB). The walk stops past MaxFiles records or maxZipDirectory bytes,
// from each place archive/zip may start reading.
func checkZipDirectory(data []byte) error {
	const eocdLen = 22
	start := max(0, len(data)-eocdLen-0xffff)
	i := bytes.LastIndex(data[start:], []byte("PK\x05\x06"))
	if i < 0 || start+i+eocdLen > len(data) {
		return nil // not a zip: archive/zip says so
	}
	endPos := uint64(start + i)
	eocd := data[endPos:]
	size := uint64(binary.LittleEndian.Uint32(eocd[12:]))
	offset := uint64(binary.LittleEndian.Uint32(eocd[16:]))
	if loc := int(endPos) - 20; loc >= 0 && bytes.Equal(data[loc:loc+4], []byte("PK\x06\x07")) {
		off := binary.LittleEndian.Uint64(data[loc+8:])
		if len(data) >= 56 && off <= uint64(len(data))-56 && bytes.Equal(data[off:off+4], []byte("PK\x06\x06")) {
			size = binary.LittleEndian.Uint64(data[off+40:])
			offset = binary.LittleEndian.Uint64(data[off+48:])
			endPos = off
		}
	}
	starts := []uint64{offset}
	if endPos >= size && endPos-size != offset {
		starts = append(starts, endPos-size) // where archive/zip looks when data comes before the zip
	}
	for _, at := range starts {
		if err := walkZipDirectory(data, at); err != nil {
			return err
		}
	}
	return nil
}

// walkZipDirectory counts the central directory records from at.
func walkZipDirectory(data []byte, at uint64) error {
	const recordLen = 46
	entries := 0
	for pos := at; pos <= uint64(len(data)) && uint64(len(data))-pos >= recordLen && bytes.Equal(data[pos:pos+4], []byte("PK\x01\x02")); {
		entries++
		if entries > MaxFiles {
			return fmt.Errorf("the artifact has more than %d files", MaxFiles)
		}
		rec := data[pos:]
		pos += recordLen + uint64(binary.LittleEndian.Uint16(rec[28:])) + uint64(binary.LittleEndian.Uint16(rec[30:])) + uint64(binary.LittleEndian.Uint16(rec[32:]))
		if pos-at > maxZipDirectory {
			return fmt.Errorf("the artifact's list of files is more than %d KB", maxZipDirectory>>10)
		}
	}
	return nil
}
