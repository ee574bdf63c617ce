package main

import (
	"os/exec"
	"strings"
	"testing"
)

// importRule is one edge DESIGN.md's layout forbids: no package matching
// from may import a package matching to. A pattern is a package path
// relative to the module, "x/..." for x and everything under it.
type importRule struct {
	from, to []string
	why      string
}

// importRules are DESIGN.md's never-edges: what each layer never imports,
// so that imports only go down — models, then the read, then formats and
// the report, then sinks and adapters, then cmd.
var importRules = []importRule{
	{from: []string{"..."}, to: []string{"cmd/..."}, why: "nothing imports cmd"},
	{from: []string{"render/...", "lockdiff/...", "flavor", "internal/..."}, to: []string{"bot/..."}, why: "bot is above render, lockdiff and the leaves"},
	{from: []string{"render/tofujson/..."}, to: []string{"render/comment", "render/report", "render/review", "render/inputs", "render/text", "render/summary", "render/streamreport", "render/lockreport", "render/preview", "render/fingerprint", "render/mask", "render/internal/...", "render/md", "lockdiff/..."}, why: "the models and their reader are below everything that reads them"},
	{from: []string{"render/tofujson/internal/jsonread"}, to: []string{"..."}, why: "the JSON mechanics know no plan"},
	{from: []string{"render/inputs"}, to: []string{"render/comment", "render/report", "render/review", "render/text", "render/summary", "render/streamreport", "render/lockreport", "render/preview", "render/fingerprint"}, why: "inputs decides what files are, before any read or format"},
	{from: []string{"render/review"}, to: []string{"render/comment", "render/report", "render/text", "render/summary", "render/streamreport", "render/lockreport", "render/preview", "render/fingerprint"}, why: "the read knows no format and no report"},
	{from: []string{"render/fingerprint", "render/mask", "render/internal/diff", "render/internal/shape", "render/internal/budget"}, to: []string{"render/comment", "render/report", "render/text", "render/summary", "render/streamreport", "render/lockreport", "render/preview"}, why: "the hash, the secrets, the diff tree, the shapes and the budget are below the formats"},
	{from: []string{"render/comment", "render/text", "render/summary", "render/streamreport", "render/lockreport", "render/preview", "render/md"}, to: []string{"render/report"}, why: "formats are below the report that builds with them"},
	{from: []string{"bot/...", "cmd/...", "lockdiff/...", "render/inputs", "render/review", "render/text", "render/summary", "render/streamreport", "render/lockreport", "render/preview", "render/fingerprint"}, to: []string{"render/comment"}, why: "the comment is built by render/report alone: every runner asks report.Build"},
	{from: []string{"bot/publish"}, to: []string{"render/comment", "render/text", "render/summary", "render/streamreport", "render/lockreport", "render/preview"}, why: "a sink posts what a report holds: it never renders"},
	{from: []string{"render/report"}, to: []string{"bot/...", "cmd/..."}, why: "the report knows no sink and no runner"},
	{from: []string{"bot", "bot/publish", "bot/gh", "bot/webhook", "bot/artifact", "bot/pack", "bot/setup", "bot/actionlog"}, to: []string{"bot/action", "bot/app"}, why: "the adapters are above what they share"},
	{from: []string{"bot/action"}, to: []string{"bot/app"}, why: "the Action and the App are two adapters over one hallway"},
	{from: []string{"bot/app"}, to: []string{"bot/action"}, why: "the Action and the App are two adapters over one hallway"},
	{from: []string{"bot/webhook", "bot/gh", "bot/artifact", "bot/setup", "bot/pack"}, to: []string{"render/..."}, why: "the intake, the GitHub adapter, untrusted downloads, packing and setup know no plan"},
	{from: []string{"render/md", "render/preview", "render/marker"}, to: []string{"..."}, why: "safe Markdown, the preview page and the marker know no plan"},
	{from: []string{"lockdiff/...", "flavor"}, to: []string{"render/..."}, why: "lock files and the tools' words are beside render, never above it"},
	{from: []string{"flavor", "internal/lazyre"}, to: []string{"..."}, why: "leaves everyone may ask"},
}

// matches reports whether pkg matches one of patterns.
func matches(pkg string, patterns []string) bool {
	for _, p := range patterns {
		if p == "..." || p == pkg {
			return true
		}
		if base, ok := strings.CutSuffix(p, "/..."); ok && (pkg == base || strings.HasPrefix(pkg, base+"/")) {
			return true
		}
	}
	return false
}

// TestImportsOnlyGoDown holds DESIGN.md's never-edges over `go list`, and
// keeps go-github inside bot.
func TestImportsOnlyGoDown(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, "github.com/planpr/planpr/...").Output()
	if err != nil {
		t.Skipf("go list unavailable: %v", err)
	}
	const mod = "github.com/planpr/planpr/"
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		pkg := strings.TrimPrefix(fields[0], mod)
		for _, imp := range fields[1:] {
			if strings.HasPrefix(imp, "github.com/google/go-github") && !strings.HasPrefix(pkg, "bot") && !strings.HasPrefix(pkg, "cmd/") {
				t.Errorf("%s imports go-github: GitHub belongs to bot", pkg)
			}
			dep, ok := strings.CutPrefix(imp, mod)
			if !ok {
				continue
			}
			for _, r := range importRules {
				if matches(pkg, r.from) && matches(dep, r.to) && dep != pkg {
					t.Errorf("%s imports %s: %s", pkg, dep, r.why)
				}
			}
		}
	}
}

// TestImportRulesCanFail: each rule, given an edge it forbids, says so.
func TestImportRulesCanFail(t *testing.T) {
	for _, edge := range [][2]string{
		{"render/text", "bot/publish"}, {"render/tofujson", "render/review"}, {"lockdiff", "render/mask"},
		{"render/review", "render/comment"}, {"render/comment", "render/report"}, {"bot", "render/comment"}, {"bot/publish", "render/text"}, {"render/report", "bot/publish"}, {"bot/app", "bot/action"}, {"bot", "bot/app"}, {"bot/webhook", "render/tofujson"}, {"bot", "cmd/planpr"},
	} {
		forbidden := false
		for _, r := range importRules {
			forbidden = forbidden || matches(edge[0], r.from) && matches(edge[1], r.to)
		}
		if !forbidden {
			t.Errorf("%s → %s is allowed", edge[0], edge[1])
		}
	}
}
