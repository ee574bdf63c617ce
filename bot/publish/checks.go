package publish

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/planpr/planpr/bot/gh"
	"github.com/planpr/planpr/render/report"
)

// The GitHub calls a check run and its approval need.
type (
	// Checks is what keeping planpr's check run needs: the runs, and
	// whether another pull request with the same head is still open.
	Checks interface {
		CheckRuns(ctx context.Context, repo gh.Repo, sha, name string) ([]*gh.CheckRun, error)
		CreateCheckRun(ctx context.Context, repo gh.Repo, spec gh.CheckSpec) (*gh.CheckRun, error)
		UpdateCheckRun(ctx context.Context, repo gh.Repo, id int64, spec gh.CheckSpec) (*gh.CheckRun, error)
		PullRequest(ctx context.Context, repo gh.Repo, pr int) (*gh.PullRequest, error)
	}
	// Approvals is what reading the approval label needs.
	Approvals interface {
		LabelledBy(ctx context.Context, repo gh.Repo, pr int, label string) (string, error)
		Permission(ctx context.Context, repo gh.Repo, user string) (string, error)
	}
)

// Check is a check run as a report gives it, and what judges it.
type Check struct {
	Name, SHA string
	// App is the slug of the app planpr posts as ("github-actions" for the
	// Action, the App's own): runs of any other app are never read or
	// updated, whatever their name.
	App   string
	PR    int          // the pull request judged
	Facts report.Facts // kept in the run, to judge it again
	// FailOn and Approval judge the facts; LabelledHere says the approval
	// label's own event came while SHA was the head (so it approves SHA).
	FailOn       report.FailOn
	Approval     report.Approval
	LabelledHere bool
	Title        string
	Summary      string // the comment, within what the verdict leaves
	Text         string // the longer report, when it fits
	DetailsURL   string // the comment's page
	// Annotations are every located problem; at most gh.MaxAnnotations go
	// with the check, the rest are counted in its summary.
	Annotations []report.Annotation
	// Failures are reasons the check fails besides its facts (a merge
	// queue's plan that is not the one reviewed), said first.
	Failures []string
}

// CheckSummaryRoom is what a check's summary leaves the comment: the
// verdict and its lines first (see CheckHead), within GitHub's limit.
const CheckSummaryRoom = gh.MaxCheckText - checkHeadRoom

// checkHeadRoom bounds the verdict's part of a check's summary.
const checkHeadRoom = 4000

// CheckHead is what a check's summary says before the comment: the
// conclusion and why, the annotations left out, a link to the comment.
func CheckHead(c Check, v report.Verdict) string {
	var b strings.Builder
	fmt.Fprintf(&b, "**%s** — %s\n", checkWord(v.Conclusion), "planpr's merge gate")
	for _, why := range v.Why {
		line := "- " + why + "\n"
		if b.Len()+len(line) > checkHeadRoom-600 {
			b.WriteString("- …\n")
			break
		}
		b.WriteString(line)
	}
	if n := len(c.Annotations); n > maxAnnotations {
		fmt.Fprintf(&b, "\n%d problems are marked on their lines in the Files tab; %d more are in the comment.\n", maxAnnotations, n-maxAnnotations)
	}
	if u := c.DetailsURL; (strings.HasPrefix(u, "https://") || strings.HasPrefix(u, "http://")) && !strings.ContainsAny(u, " ()<>\"'\n") {
		fmt.Fprintf(&b, "\nThe same report is [the pull request's comment](%s).\n", c.DetailsURL)
	}
	b.WriteString(checkHeadEnd)
	return b.String()
}

func checkWord(conclusion string) string {
	switch conclusion {
	case "failure":
		return "❌ Fails"
	}
	return "✅ Passes"
}

// UpsertCheck judges c and keeps one check run of c.Name on the commit,
// made by c.App: the one there is updated in place, else one is created
// (a create whose answer was lost is looked for first). A run of that
// name by another app is left alone. The approval counts only when it
// was given at this commit (c.LabelledHere, or recorded by the run
// before); the verdict fails while another open pull request with this
// head fails here. Its summary is CheckHead and the comment, never over
// GitHub's limit; its annotations the first gh.MaxAnnotations.
func UpsertCheck(ctx context.Context, api Checks, repo gh.Repo, c Check) (*gh.CheckRun, report.Verdict, error) {
	for looked := 0; ; looked++ {
		runs, err := api.CheckRuns(ctx, repo, c.SHA, c.Name)
		if err != nil {
			return nil, report.Verdict{}, err
		}
		var mine *gh.CheckRun
		prior := report.Facts{}
		for _, r := range runs {
			// planpr's own: made by its app, and holding its facts (a
			// workflow job of the same name, which the Actions app makes
			// too, holds none).
			if facts, ok := report.ParseFacts(r.ExternalID); ok && r.Name == c.Name && r.App == c.App {
				mine, prior = r, facts
				break
			}
		}
		facts, verdict := judge(ctx, api, repo, c, prior)
		if len(c.Failures) > 0 {
			why := verdict.Why
			if verdict.Conclusion != "failure" {
				why = nil // "nothing in fail-on happened" is not why it fails
			}
			verdict.Conclusion, verdict.Why, facts.Failed = "failure", append(slices.Clone(c.Failures), why...), true
		}
		spec := checkSpec(c, facts, verdict)
		if mine != nil {
			if unchanged(mine, spec) {
				return mine, verdict, nil // the same report judged the same: nothing to write
			}
			run, err := api.UpdateCheckRun(ctx, repo, mine.ID, spec)
			if err == nil {
				err = moreAnnotations(ctx, api, repo, run.ID, spec, c.Annotations)
			}
			return run, verdict, err
		}
		run, err := api.CreateCheckRun(ctx, repo, spec)
		if looked == 0 && gh.AnswerLost(err) {
			continue // it may have been made: look again, then update it or make it once more
		}
		if err == nil {
			err = moreAnnotations(ctx, api, repo, run.ID, spec, c.Annotations)
		}
		return run, verdict, err
	}
}

// judge is a check's facts and verdict, given what its run held before:
// the approval bound to this commit, the other pull requests failing here.
func judge(ctx context.Context, api Checks, repo gh.Repo, c Check, prior report.Facts) (report.Facts, report.Verdict) {
	facts := c.Facts
	facts.PR = c.PR
	approval := c.Approval
	if by := approval.By; by != "" {
		if c.LabelledHere || prior.PR == c.PR && prior.Approval == by {
			facts.Approval = by
		} else {
			approval = report.Approval{Stale: by}
		}
	}
	facts.Failing = report.OtherFailing(prior, c.PR, func(n int) bool {
		pr, err := api.PullRequest(ctx, repo, n)
		return err != nil || pr.Open // cannot tell: it still fails
	})
	own := facts
	own.Failing = nil
	facts.Failed = report.JudgeFacts(own, c.FailOn, approval).Conclusion == "failure"
	return facts, report.JudgeFacts(facts, c.FailOn, approval)
}

// maxAnnotations bounds the annotations a check run is given, in
// batches of gh.MaxAnnotations (GitHub's limit a request): a report of
// thousands of findings costs at most ten requests; the rest are in the
// comment.
const maxAnnotations = 10 * gh.MaxAnnotations

// moreAnnotations gives a check run the annotations past the first batch
// (which its creation or update carried), a batch a request: GitHub adds
// each request's to the run's.
func moreAnnotations(ctx context.Context, api Checks, repo gh.Repo, id int64, spec gh.CheckSpec, all []report.Annotation) error {
	for start := gh.MaxAnnotations; start < min(len(all), maxAnnotations); start += gh.MaxAnnotations {
		batch := spec
		batch.Output.Annotations = annotations(all[start:min(start+gh.MaxAnnotations, len(all), maxAnnotations)])
		if _, err := api.UpdateCheckRun(ctx, repo, id, batch); err != nil {
			return err
		}
	}
	return nil
}

// annotations are a check's annotations as GitHub takes them.
func annotations(as []report.Annotation) []gh.Annotation {
	var out []gh.Annotation
	for _, a := range as {
		out = append(out, gh.Annotation{Path: a.Path, StartLine: a.Line, EndLine: a.Line, Level: a.Level,
			Title: cut(a.Title, 255), Message: cut(a.Message, 64*1024-1)})
	}
	return out
}

// checkSpec is what UpsertCheck writes.
// unchanged reports whether a check run already says what spec would
// write: the verdict, its facts, title, summary (the verdict and the
// comment, which the text and the annotations follow) and link.
func unchanged(r *gh.CheckRun, spec gh.CheckSpec) bool {
	return r.Conclusion == spec.Conclusion && r.ExternalID == spec.ExternalID && r.Title == spec.Output.Title &&
		r.Summary == spec.Output.Summary && r.DetailsURL == spec.DetailsURL
}

func checkSpec(c Check, facts report.Facts, verdict report.Verdict) gh.CheckSpec {
	out := gh.CheckOutput{Title: cut(c.Title, 1000), Summary: cut(CheckHead(c, verdict)+c.Summary, gh.MaxCheckText)}
	if utf8.RuneCountInString(c.Text) <= gh.MaxCheckText {
		out.Text = c.Text
	}
	out.Annotations = annotations(c.Annotations[:min(len(c.Annotations), gh.MaxAnnotations)])
	return gh.CheckSpec{Name: c.Name, SHA: c.SHA, Conclusion: verdict.Conclusion, DetailsURL: c.DetailsURL, ExternalID: facts.String(), Output: out}
}

// Rejudge judges planpr's check runs on a commit again for pull request
// pr with a new approval (its label added or removed; labelled says the
// label's event was for this commit): their verdict and its lines change,
// the report under them stays. Runs of other apps, and runs last judged
// for another pull request (whose plan planpr did not read for this one),
// are left alone.
func Rejudge(ctx context.Context, api Checks, repo gh.Repo, sha, app string, pr int, failOn report.FailOn, approval report.Approval, labelled bool) (int, error) {
	runs, err := api.CheckRuns(ctx, repo, sha, "")
	if err != nil {
		return 0, err
	}
	n := 0
	for _, r := range runs {
		prior, ok := report.ParseFacts(r.ExternalID)
		if !ok || !strings.HasPrefix(r.Name, "planpr") || r.App != app || prior.PR != 0 && prior.PR != pr {
			continue
		}
		c := Check{Name: r.Name, SHA: sha, App: app, PR: pr, Facts: prior, FailOn: failOn, Approval: approval, LabelledHere: labelled, DetailsURL: r.DetailsURL}
		c.Facts.Approval, c.Facts.Failing = "", nil
		facts, verdict := judge(ctx, api, repo, c, prior)
		_, body, found := strings.Cut(r.Summary, checkHeadEnd)
		if !found {
			body = r.Summary
		}
		out := gh.CheckOutput{Title: r.Title, Summary: cut(CheckHead(c, verdict)+body, gh.MaxCheckText)}
		if _, err := api.UpdateCheckRun(ctx, repo, r.ID, gh.CheckSpec{Name: r.Name, Conclusion: verdict.Conclusion, DetailsURL: r.DetailsURL, ExternalID: facts.String(), Output: out}); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

// checkHeadEnd ends CheckHead.
const checkHeadEnd = "\n---\n\n"

// cut keeps the first n characters of s, whole.
func cut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// writers are the permissions that may approve.
var writers = map[string]bool{"admin": true, "maintain": true, "write": true}

// ReadApproval reads the approval label of a pull request: who added it
// last, and whether they may write to the repository.
func ReadApproval(ctx context.Context, api Approvals, repo gh.Repo, pr int, labels []string) report.Approval {
	has := false
	for _, l := range labels {
		has = has || l == report.LabelDestroyApproved
	}
	if !has {
		return report.Approval{}
	}
	by, err := api.LabelledBy(ctx, repo, pr, report.LabelDestroyApproved)
	if err != nil || by == "" {
		return report.Approval{Unknown: true}
	}
	perm, err := api.Permission(ctx, repo, by)
	switch {
	case errors.Is(err, gh.ErrReadOnly) || err != nil:
		return report.Approval{Unknown: true}
	case writers[perm]:
		return report.Approval{By: by}
	}
	return report.Approval{Refused: by}
}
