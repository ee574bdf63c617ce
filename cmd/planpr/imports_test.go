package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestImportRules enforces DESIGN.md's layout: the models import nothing
// from the project, the diff only the models, render never bot, and lockdiff
// nothing; only cmd imports bot.
func TestImportRules(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, "github.com/planpr/planpr/...").Output()
	if err != nil {
		t.Skipf("go list unavailable: %v", err)
	}
	const mod = "github.com/planpr/planpr/"
	allowed := map[string][]string{
		"render/tofujson": {},
		"render/diff":     {"render/tofujson"},
		"render":          {"render/tofujson", "render/diff", "lockdiff"},
		"lockdiff":        {},
		"bot":             {"render", "render/tofujson", "render/diff", "lockdiff"},
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		pkg := strings.TrimPrefix(fields[0], mod)
		rules, ok := allowed[pkg]
		if !ok {
			continue // cmd/planpr may import everything
		}
		for _, imp := range fields[1:] {
			if !strings.HasPrefix(imp, mod) {
				continue
			}
			dep := strings.TrimPrefix(imp, mod)
			ok := false
			for _, r := range rules {
				ok = ok || dep == r
			}
			if !ok {
				t.Errorf("%s imports %s, which DESIGN.md does not allow", pkg, dep)
			}
		}
	}
}
