package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// maxPackageLines bounds a package's code (tests aside): past it, a
// package holds more than one idea and is split.
const maxPackageLines = 2500

// TestPackageSizes keeps every package under maxPackageLines.
func TestPackageSizes(t *testing.T) {
	root, _ := filepath.Abs("../..")
	lines := map[string]int{}
	filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		lines[rel] += bytes.Count(b, []byte("\n"))
		return nil
	})
	if len(lines) < 10 {
		t.Fatalf("found only %d packages", len(lines))
	}
	for pkg, n := range lines {
		if n > maxPackageLines {
			t.Errorf("%s is %d lines, more than %d: split it", pkg, n, maxPackageLines)
		}
	}
}
