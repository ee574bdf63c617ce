package comment

import (
	"bytes"
	"os"
	"testing"

	"github.com/planpr/planpr/lockdiff"
	"github.com/planpr/planpr/render/lockreport"
)

func exampleLockDiff(t *testing.T) []*lockdiff.FileDiff {
	t.Helper()
	read := func(path string) *lockdiff.LockFile {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		lf, diags := lockdiff.Parse(src, path)
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		return lf
	}
	before := read("../../testdata/example/before.terraform.lock.hcl")
	after := read("../../testdata/example/after.terraform.lock.hcl")
	fd := lockdiff.Compare(".terraform.lock.hcl", before, after)
	cfg, diags := lockdiff.LoadConfig("../../testdata/example")
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	lockdiff.CrossCheck(fd, after, cfg)
	return []*lockdiff.FileDiff{fd}
}

func TestLockGolden(t *testing.T) {
	files := exampleLockDiff(t)
	for name, fn := range map[string]func(*bytes.Buffer, []*lockdiff.FileDiff) error{
		"lock.json": func(b *bytes.Buffer, f []*lockdiff.FileDiff) error { return lockreport.JSON(b, f) },
		"lock.txt":  func(b *bytes.Buffer, f []*lockdiff.FileDiff) error { return lockreport.Text(b, f) },
		"lock.md":   func(b *bytes.Buffer, f []*lockdiff.FileDiff) error { return lockreport.Markdown(b, f) },
	} {
		t.Run(name, func(t *testing.T) {
			var b bytes.Buffer
			if err := fn(&b, files); err != nil {
				t.Fatal(err)
			}
			golden(t, name, b.Bytes())
		})
	}
}
