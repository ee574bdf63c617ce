package action

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/planpr/planpr/bot/gh"
	"github.com/planpr/planpr/bot/internal/ghtest"
)

var repo = gh.Repo{Owner: "octo", Name: "infra"}

var (
	newFake  = ghtest.NewFake
	bodyFor  = ghtest.BodyFor
	countKey = ghtest.CountKey
)

func mustContain(t *testing.T, s, sub string) {
	t.Helper()
	if !strings.Contains(s, sub) {
		t.Errorf("%q does not contain %q", s, sub)
	}
}

// writeFiles writes files under dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
