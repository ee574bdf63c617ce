package gh

import (
	"fmt"
	"net/http"
	"slices"
	"testing"

	"github.com/planpr/planpr/bot/githubtest"
)

// TestListsReadAgainAreAskedForWithIfNoneMatch: the second read of an
// unchanged list is a 304 served from what was kept — every page of it —
// and a changed list is read anew.
func TestListsReadAgainAreAskedForWithIfNoneMatch(t *testing.T) {
	fake := githubtest.New()
	t.Cleanup(fake.Close)
	c, err := NewClient(&http.Client{Transport: &ETagTransport{Base: &RetryTransport{}}}, fake.APIURL(), fake.URL+"/graphql", "t-write")
	if err != nil {
		t.Fatal(err)
	}
	for i := range 150 {
		fake.AddComment(7, "someone", fmt.Sprintf("comment %d", i))
	}
	list := func() []*Comment {
		t.Helper()
		got, err := c.ListComments(t.Context(), repo, 7)
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	first := list()
	second := list()
	if len(second) != 150 || second[149].Body != "comment 149" || second[0].Body != first[0].Body {
		t.Fatalf("the list read again has %d comments", len(second))
	}
	statuses := func() []string {
		var out []string
		for _, l := range fake.Log() {
			out = append(out, l[len(l)-3:])
		}
		return out
	}
	if got, want := statuses(), []string{"200", "200", "304", "304"}; !slices.Equal(got, want) {
		t.Errorf("answers %v, want %v", got, want)
	}
	fake.AddComment(7, "someone", "comment 150")
	if got := list(); len(got) != 151 || got[150].Body != "comment 150" {
		t.Errorf("a changed list read as %d comments", len(got))
	}
}
