package publish

import (
	"testing"

	"github.com/planpr/planpr/bot/gh"
	"github.com/planpr/planpr/bot/githubtest"
	"github.com/planpr/planpr/bot/internal/ghtest"
)

// actions is the app a workflow's token posts check runs as.
const actions = "github-actions"

var (
	repo     = gh.Repo{Owner: "octo", Name: "infra"}
	newFake  = ghtest.NewFake
	bodyFor  = ghtest.BodyFor
	countKey = ghtest.CountKey
)

// forEachLostAnswer runs a test against a fake GitHub that cuts the
// answer to the first request matching match ("METHOD path"): once after
// doing it, once without.
func forEachLostAnswer(t *testing.T, match string, test func(t *testing.T, fake *githubtest.Server, api *gh.Client)) {
	for _, tc := range []struct {
		name  string
		fault githubtest.Fault
	}{
		{"made", githubtest.Fault{Match: match, Cut: true}},
		{"not made", githubtest.Fault{Match: match, Cut: true, Status: 201}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fake, api, _ := newFake(t, "t-write")
			fake.Inject(tc.fault)
			test(t, fake, api)
		})
	}
}
