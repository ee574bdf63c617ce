package action

import (
	"github.com/planpr/planpr/bot/gh"
	"github.com/planpr/planpr/bot/internal/ghtest"
)

var repo = gh.Repo{Owner: "octo", Name: "infra"}

// The helpers bot's packages' tests share (package ghtest).
var (
	newFake     = ghtest.NewFake
	bodyFor     = ghtest.BodyFor
	countKey    = ghtest.CountKey
	mustContain = ghtest.MustContain
	writeFiles  = ghtest.WriteFiles
)
