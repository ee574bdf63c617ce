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
	b, err := json.Marshal(map[string]any{"format_version": version, "provider_schemas": merged})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, "schemas.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"testdata", "cmd", "go.mod", "go.sum"} {
		if err := os.Symlink(filepath.Join(root, name), filepath.Join(ws, name)); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"add", "-A"}, {"-c", "user.email=d@e", "-c", "user.name=d", "commit", "-q", "-m", "docs"}} {
		if out, err := exec.Command("git", append([]string{"-C", ws}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	for _, doc := range commands {
		c := strings.ReplaceAll(doc, "go run ./cmd/planpr ", bin+" ")
		c = regexp.MustCompile(`(^|&& )planpr `).ReplaceAllString(c, "${1}"+bin+" ")
		c = strings.ReplaceAll(c, "/tmp/planpr.html", filepath.Join(t.TempDir(), "planpr.html"))
		cmd := exec.Command("bash", "-c", c)
		cmd.Dir = ws
		out, err := cmd.Output()
		if err != nil {
			var stderr []byte
			if ee, ok := err.(*exec.ExitError); ok {
				stderr = ee.Stderr
			}
			t.Errorf("%s: %v\n%s%s", doc, err, out, stderr)
			continue
		}
		// What each command is for, its output must show: exit 0 with
		// the wrong output is no working recipe.
		var wants []string
		for pattern, w := range docsCommandShows {
			if regexp.MustCompile(pattern).MatchString(doc) {
				wants = w
			}
		}
		if wants == nil {
			t.Errorf("%s: say in docsCommandShows what its output must show", doc)
		}
		for _, want := range wants {
			if !strings.Contains(string(out), want) {
				t.Errorf("%s: the output lacks %q:\n%s", doc, want, out)
			}
		}
		if strings.Contains(doc, "--html preview.html") {
			if page, err := os.ReadFile(filepath.Join(ws, "preview.html")); err != nil || !strings.Contains(string(page), "<details") {
				t.Errorf("%s wrote no preview with the comment's sections (%v)", doc, err)
			}
		}
	}
	t.Logf("%d commands from the README and docs ran", len(commands))
}

// docsCommandShows says, for each command the docs show (a pattern over
// the command as written), what its output must hold.
var docsCommandShows = map[string][]string{
	`dry-run .*testdata/example/plan.json && go run ./cmd/planpr lockdiff`: {
		"## ⚠️ planpr · example: 2 to add, 2 to change, 2 to destroy", "registry.opentofu.org/hashicorp/aws  upgraded 5.82.2 → 6.0.0"},
	`^planpr dry-run --html preview.html plan.json$`:                     {"2 to add, 2 to change, 2 to destroy", "<details>"},
	`^planpr render --schemas schemas.json plan.json$`:                   {"Plan: 2 to add, 2 to change, 2 to destroy.", "# aws_db_instance.main must be replaced"},
	`^planpr render --schemas schemas.json state.json$`:                  {`data "test_data_source" "data" {`},
	`^planpr render --format markdown state.json$`:                       {"## 📦 planpr: state — 2 resources in 1 module, 1 output"},
	`^planpr render --format markdown --key prod`:                        {"key=prod", "2 to add, 2 to change, 2 to destroy"},
	`^planpr render --format markdown prod=envs/prod/plan.json staging=`: {"| `prod` |", "| `staging` |"},
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
