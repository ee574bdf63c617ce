package publish

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/planpr/planpr/bot/githubtest"

	"github.com/planpr/planpr/bot/gh"
	"github.com/planpr/planpr/render/report"
)

func TestUpsertCreatesThenUpdates(t *testing.T) {
	fake, c, _ := newFake(t, "t-write")
	fake.AddComment(5, "alice", "LGTM")
	m := report.Marker{Key: "prod", SHA: "aaa", At: 10}
	res, err := Upsert(t.Context(), c, repo, 5, gh.ActionsBot, m, bodyFor(m, "one"), ModeUpdate)
	if err != nil || res.Action != "created" {
		t.Fatalf("%+v %v", res, err)
	}
	m2 := report.Marker{Key: "prod", SHA: "bbb", At: 11}
	res, err = Upsert(t.Context(), c, repo, 5, gh.ActionsBot, m2, bodyFor(m2, "two"), ModeUpdate)
	if err != nil || res.Action != "updated" {
		t.Fatalf("%+v %v", res, err)
	}
	if n, last := countKey(fake, 5, "prod"); n != 1 || last.Body != bodyFor(m2, "two") {
		t.Errorf("%d comments, last %q", n, last.Body)
	}
	// The same body again: nothing written.
	before := len(fake.Log())
	res, _ = Upsert(t.Context(), c, repo, 5, gh.ActionsBot, m2, bodyFor(m2, "two"), ModeUpdate)
	if res.Action != "unchanged" || len(fake.Log()) != before+1 {
		t.Errorf("%s with %d requests", res.Action, len(fake.Log())-before)
	}
	if len(fake.Comments(5)) != 2 {
		t.Error("someone else's comment was touched")
	}
}

func TestUpsertOlderRunChangesNothing(t *testing.T) {
	fake, c, _ := newFake(t, "t-write")
	newer := report.Marker{Key: "prod", At: 20}
	Upsert(t.Context(), c, repo, 5, gh.ActionsBot, newer, bodyFor(newer, "new"), ModeUpdate)
	older := report.Marker{Key: "prod", At: 19}
	res, err := Upsert(t.Context(), c, repo, 5, gh.ActionsBot, older, bodyFor(older, "old"), ModeUpdate)
	if err != nil || res.Action != "skipped-older" {
		t.Fatalf("%+v %v", res, err)
	}
	if _, last := countKey(fake, 5, "prod"); last.Body != bodyFor(newer, "new") {
		t.Errorf("the older run overwrote the newer: %q", last.Body)
	}
}

func TestUpsertTwoKeysKeepTwoComments(t *testing.T) {
	fake, c, _ := newFake(t, "t-write")
	for _, key := range []string{"prod", "staging", "prod", "staging"} {
		m := report.Marker{Key: key, At: 1}
		if _, err := Upsert(t.Context(), c, repo, 5, gh.ActionsBot, m, bodyFor(m, key), ModeUpdate); err != nil {
			t.Fatal(err)
		}
	}
	if a, _ := countKey(fake, 5, "prod"); a != 1 {
		t.Errorf("%d prod comments", a)
	}
	if b, _ := countKey(fake, 5, "staging"); b != 1 {
		t.Errorf("%d staging comments", b)
	}
}

// TestUpsertConcurrentRunsConverge: five runs of one key racing end with
// exactly one comment, holding the newest run's body.
func TestUpsertConcurrentRunsConverge(t *testing.T) {
	for round := 0; round < 10; round++ {
		fake, c, _ := newFake(t, "t-write")
		var wg sync.WaitGroup
		for run := int64(1); run <= 5; run++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				m := report.Marker{Key: "prod", At: run}
				if _, err := Upsert(t.Context(), c, repo, 9, gh.ActionsBot, m, bodyFor(m, "from run"), ModeUpdate); err != nil {
					t.Error(err)
				}
			}()
		}
		wg.Wait()
		n, last := countKey(fake, 9, "prod")
		if n != 1 {
			t.Fatalf("round %d: %d comments", round, n)
		}
		if m, _ := report.ParseMarker(last.Body); m.At < 1 || m.At > 5 || last.Body != bodyFor(m, "from run") {
			t.Errorf("round %d: the comment holds %q", round, last.Body)
		}
	}
}

func TestUpsertRecreateAndHide(t *testing.T) {
	fake, c, _ := newFake(t, "t-write")
	m := report.Marker{Key: "prod", At: 1}
	Upsert(t.Context(), c, repo, 5, gh.ActionsBot, m, bodyFor(m, "one"), ModeUpdate)
	first := fake.Comments(5)[0].ID
	m2 := report.Marker{Key: "prod", At: 2}
	res, err := Upsert(t.Context(), c, repo, 5, gh.ActionsBot, m2, bodyFor(m2, "two"), ModeRecreate)
	if err != nil || res.Action != "recreated" || len(fake.Comments(5)) != 1 || fake.Comments(5)[0].ID == first {
		t.Fatalf("recreate: %+v %v %+v", res, err, fake.Comments(5))
	}
	m3 := report.Marker{Key: "prod", At: 3}
	res, err = Upsert(t.Context(), c, repo, 5, gh.ActionsBot, m3, bodyFor(m3, "three"), ModeHideAndNew)
	if err != nil || res.Action != "hidden-and-created" {
		t.Fatalf("hide: %+v %v", res, err)
	}
	all := fake.Comments(5)
	if len(all) != 2 || !all[0].Minimized || all[1].Minimized {
		t.Errorf("after hide-and-new: %+v", all)
	}
	if n, _ := countKey(fake, 5, "prod"); n != 1 {
		t.Errorf("%d live comments for the key", n)
	}
	if res, _ := Upsert(t.Context(), c, repo, 5, gh.ActionsBot, m, "", ModeOff); res.Action != "off" {
		t.Error("off should do nothing")
	}
}

func TestSyncLabelsSumsUpEveryKey(t *testing.T) {
	fake, c, _ := newFake(t, "t-write")
	post := func(m report.Marker) {
		if _, err := Upsert(t.Context(), c, repo, 4, gh.ActionsBot, m, bodyFor(m, "x"), ModeUpdate); err != nil {
			t.Fatal(err)
		}
	}
	labels := func() string {
		now, err := SyncLabels(t.Context(), c, c, repo, 4, gh.ActionsBot)
		if err != nil {
			t.Fatal(err)
		}
		got := strings.Join(fake.Labels(4), ",")
		if slices.Sort(now); strings.Join(now, ",") != got {
			t.Errorf("SyncLabels says the labels are %q; the pull request has %q", now, got)
		}
		return got
	}
	post(report.Marker{Key: "shared", At: 1, Destroy: 12})
	post(report.Marker{Key: "prod", At: 1, LockAlert: true})
	if got := labels(); got != "planpr:destroy,planpr:lock-alert" {
		t.Errorf("labels %s", got)
	}
	// prod's job finishing last, with no destroy of its own, keeps the label.
	post(report.Marker{Key: "prod", At: 2})
	if got := labels(); got != "planpr:destroy" {
		t.Errorf("after prod's alert went away: %s", got)
	}
	post(report.Marker{Key: "shared", At: 2})
	if got := labels(); got != "" {
		t.Errorf("after shared's destroys went away: %s", got)
	}
	// A marker anyone else writes counts for nothing.
	fake.AddComment(4, "mallory", report.Marker{Key: "evil", Destroy: 1}.String())
	if got := labels(); got != "" {
		t.Errorf("mallory's comment set labels: %s", got)
	}
}

// A run that loses a race — the comment it was about to update is deleted
// by another run — looks again and ends well: losing never fails a run.
func TestUpsertLosingARaceIsNoFailure(t *testing.T) {
	fake, c, _ := newFake(t, "t-write")
	m := report.Marker{Key: "race", At: 1}
	first, err := Upsert(t.Context(), c, repo, 6, gh.ActionsBot, m, bodyFor(m, "one"), ModeUpdate)
	if err != nil {
		t.Fatal(err)
	}
	fake.Inject(githubtest.Fault{Match: fmt.Sprintf("PATCH /repos/%s/issues/comments/%d", repo, first.Comment.ID), Status: 404, Message: "Not Found"})
	m.At = 2
	res, err := Upsert(t.Context(), c, repo, 6, gh.ActionsBot, m, bodyFor(m, "two"), ModeUpdate)
	if err != nil {
		t.Fatalf("losing a race failed the run: %v", err)
	}
	if res.Action != "updated" {
		t.Errorf("action %s, want updated on the second look", res.Action)
	}
	if n, last := countKey(fake, 6, "race"); n != 1 || !strings.Contains(last.Body, "two") {
		t.Errorf("%d comments, last %q", n, last.Body)
	}
}

// A comment whose answer is lost — the connection cut once GitHub had it,
// or before — is looked for, then posted again only when it is not there:
// the run ends well, with one comment.
func TestUpsertAfterALostAnswer(t *testing.T) {
	forEachLostAnswer(t, fmt.Sprintf("POST /repos/%s/issues/7/comments", repo), func(t *testing.T, fake *githubtest.Server, c *gh.Client) {
		m := report.Marker{Key: "lost", At: 1}
		res, err := Upsert(t.Context(), c, repo, 7, gh.ActionsBot, m, bodyFor(m, "one"), ModeUpdate)
		if err != nil || res.Action != "created" || res.Comment == nil || res.Comment.Body != bodyFor(m, "one") {
			t.Fatalf("%+v %v", res, err)
		}
		if n, _ := countKey(fake, 7, "lost"); n != 1 {
			t.Errorf("%d comments\n%s", n, strings.Join(fake.Log(), "\n"))
		}
	})
}

// TestUpsertEarlierRunOfTheSameCommitStepsAside: two runs of one commit
// finishing out of order — the earlier run (lower run id) finishes last —
// leave the later run's comment; a re-run (the same run id) updates it.
func TestUpsertEarlierRunOfTheSameCommitStepsAside(t *testing.T) {
	fake, c, _ := newFake(t, "t-write")
	later := report.Marker{Key: "prod", At: 20, SHA: "abc", Run: 200}
	Upsert(t.Context(), c, repo, 5, gh.ActionsBot, later, bodyFor(later, "later"), ModeUpdate)
	earlier := report.Marker{Key: "prod", At: 20, SHA: "abc", Run: 100}
	res, err := Upsert(t.Context(), c, repo, 5, gh.ActionsBot, earlier, bodyFor(earlier, "earlier"), ModeUpdate)
	if err != nil || res.Action != "skipped-older" {
		t.Fatalf("%+v %v", res, err)
	}
	if _, last := countKey(fake, 5, "prod"); last.Body != bodyFor(later, "later") {
		t.Errorf("the earlier run overwrote the later: %q", last.Body)
	}
	rerun := report.Marker{Key: "prod", At: 20, SHA: "abc", Run: 200}
	if res, err := Upsert(t.Context(), c, repo, 5, gh.ActionsBot, rerun, bodyFor(rerun, "re-run"), ModeUpdate); err != nil || res.Action != "updated" {
		t.Errorf("a re-run of the same run: %+v %v", res, err)
	}
}
