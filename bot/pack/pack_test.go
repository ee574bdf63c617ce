package pack

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestWrite: a root's files and its manifest land in a directory of its
// own; a root outside the repository is refused.
func TestWrite(t *testing.T) {
	src := t.TempDir()
	plan := filepath.Join(src, "plan.json")
	stream := filepath.Join(src, "plan.jsonl")
	schemas := filepath.Join(src, "s.json")
	for _, f := range []string{plan, stream, schemas} {
		os.WriteFile(f, []byte("{}"), 0o644)
	}
	out := t.TempDir()
	var said []string
	logf := func(format string, args ...any) { said = append(said, fmt.Sprintf(format, args...)) }
	err := Write(out, []Root{{Name: "prod", Root: "envs/prod", Path: plan, Streams: []string{stream}}}, schemas, Manifest{PR: 2, SHA: "abc"}, logf)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"plan.json", "plan.jsonl", "schemas.json", "planpr.json"} {
		if _, err := os.Stat(filepath.Join(out, "envs__prod", f)); err != nil {
			t.Errorf("%s not packed: %v", f, err)
		}
	}
	var m Manifest
	b, _ := os.ReadFile(filepath.Join(out, "envs__prod", "planpr.json"))
	if err := json.Unmarshal(b, &m); err != nil || m.Root != "envs/prod" || m.PR != 2 || m.SHA != "abc" || len(said) != 1 {
		t.Errorf("manifest %+v %v, said %q", m, err, said)
	}
	if err := Write(out, []Root{{Name: "x", Root: "../x", Path: plan}}, "", Manifest{}, logf); err == nil {
		t.Error("a root outside the repository was packed")
	}
}
