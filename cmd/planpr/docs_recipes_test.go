package main

import (
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// recipeBlock is a recipe shown in a doc: a marker naming its file (from
// the doc's directory), then the file's text as a YAML block.
var recipeBlock = regexp.MustCompile("(?s)<!-- recipe: (\\S+) [^\\n]*-->\\n```yaml\\n(.*?)```")

// TestDocsShowTheRecipes: the workflows the README and docs/action.md
// show are the files in testdata/workflows that the recipe tests run,
// word for word; every such file is shown; no other workflow is shown
// in those pages. `go test ./cmd/planpr -run TestDocsShowTheRecipes
// -update` writes the files' text into the docs.
func TestDocsShowTheRecipes(t *testing.T) {
	files, err := filepath.Glob("../../testdata/workflows/*.yml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no recipe files: %v", err)
	}
	var shown []string
	for _, doc := range []string{"../../README.md", "../../docs/action.md"} {
		raw, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		text := string(raw)
		out := recipeBlock.ReplaceAllStringFunc(text, func(block string) string {
			m := recipeBlock.FindStringSubmatch(block)
			file := filepath.Join(filepath.Dir(doc), m[1])
			want, err := os.ReadFile(file)
			if err != nil {
				t.Errorf("%s shows %s: %v", doc, m[1], err)
				return block
			}
			abs, _ := filepath.Abs(file)
			shown = append(shown, abs)
			if m[2] != string(want) && !*update {
				t.Errorf("%s shows %s other than it is (go test ./cmd/planpr -run TestDocsShowTheRecipes -update):\n--- shown\n%s--- file\n%s", doc, m[1], m[2], want)
			}
			fence := strings.Index(block, "```yaml\n") + len("```yaml\n")
			return block[:fence] + string(want) + "```"
		})
		if *update && out != text {
			if err := os.WriteFile(doc, []byte(out), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		// A workflow shown without its file is a recipe no test runs.
		rest := recipeBlock.ReplaceAllString(text, "")
		for _, block := range regexp.MustCompile("(?s)```yaml\\n(.*?)```").FindAllStringSubmatch(rest, -1) {
			if strings.Contains(block[1], "\njobs:") {
				t.Errorf("%s shows a workflow that is no recipe file:\n%s", doc, block[1])
			}
		}
	}
	for _, f := range files {
		abs, _ := filepath.Abs(f)
		if !slices.Contains(shown, abs) {
			t.Errorf("%s is shown in no doc", f)
		}
	}
}

// TestDocsImagesScriptDrawsTheComment: scripts/docs-images, which draws
// the README's picture from the comment planpr prints now, runs, and
// draws a picture of the size the README shows.
func TestDocsImagesScriptDrawsTheComment(t *testing.T) {
	if _, err := exec.LookPath("chromium"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("chromium is not installed (.ci/run installs it)")
		}
		t.Skip("chromium not installed: apt-get install chromium")
	}
	out := filepath.Join(t.TempDir(), "comment.png")
	cmd := exec.Command("../../scripts/docs-images", out)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("scripts/docs-images: %v\n%s", err, b)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cfg, err := png.DecodeConfig(f)
	if err != nil || cfg.Width != 900 || cfg.Height != 800 {
		t.Errorf("the picture: %+v, %v; want a 900×800 PNG", cfg, err)
	}
}
