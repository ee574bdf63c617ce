package artifact

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/planpr/planpr/bot/gh"
	"github.com/planpr/planpr/bot/githubtest"
)

func TestUnpackRefusesUnsafeArchives(t *testing.T) {
	for name, files := range map[string]map[string]string{
		"traversal": {"../../etc/passwd": "x"},
		"absolute":  {"/etc/passwd": "x"},
		"windows":   {`..\..\x`: "x"},
	} {
		if err := Unpack(githubtest.Zip(files), t.TempDir(), nil); err == nil || !strings.Contains(err.Error(), "unsafe path") {
			t.Errorf("%s: %v", name, err)
		}
	}
	if err := Unpack([]byte("not a zip"), t.TempDir(), nil); err == nil {
		t.Error("accepted a non-zip")
	}
	dir := t.TempDir()
	if err := Unpack(githubtest.Zip(map[string]string{"a/b/plan.json": "{}"}), dir, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir + "/a/b/plan.json"); err != nil {
		t.Error(err)
	}
}

// TestZipDirectoryCheckedFirst: a zip's central directory of 500,000
// entries was parsed (155 MB) before the file count was checked. The end
// records are read first now.
func TestZipDirectoryCheckedFirst(t *testing.T) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for i := range 100000 {
		if _, err := zw.CreateHeader(&zip.FileHeader{Name: fmt.Sprint(i), Method: zip.Store}); err != nil {
			t.Fatal(err)
		}
	}
	zw.Close()
	var m runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m)
	before := m.TotalAlloc
	err := Unpack(buf.Bytes(), t.TempDir(), nil)
	runtime.ReadMemStats(&m)
	if err == nil || !strings.Contains(err.Error(), "more than 1000 files") {
		t.Fatalf("err = %v", err)
	}
	if used := m.TotalAlloc - before; used > 1<<20 {
		t.Errorf("refusing the artifact allocated %d KB", used>>10)
	}
	// An ordinary artifact still unpacks.
	if err := Unpack(githubtest.Zip(map[string]string{"plan.json": "{}"}), t.TempDir(), nil); err != nil {
		t.Error(err)
	}
}

// TestZipEntryCountLies: an end record whose 16-bit count says 1 over a
// central directory of 65,537 records (archive/zip checks the count only
// modulo 65,536, and would parse them all) is refused by walking the
// records, before archive/zip parses any, and so is one whose directory
// size lies too.
func TestZipEntryCountLies(t *testing.T) {
	const n = 65537
	var dir bytes.Buffer
	for i := range n {
		rec := make([]byte, 46)
		copy(rec, "PK\x01\x02")
		name := fmt.Sprint(i % 10)
		binary.LittleEndian.PutUint16(rec[28:], uint16(len(name)))
		dir.Write(rec)
		dir.WriteString(name)
	}
	for name, size := range map[string]uint32{"honest size": uint32(dir.Len()), "lying size": 47} {
		t.Run(name, func(t *testing.T) {
			data := bytes.Clone(dir.Bytes())
			eocd := make([]byte, 22)
			copy(eocd, "PK\x05\x06")
			binary.LittleEndian.PutUint16(eocd[8:], n%65536)
			binary.LittleEndian.PutUint16(eocd[10:], n%65536)
			binary.LittleEndian.PutUint32(eocd[12:], size)
			binary.LittleEndian.PutUint32(eocd[16:], 0)
			data = append(data, eocd...)
			var m runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&m)
			before := m.TotalAlloc
			err := Unpack(data, t.TempDir(), nil)
			runtime.ReadMemStats(&m)
			if err == nil || !strings.Contains(err.Error(), "more than 1000 files") {
				t.Fatalf("err = %v", err)
			}
			if used := m.TotalAlloc - before; used > 1<<20 {
				t.Errorf("refusing the artifact allocated %d KB", used>>10)
			}
		})
	}
}

// FuzzZipDirectory: whatever the bytes, the directory check never panics,
// and a zip it lets through holds at most MaxFiles entries as archive/zip
// reads them.
func FuzzZipDirectory(f *testing.F) {
	f.Add(githubtest.Zip(map[string]string{"plan.json": "{}", "a/b.jsonl": "x"}))
	f.Add([]byte("PK\x05\x06\x00\x00\x00\x00\x01\x00\x01\x00\x2f\x00\x00\x00\x00\x00\x00\x00\x00\x00"))
	f.Add([]byte("not a zip"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if checkZipDirectory(data) != nil {
			return
		}
		if zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data))); err == nil && len(zr.File) > MaxFiles {
			t.Fatalf("%d entries let through", len(zr.File))
		}
	})
}

// TestDownloadErrorsKeepTheirClass: a storage that answers 503, or a
// connection refused, is an error the App retries (a *gh.StatusError that
// is Temporary, a net.Error); a 404 is not temporary.
func TestDownloadErrorsKeepTheirClass(t *testing.T) {
	for status, temporary := range map[int]bool{503: true, 429: true, 404: false, 410: false} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(status) }))
		_, err := Download(t.Context(), srv.URL)
		srv.Close()
		var se *gh.StatusError
		if !errors.As(err, &se) || se.Temporary() != temporary {
			t.Errorf("%d: %v (temporary %v)", status, err, temporary)
		}
	}
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	addr := ln.Addr().String()
	ln.Close()
	_, err := Download(t.Context(), "http://"+addr+"/zip")
	var ne net.Error
	if !errors.As(err, &ne) {
		t.Errorf("connection refused: %v is not a net.Error", err)
	}
}

// zip48 is a 48-byte file with a zip64 end locator before the end record,
// whose offset points past the data: the directory check read beyond it.
func zip48() []byte {
	data := make([]byte, 48)
	copy(data[6:], "PK\x06\x07")
	data[14] = 46 // the zip64 end record's offset: 2 bytes before the end
	copy(data[26:], "PK\x05\x06")
	return data
}

// TestShortZip64ArtifactIsAnErrorNotAPanic: a 48-byte zip whose zip64
// locator points past its end is no panic (the directory check's length
// underflowed, and every later delivery of the commit failed on it again).
func TestShortZip64ArtifactIsAnErrorNotAPanic(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	_ = Unpack(zip48(), dir, nil) // an empty zip to archive/zip: nothing written
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("wrote %d files", len(entries))
	}
	for n := range 60 { // every short length with a locator and an end record
		data := make([]byte, n)
		if n >= 42 {
			copy(data[n-42:], "PK\x06\x07")
			data[n-34] = byte(n - 2)
			copy(data[n-22:], "PK\x05\x06")
		}
		_ = checkZipDirectory(data)
	}
}

// TestUnpackWritesOnlyWhatPlanprReads: plans, streams, schemas and the
// pack's manifest are written; anything else in the zip is not.
func TestUnpackWritesOnlyWhatPlanprReads(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	zipData := githubtest.Zip(map[string]string{"prod/plan.json": "{}", "prod/plan.jsonl": "x", "apply.log": "y", "prod/planpr.json": "{}",
		"big.bin": strings.Repeat("z", 1<<20), "prod/.terraform/providers/p": "binary", "notes.txt": "hi"})
	if err := Unpack(zipData, dir, nil); err != nil {
		t.Fatal(err)
	}
	var got []string
	_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			got = append(got, filepath.ToSlash(rel))
		}
		return nil
	})
	slices.Sort(got)
	if want := []string{"apply.log", "prod/plan.json", "prod/plan.jsonl", "prod/planpr.json"}; !slices.Equal(got, want) {
		t.Errorf("written %q, want %q", got, want)
	}
}

// TestJobBudgetBoundsEveryArtifactTogether: one job unpacks at most
// JobBytes over all its artifacts and downloads at most JobArtifacts.
func TestJobBudgetBoundsEveryArtifactTogether(t *testing.T) {
	t.Parallel()
	b := &Budget{Artifacts: 3, Bytes: 3 << 20}
	one := githubtest.Zip(map[string]string{"plan.json": strings.Repeat("x", 2<<20)})
	if err := b.Take(); err != nil {
		t.Fatal(err)
	}
	if err := Unpack(one, t.TempDir(), b); err != nil {
		t.Fatalf("the first artifact: %v", err)
	}
	if b.Bytes != 1<<20 {
		t.Errorf("%d bytes left, want 1 MB", b.Bytes)
	}
	if err := b.Take(); err != nil {
		t.Fatal(err)
	}
	if err := Unpack(one, t.TempDir(), b); err == nil || !strings.Contains(err.Error(), "the job's artifacts unpack to more than") {
		t.Errorf("the second artifact over the budget: %v", err)
	}
	if err := b.Take(); err == nil || !strings.Contains(err.Error(), "already unpack to") {
		t.Errorf("a third download, the bytes spent: %v", err)
	}
	// Files each within what is left, together over it.
	b = &Budget{Artifacts: 1, Bytes: 1 << 20}
	many := githubtest.Zip(map[string]string{"a.json": strings.Repeat("x", 600<<10), "b.json": strings.Repeat("x", 600<<10)})
	if err := Unpack(many, t.TempDir(), b); err == nil || !strings.Contains(err.Error(), "the job's artifacts unpack to more than") {
		t.Errorf("two files of 600 KB with 1 MB left: %v", err)
	}
	b = &Budget{Artifacts: 1, Bytes: 1 << 20}
	b.Take()
	if err := b.Take(); err == nil || !strings.Contains(err.Error(), "artifacts in one job") {
		t.Errorf("a second download of one allowed: %v", err)
	}
}
