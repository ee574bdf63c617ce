package uistream

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestIsStream(t *testing.T) {
	version := `{"@level":"info","@message":"OpenTofu 1.9.0","@module":"tofu.ui","terraform":"1.9.0","type":"version","ui":"1.2"}`
	for _, c := range []struct {
		name, text string
		want       bool
	}{
		{"stream", version + "\n" + `{"type":"log"}` + "\n", true},
		{"one message", version, true},
		{"plan", `{"format_version":"1.2","resource_changes":[]}`, false},
		{"plan on one long line", `{"format_version":"1.2","variables":{"v":{"value":"` + strings.Repeat("x", 3*maxFirstLine) + `"}}}`, false},
		{"log line without a level", `{"type":"log","@message":"hi"}` + "\n", false},
		{"stream without its version line", `{"@level":"info","@message":"Plan: 1 to add","@module":"terraform.ui","type":"change_summary","changes":{"add":1,"change":0,"remove":0,"operation":"plan"}}` + "\n", true},
		{"level and message but no type", `{"@level":"info","@message":"hi"}` + "\n", false},
	} {
		if got := IsStream(nil, writeFile(t, c.name, c.text)); got != c.want {
			t.Errorf("%s: IsStream = %v, want %v", c.name, got, c.want)
		}
	}
	if IsStream(nil, filepath.Join(t.TempDir(), "missing")) {
		t.Error("a missing file is a stream")
	}
}

// A plan is one line of any length: telling it from a stream must not
// read it all, nor wait for a writer. Here the writer never finishes, so
// reading to the end of the line would block (and inputs that are not
// regular files are refused anyway).
func TestIsStreamReadsOnlyTheStart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "plan.fifo")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skip("no named pipes here:", err)
	}
	w := make(chan *os.File, 1)
	go func() {
		f, err := os.OpenFile(path, os.O_RDWR, 0) // does not wait for a reader
		if err != nil {
			w <- nil
			return
		}
		f.WriteString(`{"format_version":"1.2","variables":{"v":{"value":"` + strings.Repeat("x", maxFirstLine/2)) // less than a pipe holds
		w <- f                                                                                                     // held open: the line never ends
	}()
	got := make(chan bool, 1)
	go func() { got <- IsStream(nil, path) }()
	select {
	case isStream := <-got:
		if isStream {
			t.Error("a plan's first line read as a stream")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("IsStream waited for the end of the plan's first line")
	}
	if f := <-w; f != nil {
		f.Close()
	}
}
