package artifact

import (
	"archive/zip"
	"bytes"
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/planpr/planpr/bot/githubtest"
)

func TestUnpackRefusesUnsafeArchives(t *testing.T) {
	for name, files := range map[string]map[string]string{
		"traversal": {"../../etc/passwd": "x"},
		"absolute":  {"/etc/passwd": "x"},
		"windows":   {`..\..\x`: "x"},
	} {
		if err := Unpack(githubtest.Zip(files), t.TempDir()); err == nil || !strings.Contains(err.Error(), "unsafe path") {
			t.Errorf("%s: %v", name, err)
		}
	}
	if err := Unpack([]byte("not a zip"), t.TempDir()); err == nil {
		t.Error("accepted a non-zip")
	}
	dir := t.TempDir()
	if err := Unpack(githubtest.Zip(map[string]string{"a/b/plan.json": "{}"}), dir); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir + "/a/b/plan.json"); err != nil {
		t.Error(err)
	}
}

// TestL3ZipDirectoryCheckedFirst: a zip's central directory of 500,000
// entries was parsed (155 MB) before the file count was checked. The end
// records are read first now.
func TestL3ZipDirectoryCheckedFirst(t *testing.T) {
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
	err := Unpack(buf.Bytes(), t.TempDir())
	runtime.ReadMemStats(&m)
	if err == nil || !strings.Contains(err.Error(), "100000 files, more than 1000") {
		t.Fatalf("err = %v", err)
	}
	if used := m.TotalAlloc - before; used > 1<<20 {
		t.Errorf("refusing the artifact allocated %d KB", used>>10)
	}
	// An ordinary artifact still unpacks.
	if err := Unpack(githubtest.Zip(map[string]string{"plan.json": "{}"}), t.TempDir()); err != nil {
		t.Error(err)
	}
}
