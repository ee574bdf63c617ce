package uistream

import (
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/planpr/planpr/render/tofujson"
	"github.com/planpr/planpr/render/tofujson/internal/jsontest"
)

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	return jsontest.Write(t, name, content)
}

// TestUTF16Stream: a stream written as UTF-16 is read as its text.
func TestUTF16Stream(t *testing.T) {
	stream := `{"@level":"info","type":"version","terraform":"1.9.0","ui":"1.2"}` + "\n" +
		`{"@level":"info","type":"change_summary","changes":{"add":1,"change":0,"remove":0,"operation":"plan"}}` + "\n"
	path := writeFile(t, "plan.jsonl", string(jsontest.UTF16(stream, binary.LittleEndian, true)))
	if !IsStream(nil, path) {
		t.Error("a UTF-16 stream is not known as a stream")
	}
	n := 0
	if _, err := ReadStreamFile(nil, path, func(*Message) error { n++; return nil }); err != nil || n != 2 {
		t.Errorf("a UTF-16 stream: %d messages, %v", n, err)
	}
}

// TestStreamInputsRefused: a FIFO or a directory given as a stream is
// refused by name, never waited on.
func TestStreamInputsRefused(t *testing.T) {
	read := func(p string) error {
		_, err := ReadStreamFile(nil, p, func(*Message) error { return nil })
		return err
	}
	dir := t.TempDir()
	var ie *tofujson.InputError
	if err := read(dir); !errors.As(err, &ie) || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("a directory: %v", err)
	}
	path := filepath.Join(t.TempDir(), "plan.jsonl")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skip("no named pipes here:", err)
	}
	done := make(chan error, 1)
	go func() { done <- read(path) }()
	select {
	case err := <-done:
		if !errors.As(err, &ie) || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("a FIFO: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("reading a FIFO with no writer blocked")
	}
	if IsStream(nil, path) {
		t.Error("a FIFO is a stream")
	}
}

// TestRawNULInStreamIsRefused: a raw NUL inside a JSON string is not JSON;
// the stream reader refuses it with its place.
func TestRawNULInStreamIsRefused(t *testing.T) {
	path := writeFile(t, "in.jsonl", `{"@level":"info","@message":"x`+"\x00"+`y","type":"version","ui":"1.2"}`+"\n")
	_, err := ReadStreamFile(nil, path, func(*Message) error { return nil })
	var ie *tofujson.InputError
	if !errors.As(err, &ie) || ie.File != path || !strings.Contains(err.Error(), "1:") {
		t.Errorf("err = %v, want an InputError for %s on line 1", err, path)
	}
}

// FuzzReadStream checks that no input makes the UI-stream reader panic.
func FuzzReadStream(f *testing.F) {
	f.Add([]byte(`{"type":"version","ui":"1.0","terraform":"1.9.0"}` + "\n" + `{"type":"change_summary","changes":{"add":1}}` + "\n"))
	f.Add([]byte(`{"type":"version","ui":"1.2"}` + "\n" + `{"type":"diagnostic","diagnostic":{"severity":"error","snippet":{"code":"x","highlight_start_offset":9}}}`))
	f.Add([]byte(`{"type":"version","ui":"2.0"}`))
	f.Add([]byte("{\"type\":\"version\",\"ui\":\"1.0\"}\n{\"type\":\"outp"))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(dir, "stream.jsonl")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := ReadStreamFile(nil, path, func(*Message) error { return nil }); err != nil {
			if _, ok := err.(*tofujson.InputError); !ok {
				t.Fatalf("error of type %T: %v", err, err)
			}
		}
	})
}
