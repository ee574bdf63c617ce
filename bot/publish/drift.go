package publish

import (
	"context"
	"fmt"
	"regexp"
	"strconv"

	"github.com/planpr/planpr/bot/gh"
	"github.com/planpr/planpr/render/report"
)

// DriftIssues are the GitHub calls keeping a root's drift issue needs.
type DriftIssues interface {
	IssuesLabelled(ctx context.Context, repo gh.Repo, label string) ([]*gh.Issue, error)
	CreateIssue(ctx context.Context, repo gh.Repo, title, body string, labels []string) (*gh.Issue, error)
	EditIssue(ctx context.Context, repo gh.Repo, number int, title, body, state string) (*gh.Issue, error)
	CreateComment(ctx context.Context, repo gh.Repo, pr int, body string) (*gh.Comment, error)
}

// Drift is what one root's scheduled plan found: its report as the
// issue's title and body (the marker first: its key names the root, its
// fingerprint what drifted), how many resources drifted, and whether
// the plan failed.
type Drift struct {
	Title, Body string
	Marker      report.Marker
	Drifted     int
	Failed      bool
	// Where names the run for the notes: "commit abc1234 (run 42)".
	Where string
}

// KeepDriftIssue keeps one issue per root for its drift, labelled
// planpr:drift: opened when the root drifts, left alone when it drifts
// the same, edited with a note when the drift changes, closed with a
// note when the root no longer drifts, reopened when drift comes back.
// A failed plan is noted on the open issue, which stays open. It says
// what it did.
func KeepDriftIssue(ctx context.Context, api DriftIssues, repo gh.Repo, author string, d Drift) (string, *gh.Issue, error) {
	issues, err := api.IssuesLabelled(ctx, repo, report.LabelDrift)
	if err != nil {
		return "", nil, err
	}
	var mine *gh.Issue
	var prior report.Marker
	for _, i := range issues {
		m, ok := report.ParseMarker(i.Body)
		if ok && i.User == author && m.Key == report.MarkerField(d.Marker.Key) && (mine == nil || i.Number > mine.Number) {
			mine, prior = i, m
		}
	}
	note := func(text string) error {
		_, err := api.CreateComment(ctx, repo, mine.Number, text)
		return err
	}
	switch {
	case d.Failed:
		if mine == nil || mine.State != "open" {
			return "plan failed: no drift issue to tell", mine, nil
		}
		return "plan failed: noted", mine, note(fmt.Sprintf("The scheduled plan failed at %s: what drifted is not known now; this issue shows the last plan that ran. See the run for the errors.", d.Where))
	case d.Drifted == 0:
		if mine == nil || mine.State != "open" {
			return "no drift", mine, nil
		}
		if err := note(fmt.Sprintf("No drift at %s: closing.", d.Where)); err != nil {
			return "", mine, err
		}
		i, err := api.EditIssue(ctx, repo, mine.Number, "", "", "closed")
		return "closed", i, err
	case mine == nil:
		i, err := api.CreateIssue(ctx, repo, d.Title, d.Body, []string{report.LabelDrift})
		return "opened", i, err
	case mine.State != "open":
		i, err := api.EditIssue(ctx, repo, mine.Number, d.Title, d.Body, "open")
		if err != nil {
			return "", i, err
		}
		return "reopened", i, note(fmt.Sprintf("The drift is back at %s: %s.", d.Where, resources(d.Drifted)))
	case prior.Fingerprint != "" && prior.Fingerprint == d.Marker.Fingerprint:
		return "unchanged", mine, nil // the same drift: nothing to write
	}
	before := driftedIn(mine.Title)
	i, err := api.EditIssue(ctx, repo, mine.Number, d.Title, d.Body, "")
	if err != nil {
		return "", i, err
	}
	how := "changed"
	switch {
	case before >= 0 && d.Drifted > before:
		how = "grew"
	case before >= 0 && d.Drifted < before:
		how = "shrank"
	}
	was := ""
	if before >= 0 {
		was = fmt.Sprintf(" from %s", resources(before))
	}
	return "updated", i, note(fmt.Sprintf("The drift %s at %s%s to %s; the issue shows it now.", how, d.Where, was, resources(d.Drifted)))
}

// driftCount finds the count a drift issue's title says ("…: 3 resources
// changed outside OpenTofu"); -1 when it says none.
var driftCount = regexp.MustCompile(`: (\d+) resources? `)

func driftedIn(title string) int {
	if m := driftCount.FindStringSubmatch(title); m != nil {
		if n, err := strconv.Atoi(m[1]); err == nil {
			return n
		}
	}
	return -1
}

func resources(n int) string {
	if n == 1 {
		return "1 resource"
	}
	return fmt.Sprintf("%d resources", n)
}
