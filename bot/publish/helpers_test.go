package publish

import (
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/planpr/planpr/bot/gh"
	"github.com/planpr/planpr/bot/githubtest"
	"github.com/planpr/planpr/render"
)

var repo = gh.Repo{Owner: "octo", Name: "infra"}

// newFake starts a fake GitHub and a client for it whose retries do not
// really sleep; slept counts the waits.
func newFake(t *testing.T, token string) (*githubtest.Server, *gh.Client, *atomic.Int64) {
	t.Helper()
	fake := githubtest.New()
	t.Cleanup(fake.Close)
	var slept atomic.Int64
	rt := &gh.RetryTransport{Sleep: func(d time.Duration) { slept.Add(int64(d / time.Second)) }}
	c, err := gh.NewClient(&http.Client{Transport: rt}, fake.APIURL(), fake.URL+"/graphql", token)
	if err != nil {
		t.Fatal(err)
	}
	return fake, c, &slept
}

func bodyFor(m render.Marker, text string) string { return m.String() + "\n" + text }

func countKey(fake *githubtest.Server, pr int, key string) (n int, last githubtest.Comment) {
	for _, c := range fake.Comments(pr) {
		if m, ok := render.ParseMarker(c.Body); ok && m.Key == key {
			n++
			last = c
		}
	}
	return
}
