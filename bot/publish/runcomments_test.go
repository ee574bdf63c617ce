package publish

import (
	"testing"

	"github.com/planpr/planpr/bot/gh"
	"github.com/planpr/planpr/render/report"
)

// TestRunCommentsListsOnceUntilTheRunWrites: reads of one run share one
// list of the comments; a write makes the next read list them again, so
// that the upsert still sees what it and any other run wrote.
func TestRunCommentsListsOnceUntilTheRunWrites(t *testing.T) {
	fake, c, _ := newFake(t, "t-write")
	fake.AddComment(5, "alice", "LGTM")
	run := NewRunComments(c)
	lists := func() int { return fake.CountRequests("GET /repos/octo/infra/issues/5/comments") }
	for range 3 {
		if all, err := run.ListComments(t.Context(), repo, 5); err != nil || len(all) != 1 {
			t.Fatalf("%d comments, %v", len(all), err)
		}
	}
	if n := lists(); n != 1 {
		t.Fatalf("three reads listed the comments %d times", n)
	}
	m := report.Marker{Key: "prod", SHA: "aaa", At: 10}
	if res, err := Upsert(t.Context(), run, repo, 5, gh.ActionsBot, m, bodyFor(m, "one"), ModeUpdate); err != nil || res.Action != "created" {
		t.Fatalf("%+v %v", res, err)
	}
	all, err := run.ListComments(t.Context(), repo, 5)
	if err != nil || len(all) != 2 {
		t.Fatalf("after the run's own comment: %d comments, %v", len(all), err)
	}
	// Someone else's comment between two reads with no write of the run's
	// own is not seen: the list is the run's.
	fake.AddComment(5, "bob", "ship it")
	if all, _ := run.ListComments(t.Context(), repo, 5); len(all) != 2 {
		t.Errorf("%d comments: the list was read again without a write", len(all))
	}
	// A list of another pull request is its own.
	if _, err := run.ListComments(t.Context(), repo, 6); err != nil {
		t.Fatal(err)
	}
	if n := fake.CountRequests("GET /repos/octo/infra/issues/6/comments"); n != 1 {
		t.Errorf("pull request 6 listed %d times", n)
	}
}
