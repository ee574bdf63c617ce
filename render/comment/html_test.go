package comment

import (
	"bytes"
	"context"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/planpr/planpr/render/md"
	"github.com/planpr/planpr/render/preview"
	"github.com/planpr/planpr/render/review"
	"github.com/planpr/planpr/render/tofujson"
)

// TestPreviewInChromium opens the --html preview of a comment full of
// hostile values in headless Chromium and checks what a person would see:
// the summary table and the <details> sections, and no script run.
func TestPreviewInChromium(t *testing.T) {
	chromium := findChromium(t)
	schemas, err := tofujson.ReadSchemasFile("testdata/plans/hostile-schemas.json")
	if err != nil {
		t.Fatal(err)
	}
	plan := writePlan(t, map[string]any{"format_version": "1.2", "resource_changes": []any{
		map[string]any{"address": "test_thing.a", "mode": "managed", "type": "test_thing", "name": "a", "provider_name": "registry.opentofu.org/hashicorp/test",
			"change": map[string]any{"actions": []string{"update"}, "before": map[string]any{"note": "old"},
				"after":         map[string]any{"note": `<script>document.title="pwned"</script><img src=x onerror="document.body.dataset.pwned=1">`},
				"after_unknown": map[string]any{}, "before_sensitive": map[string]any{}, "after_sensitive": map[string]any{}}},
	}})
	var md bytes.Buffer
	if _, err := Comment(&md, []CommentPlan{{Path: plan}, {Path: "testdata/plans/hostile.json"}}, CommentOptions{PlanOptions: review.PlanOptions{Schemas: schemas}, Marker: Marker{Key: "k"}, Title: `<script>document.title="pwned"</script>`}); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	page := filepath.Join(dir, "preview.html")
	var html bytes.Buffer
	if err := preview.HTML(&html, "preview", md.String()); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(page, html.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--user-data-dir="+filepath.Join(dir, "profile"),
		"--virtual-time-budget=2000", "--dump-dom", "file://"+page)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("chromium: %v\n%s", err, stderr.String())
	}
	dom := string(out)
	for _, want := range []string{"<table>", "<details>", "<summary>", `<code class="language-diff">`, "<th>root</th>"} {
		if !strings.Contains(dom, want) {
			t.Errorf("the page lacks %s", want)
		}
	}
	if strings.Count(dom, "<details>") < 3 {
		t.Errorf("%d <details> sections", strings.Count(dom, "<details>"))
	}
	for _, bad := range []string{"<title>pwned", "data-pwned", "<script", "<img src=\"x\""} {
		if strings.Contains(dom, bad) {
			t.Errorf("a script ran or an element was injected: found %q", bad)
		}
	}
}

// TestPreviewColoursInChromium takes a screenshot of the preview in
// headless Chromium and finds GitHub's colours in it: the red bar of a
// [!CAUTION] alert, and the green and red of added and removed diff
// lines. A preview without them looks calmer than the comment will.
func TestPreviewColoursInChromium(t *testing.T) {
	chromium := findChromium(t)
	md := "## ⚠️ planpr: 1 to destroy\n\n> [!CAUTION]\n> - `aws_s3_bucket.logs` will be **destroyed**\n\n" +
		md.DiffBlock("  # x will be updated in-place\n  ~ resource \"a\" \"b\" {\n      - old = 1\n      + new = 2\n    }") + "\n"
	dir := t.TempDir()
	page := filepath.Join(dir, "preview.html")
	var html bytes.Buffer
	if err := preview.HTML(&html, "preview", md); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(html.String(), "markdown-alert-caution") || !strings.Contains(html.String(), `class="diff-add"`) {
		t.Fatalf("no alert or diff colours in the page:\n%s", html.String())
	}
	if err := os.WriteFile(page, html.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	shot := filepath.Join(dir, "shot.png")
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--user-data-dir="+filepath.Join(dir, "profile"),
		"--window-size=1000,700", "--screenshot="+shot, "file://"+page)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium: %v\n%s", err, stderr.String())
	}
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	found := map[string]int{}
	want := map[string]color.RGBA{
		"caution bar":  {0xd1, 0x24, 0x2f, 0xff},
		"added line":   {0xda, 0xfb, 0xe1, 0xff},
		"removed line": {0xff, 0xeb, 0xe9, 0xff},
		"changed line": {0xff, 0xf1, 0xe5, 0xff},
	}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			for name, c := range want {
				if near(r>>8, c.R) && near(g>>8, c.G) && near(bl>>8, c.B) {
					found[name]++
				}
			}
		}
	}
	for name := range want {
		if found[name] < 50 {
			t.Errorf("the screenshot has %d pixels of the %s's colour", found[name], name)
		}
	}
}

func near(v uint32, c uint8) bool { return v+3 >= uint32(c) && v <= uint32(c)+3 }

// findChromium is the headless browser the preview tests use: required in
// CI (.ci/run installs it), skipped elsewhere when missing.
func findChromium(t *testing.T) string {
	t.Helper()
	chromium, err := exec.LookPath("chromium")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("chromium is not installed (.ci/run installs it)")
		}
		t.Skip("chromium not installed: apt-get install chromium chromium-driver")
	}
	return chromium
}
