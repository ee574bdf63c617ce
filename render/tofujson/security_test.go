package tofujson

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// readers are every way planpr reads a JSON input.
var readers = map[string]func(path string) error{
	"plan":    func(p string) error { _, err := ReadPlanFile(p, nil); return err },
	"state":   func(p string) error { _, err := ReadStateFile(p, &StateVisitor{}); return err },
	"schemas": func(p string) error { _, err := ReadSchemasFile(p); return err },
}

func wantInputError(t *testing.T, err error, path, contains string) {
	t.Helper()
	var ie *InputError
	if !errors.As(err, &ie) || ie.File != path || !strings.Contains(err.Error(), contains) {
		t.Errorf("err = %v, want an InputError for %s containing %q", err, path, contains)
	}
}

// TestFIFOInputIsRefused: a FIFO input blocked forever (open waits for a
// writer).
func TestFIFOInputIsRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "plan.json")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skip("no named pipes here:", err)
	}
	for name, read := range readers {
		done := make(chan error, 1)
		go func() { done <- read(path) }()
		select {
		case err := <-done:
			wantInputError(t, err, path, "not a regular file")
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: reading a FIFO with no writer blocked", name)
		}
	}
}

// TestDirectoryInputIsRefused: a directory read as "the file is empty".
func TestDirectoryInputIsRefused(t *testing.T) {
	dir := t.TempDir()
	for name, read := range readers {
		t.Run(name, func(t *testing.T) { wantInputError(t, read(dir), dir, "is a directory") })
	}
}

// TestRawNULInStringsIsRefused: a raw NUL inside a JSON string is not
// JSON; every reader refuses it with its place.
func TestRawNULInStringsIsRefused(t *testing.T) {
	docs := map[string]string{
		"plan":    `{"format_version":"1.2","resource_changes":[{"address":"a_b.c","mode":"managed","type":"a_b","name":"c","provider_name":"p","change":{"actions":["create"],"before":null,"after":{"x":"a` + "\x00" + `b"},"after_unknown":{},"before_sensitive":false,"after_sensitive":{}}}]}`,
		"state":   `{"format_version":"1.0","values":{"root_module":{"resources":[{"address":"a.b","mode":"managed","type":"a","name":"b","provider_name":"p","values":{"x":"a` + "\x00" + `b"},"sensitive_values":{}}]}}}`,
		"schemas": `{"format_version":"1.0","provider_schemas":{"p` + "\x00" + `":{}}}`,
	}
	for name, doc := range docs {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "in.json")
			if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
				t.Fatal(err)
			}
			wantInputError(t, readers[name](path), path, "1:")
		})
	}
}

// TestDuplicateTopLevelMembers: a second "resource_changes" silently
// replaced the first, so a plan with changes read as "no changes".
func TestDuplicateTopLevelMembers(t *testing.T) {
	change := `{"address":"a_b.c","mode":"managed","type":"a_b","name":"c","provider_name":"p","change":{"actions":["create"],"before":null,"after":{"x":1},"after_unknown":{},"before_sensitive":false,"after_sensitive":{}}}`
	for name, doc := range map[string]string{
		"plan, empty second": `{"format_version":"1.2","resource_changes":[` + change + `],"resource_changes":[]}`,
		"plan, empty first":  `{"format_version":"1.2","resource_changes":[],"resource_changes":[` + change + `]}`,
		"plan, two versions": `{"format_version":"1.2","format_version":"9.0","resource_changes":[]}`,
		"state, two values":  `{"format_version":"1.0","values":{},"values":{}}`,
	} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "in.json")
			if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
				t.Fatal(err)
			}
			read := readers["plan"]
			if strings.HasPrefix(name, "state") {
				read = readers["state"]
			}
			wantInputError(t, read(path), path, "appears twice")
		})
	}
}
