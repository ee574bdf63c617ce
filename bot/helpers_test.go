package bot

import (
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
