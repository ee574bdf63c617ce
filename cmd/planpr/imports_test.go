package main

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestImportRules enforces DESIGN.md's layout, data flowing top to bottom:
// the models import only their JSON reader (which imports nothing), safe Markdown nothing at
// all, the masker and the diff only the models; render never imports bot;
// lockdiff nothing but the flavor leaf; bot's webhook intake nothing of render; only cmd
// imports bot; and go-github stays out of render and lockdiff.
func TestImportRules(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, "github.com/planpr/planpr/...").Output()
	if err != nil {
		t.Skipf("go list unavailable: %v", err)
	}
	const mod = "github.com/planpr/planpr/"
	models := []string{"render/tofujson", "flavor"}
	mask := append(slices.Clone(models), "internal/lazyre")
	allowed := map[string][]string{
		"flavor":                            {}, // the two tools' words and rules: a leaf everyone may ask
		"render/tofujson/internal/jsonread": {}, // JSON mechanics over jsontext: no plan, state or stream
		"render/internal/shape":             {"render/tofujson", "render/internal/beside"},
		"render/internal/beside":            {"render/tofujson", "render/internal/chunks"}, // a read's per-item work on a second goroutine
		"render/inputs":                     {"render/tofujson", "render/tofujson/uistream"},
		"render/tofujson/internal/jsontest": {}, // the readers' tests' input files
		"render/tofujson/uistream":          {"render/tofujson", "render/tofujson/internal/jsonread", "flavor"},
		"render/tofujson":                   {"render/tofujson/internal/jsonread", "flavor"},
		"render/md":                         {},
		"render/preview":                    {}, // Markdown in, a page out: it knows no plan
		"render/mask":                       mask,
		"internal/lazyre":                   {}, // regular expressions compiled when first used
		"render/internal/diff":              models,
		"render/text":                       {"render/tofujson", "render/internal/diff", "render/review", "render/mask", "render/md", "flavor", "render/tofujson/uistream"},
		"render/review":                     {"render/tofujson", "render/internal/diff", "render/mask", "flavor", "render/tofujson/uistream", "render/internal/words"},
		"render/internal/words":             {},                                                                        // counts, plurals and agreement in messages
		"render/internal/box":               {},                                                                        // the warning box's layout
		"render/internal/chunks":            {},                                                                        // lists that grow without copying
		"render/fingerprint":                {"render/tofujson", "render/md", "render/internal/beside", "render/mask"}, // what a plan will do, in one hash; differences quote addresses as code; credential names
		"deploy/helm":                       {},                                                                        // the Helm chart's tests (Helm's packages render it)
		"bot/actionlog":                     {"render/mask", "render/md"},                                              // safe printing in a workflow step
		"bot/pack":                          {"render"},                                                                // a matrix job's artifact layout
		"render/marker":                     {},                                                                        // the hidden first line of planpr's comments
		"render/internal/safe":              {"render/mask", "render/md"},                                              // masked, then escaped: the one way values reach Markdown
		"render/streamreport":               {"render/internal/safe", "render/internal/diff", "render/mask", "render/md", "render/review", "render/text", "render/tofujson", "render/tofujson/uistream", "lockdiff"},
		"render":                            {"render/lockreport", "render/tofujson", "render/internal/diff", "render/text", "render/review", "render/md", "render/mask", "lockdiff", "flavor", "render/tofujson/uistream", "render/internal/shape", "render/internal/safe", "render/streamreport", "render/internal/box", "render/marker", "render/fingerprint", "render/summary", "render/internal/later", "render/internal/budget", "render/internal/words", "render/internal/chunks"},
		"render/internal/budget":            {"render/mask", "render/md"},                                                                 // collapsed diffs masked once every secret is known
		"render/internal/later":             {"render/tofujson", "render/mask", "render/internal/safe"},                                   // what only Terraform's plans hold
		"render/summary":                    {"render/review", "render/mask", "render/text", "render/fingerprint", "render/streamreport"}, // the machine summary (--format json)
		"render/report":                     {"render", "lockdiff"},                                                                       // keys, titles and defaults every runner agrees on
		"render/lockreport":                 {"lockdiff", "render/mask", "render/md"},
		"lockdiff":                          {"flavor"},
		"lockdiff/verify":                   {"lockdiff"}, // the registry client
		"bot/gh":                            {},
		"bot/artifact":                      {"bot/gh"},                                                               // its download errors are gh.StatusError, as the App retries them
		"bot/internal/ghtest":               {"bot/gh", "bot/githubtest", "render"},                                   // bot's tests' shared helpers
		"bot/publish":                       {"bot/gh", "render", "render/report", "render/streamreport", "lockdiff"}, // the GitHub sink: comments, labels, check runs
		"bot/setup":                         {"internal/lazyre"},                                                      // the one-click setup and the App's kept credentials
		"bot/webhook":                       {"bot/gh"},
		"bot/githubtest":                    {},
		"bot/webhook/pgtest":                {}, // a throw-away PostgreSQL for tests
		"action":                            {}, // the composite action's installer (a script) and its tests
		"bot":                               {"render", "render/report", "render/review", "render/tofujson", "render/internal/diff", "render/text", "render/md", "render/mask", "lockdiff", "lockdiff/verify", "bot/gh", "bot/webhook", "bot/artifact", "flavor", "render/inputs", "render/tofujson/uistream", "bot/publish", "render/fingerprint", "bot/pack", "bot/actionlog", "internal/lazyre"},
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		pkg := strings.TrimPrefix(fields[0], mod)
		for _, imp := range fields[1:] {
			if strings.HasPrefix(imp, "github.com/google/go-github") && (strings.HasPrefix(pkg, "render") || strings.HasPrefix(pkg, "lockdiff")) {
				t.Errorf("%s imports go-github: GitHub belongs to bot", pkg)
			}
		}
		rules, ok := allowed[pkg]
		if !ok {
			if !strings.HasPrefix(pkg, "cmd/") && !strings.HasPrefix(pkg, "scripts/") && !strings.HasPrefix(pkg, "testdata/") {
				t.Errorf("%s is not in DESIGN.md's layout: add its rule here", pkg)
			}
			continue // cmd/planpr may import everything
		}
		for _, imp := range fields[1:] {
			if dep, ok := strings.CutPrefix(imp, mod); ok && !slices.Contains(rules, dep) {
				t.Errorf("%s imports %s, which DESIGN.md does not allow", pkg, dep)
			}
		}
	}
}
