package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestDocsCommandsRun: every planpr command the README and docs/ show in
// a shell block runs, with the files it names taken from testdata: a
// flag or a command that drifted from the docs fails here. The README's
// first line (the example comment and lock review) runs as written.
func TestDocsCommandsRun(t *testing.T) {
	if testing.Short() {
		t.Skip("builds planpr")
	}
	root, _ := filepath.Abs("../..")
	bin := filepath.Join(t.TempDir(), "planpr")
	build := exec.Command("go", "build", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	docs, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	var commands []string
	for _, f := range append([]string{filepath.Join(root, "README.md")}, docs...) {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, block := range regexp.MustCompile("(?s)```(?:sh|console|bash)\n(.*?)```").FindAllStringSubmatch(string(b), -1) {
			for _, line := range strings.Split(block[1], "\n") {
				line = strings.TrimPrefix(strings.TrimSpace(line), "$ ")
				if line, _, _ = strings.Cut(line, "  #"); strings.HasPrefix(line, "planpr ") || strings.HasPrefix(line, "go run ./cmd/planpr ") {
					commands = append(commands, strings.TrimSpace(line))
				}
			}
		}
	}
	if len(commands) < 5 {
		t.Fatalf("found only %d commands in the docs", len(commands))
	}
	// A workspace holding the files the docs name, as a git checkout.
	ws := t.TempDir()
	example := filepath.Join(root, "testdata", "example")
	for to, from := range map[string]string{
		"plan.json": "plan.json", "envs/prod/plan.json": "plan.json", "envs/staging/plan.json": "plan.json",
		"before.hcl": "before.terraform.lock.hcl", "after.hcl": "after.terraform.lock.hcl",
	} {
		copyTo(t, filepath.Join(example, from), filepath.Join(ws, to))
	}
	copyTo(t, filepath.Join(root, "render", "comment", "testdata", "states", "basic.json"), filepath.Join(ws, "state.json"))
	// One schemas.json for the plan and the state, as one working directory's.
	merged := map[string]any{}
	var version any
	for _, f := range []string{filepath.Join(example, "schemas.json"), filepath.Join(root, "render", "comment", "testdata", "states", "schemas.json")} {
		var doc map[string]any
		b, _ := os.ReadFile(f)
		if err := json.Unmarshal(b, &doc); err != nil {
			t.Fatal(err)
		}
		version = doc["format_version"]
		for k, v := range doc["provider_schemas"].(map[string]any) {
			merged[k] = v
		}
	}
	b, _ := json.Marshal(map[string]any{"format_version": version, "provider_schemas": merged})
	os.WriteFile(filepath.Join(ws, "schemas.json"), b, 0o644)
	os.Symlink(filepath.Join(root, "testdata"), filepath.Join(ws, "testdata"))
	os.Symlink(filepath.Join(root, "cmd"), filepath.Join(ws, "cmd"))
	os.Symlink(filepath.Join(root, "go.mod"), filepath.Join(ws, "go.mod"))
	os.Symlink(filepath.Join(root, "go.sum"), filepath.Join(ws, "go.sum"))
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"add", "-A"}, {"-c", "user.email=d@e", "-c", "user.name=d", "commit", "-q", "-m", "docs"}} {
		if out, err := exec.Command("git", append([]string{"-C", ws}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	for _, c := range commands {
		c = strings.ReplaceAll(c, "go run ./cmd/planpr ", bin+" ")
		c = regexp.MustCompile(`(^|&& )planpr `).ReplaceAllString(c, "${1}"+bin+" ")
		c = strings.ReplaceAll(c, "/tmp/planpr.html", filepath.Join(t.TempDir(), "planpr.html"))
		cmd := exec.Command("bash", "-c", c)
		cmd.Dir = ws
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("%s: %v\n%s", c, err, out)
		}
	}
	t.Logf("%d commands from the README and docs ran", len(commands))
}

func copyTo(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Dir(to), 0o755)
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
