package publish

import (
	"github.com/planpr/planpr/bot/gh"
	"github.com/planpr/planpr/bot/internal/ghtest"
)

var (
	repo     = gh.Repo{Owner: "octo", Name: "infra"}
	newFake  = ghtest.NewFake
	bodyFor  = ghtest.BodyFor
	countKey = ghtest.CountKey
)
