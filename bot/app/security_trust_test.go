package app

import (
	"github.com/planpr/planpr/bot"
	"strings"
	"testing"

	"github.com/planpr/planpr/bot/gh"
	"github.com/planpr/planpr/bot/githubtest"
	"github.com/planpr/planpr/bot/publish"
	"github.com/planpr/planpr/render/report"
)

// TestManifestCannotClaimTheLockKey: an artifact's manifest naming the
// lock comment's key replaced the lock review with a no-op plan. Reserved
// keys are refused, and the lock review stays.
func TestManifestCannotClaimTheLockKey(t *testing.T) {
	a := newTestApp(t, 1)
	a.start(t)
	a.addLockPR(2, "3484a3fb816e0859fd6e1cea078d76385ff50625")
	pr := payload(t, "pull_request-opened.json", setPR(2, "3484a3fb816e0859fd6e1cea078d76385ff50625", "2026-11-01T10:00:00Z"))
	a.deliver(t, "pull_request", "d-1", pr, githubtest.Sign(testSecret, pr))
	waitFor(t, "the lock review", func() bool { n, _ := countKey(a.fake, 2, LockKey); return n == 1 })
	_, review := countKey(a.fake, 2, LockKey)

	noop := `{"format_version":"1.2","resource_changes":[]}`
	for i, key := range []string{LockKey, bot.LocksKey, "../x", "a key", strings.Repeat("k", 200)} {
		a.fake.AddArtifact(289782451, githubtest.Artifact{ID: int64(10 + i), Name: "planpr-" + string(rune('a'+i)), Zip: githubtest.Zip(map[string]string{
			"planpr.json": `{"pr": 2, "key": "` + key + `"}`, "plan.json": noop})})
	}
	run := payload(t, "workflow_run-completed.with-pull-requests.json", nil)
	a.deliver(t, "workflow_run", "w-1", run, githubtest.Sign(testSecret, run))
	a.stop(t)
	if n, c := countKey(a.fake, 2, LockKey); n != 1 || c.Body != review.Body {
		t.Errorf("the lock review was replaced: %d comments, %.200q", n, c.Body)
	}
	if len(a.fake.Comments(2)) != 1 {
		t.Errorf("%d comments: a manifest's key was used", len(a.fake.Comments(2)))
	}
	mustContain(t, a.logs.String(), "is planpr's own (the comment of lock files alone)")
}

// TestOneClockOrdersEveryComment: plan comments were ordered by run id
// (~1.2e10) and the lock comment by updated_at seconds (~1.7e9), so a plan
// comment's order silenced every later lock review. Every marker now
// carries the Unix time of what triggered it, and the run id orders
// nothing.
func TestOneClockOrdersEveryComment(t *testing.T) {
	a := newTestApp(t, 1)
	a.start(t)
	a.addLockPR(2, "head1")
	// A comment of the old format, with a run id for its order.
	old := report.Marker{Key: LockKey, Run: 12000000000}
	a.fake.AddComment(2, a.fake.AppSlug()+"[bot]", old.String()+"\nold review")
	pr := payload(t, "pull_request-opened.json", setPR(2, "head1", "2026-11-01T10:00:00Z"))
	a.deliver(t, "pull_request", "d-1", pr, githubtest.Sign(testSecret, pr))
	waitFor(t, "the lock review", func() bool { _, c := countKey(a.fake, 2, LockKey); return strings.Contains(c.Body, "sha=head1") })
	_, c := countKey(a.fake, 2, LockKey)
	if m, _ := report.ParseMarker(c.Body); m.At != 1793527200 {
		t.Errorf("the lock review is ordered by %d, want the pull request's updated_at 1793527200", m.At)
	}
	a.fake.AddArtifact(289782451, githubtest.Artifact{ID: 1, Name: "planpr-prod", Zip: githubtest.Zip(map[string]string{"plan.json": runPlan})})
	run := payload(t, "workflow_run-completed.with-pull-requests.json", nil)
	a.deliver(t, "workflow_run", "w-1", run, githubtest.Sign(testSecret, run))
	waitFor(t, "the plan comment", func() bool { n, _ := countKey(a.fake, 2, "planpr-prod"); return n == 1 })
	a.stop(t)
	_, p := countKey(a.fake, 2, "planpr-prod")
	if m, _ := report.ParseMarker(p.Body); m.At != 1601915629 || m.Run != 289782451 {
		t.Errorf("the plan comment's marker %+v: want the run's run_started_at 1601915629 as its order", m)
	}
}

// TestOnlyPlanprsOwnCommentsCount: anyone can write a comment starting
// with a marker. One claiming the newest order froze planpr, and older
// ones were edited, deleted or hidden. Only comments by planpr's own login
// count now.
func TestOnlyPlanprsOwnCommentsCount(t *testing.T) {
	for _, mode := range []publish.CommentMode{publish.ModeUpdate, publish.ModeRecreate, publish.ModeHideAndNew} {
		t.Run(string(mode), func(t *testing.T) {
			fake, c, _ := newFake(t, "t-write")
			frozen := "<!-- planpr:v1 key=prod at=9223372036854775807 -->\nI am not planpr"
			older := "<!-- planpr:v1 key=prod at=1 -->\nnor am I"
			fake.AddComment(5, "mallory", frozen)
			fake.AddComment(5, "mallory", older)
			m := report.Marker{Key: "prod", At: 1700000000}
			res, err := publish.Upsert(t.Context(), c, repo, 5, gh.ActionsBot, m, bodyFor(m, "the plan"), mode)
			if err != nil {
				t.Fatal(err)
			}
			if res.Action == "skipped-older" {
				t.Fatal("a user's comment froze planpr")
			}
			comments := fake.Comments(5)
			if len(comments) != 3 || comments[0].Body != frozen || comments[1].Body != older || comments[0].Minimized || comments[1].Minimized {
				t.Fatalf("users' comments were touched: %+v", comments)
			}
			if comments[2].User != gh.ActionsBot || comments[2].Body != bodyFor(m, "the plan") {
				t.Errorf("planpr's comment: %+v", comments[2])
			}
		})
	}
}

// TestTheAppCountsOnlyItsBot: the App's comments are those of its own
// bot login (GET /app gives the slug); a user's lock-files marker is left
// alone.
func TestTheAppCountsOnlyItsBot(t *testing.T) {
	a := newTestApp(t, 1)
	a.start(t)
	a.addLockPR(2, "head1")
	fakeReview := "<!-- planpr:v1 key=locks at=9223372036854775807 -->\n## ✅ planpr: nothing to see"
	a.fake.AddComment(2, "mallory", fakeReview)
	pr := payload(t, "pull_request-opened.json", setPR(2, "head1", "2026-11-01T10:00:00Z"))
	a.deliver(t, "pull_request", "d-1", pr, githubtest.Sign(testSecret, pr))
	a.stop(t)
	comments := a.fake.Comments(2)
	if len(comments) != 2 || comments[0].Body != fakeReview || comments[1].User != "planpr-test[bot]" || !strings.Contains(comments[1].Body, "5.9.0 → 6.0.0") {
		t.Fatalf("comments: %+v", comments)
	}
}
