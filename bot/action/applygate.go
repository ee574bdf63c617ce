package action

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"github.com/planpr/planpr/bot"
	"slices"
	"strings"

	"github.com/planpr/planpr/bot/gh"
	"github.com/planpr/planpr/bot/publish"
	"github.com/planpr/planpr/render/fingerprint"
	"github.com/planpr/planpr/render/md"
	"github.com/planpr/planpr/render/report"
	"github.com/planpr/planpr/render/review"
)

// gateEvents are the events reviewed: required can gate: a run on the
// base branch after a merge.
var gateEvents = []string{"push", "workflow_dispatch", "merge_group"}

// canGate refuses reviewed: required on an event it cannot gate (a pull
// request's, a workflow_run): a gate that cannot tell fails, before
// anything is read or posted.
func (p *actionPlan) canGate(event string) error {
	if !p.in.Reviewed {
		return nil
	}
	if p.commentMode == publish.ModeOff {
		return errors.New("reviewed: required reads the review from the merged pull request on GitHub, and comment-mode off makes no GitHub call: nothing was checked; leave comment-mode at update in the apply job")
	}
	if slices.Contains(gateEvents, event) || event == "" && p.ev.PullRequest == nil && p.ev.WorkflowRun == nil {
		return nil
	}
	return fmt.Errorf("reviewed: required gates an apply after a merge, on push or workflow_dispatch, and a merge queue's group, on merge_group; this run is a %q event, which it cannot gate: nothing was checked and nothing is posted (run the apply job on push to the base branch, and keep reviewed off in the review job)",
		event)
}

// review is what a review of the plans at head on pull request pr is
// bound to (see fingerprint.Review).
func (p *actionPlan) review(pr int, head, keyed string) fingerprint.Review {
	return fingerprint.Review{Repo: p.repo.String(), PR: pr, Key: report.MarkerField(p.marker.Key), Head: head, Keyed: keyed, Secret: p.in.ReviewSecret}
}

// afterMerge is a run on the base branch (push, workflow_dispatch): it
// answers to the pull request whose merge made the commit. With reviewed:
// required it checks the plan about to be applied against that pull
// request's review (see gate): done, whatever it finds. Given an apply's
// stream, the run's comment is that pull request's "applied" comment. It
// reports whether the run is done.
func (p *actionPlan) afterMerge(ctx context.Context, env Env, log *bot.ActionLog, api *gh.Client, fp, keyed string) (_ bool, err error) {
	if p.in.Reviewed && p.ev.MergeGroup != nil {
		p.queueFailures, err = p.queueGate(ctx, api, fp, keyed)
		return false, err // the group's check says it: see Run
	}
	if p.in.Reviewed {
		return true, p.gate(ctx, env, log, api, fp, keyed)
	}
	if p.ev.PullRequest != nil || p.ev.WorkflowRun != nil || p.ev.MergeGroup != nil || p.pr != 0 {
		return false, nil
	}
	sha := env.Getenv("GITHUB_SHA")
	if sha == "" {
		return false, nil
	}
	pr, err := api.MergedPullRequest(ctx, p.repo, sha)
	if err != nil {
		return false, err
	}
	applying, err := p.applying()
	if err != nil {
		return false, err
	}
	if pr != 0 && applying {
		p.pr, p.marker.SHA = pr, sha
		p.marker.Key += "/applied"
		p.title = report.Title(strings.TrimSuffix(p.marker.Key, "/applied")) + " · applied"
	}
	return false, nil
}

// gate is reviewed: required. The review that counts is the comment
// planpr keeps for the key on the merged pull request (the oldest of its
// author's with the key's marker), made at the pull request's head, whose
// record (rv=) authenticates — with the review secret — this plan's keyed
// fingerprint for that repository, pull request, key and head. Anything
// else fails the step before the apply: no review, a review of another
// commit, a record without the secret, edited or copied, or a plan that
// differs; the pull request is told what differs. It never posts or edits
// a review.
func (p *actionPlan) gate(ctx context.Context, env Env, log *bot.ActionLog, api *gh.Client, fp, keyed string) error {
	sha := env.Getenv("GITHUB_SHA")
	if sha == "" {
		return errors.New("reviewed: required, but GITHUB_SHA is not set: the commit about to be applied is unknown")
	}
	pr, err := api.MergedPullRequest(ctx, p.repo, sha)
	if err != nil {
		return err
	}
	if pr == 0 {
		return fmt.Errorf("reviewed: required, but no pull request's merge made commit %s: nothing was reviewed", bot.ShortSHA(sha))
	}
	merged, author, kept, err := p.keptReview(ctx, api, pr)
	if err != nil {
		return err
	}
	want := p.review(pr, merged.HeadSHA, keyed)
	switch {
	case kept == nil:
		return fmt.Errorf("reviewed: required, but pull request #%d has no review by planpr of %q: the plan about to be applied was not reviewed", pr, p.marker.Key)
	case kept.SHA != merged.HeadSHA:
		return fmt.Errorf("reviewed: required, but the review of %q on #%d is of commit %s, not of the head that was merged (%s): the merged head's plan was not reviewed", p.marker.Key, pr, bot.ShortSHA(kept.SHA), bot.ShortSHA(merged.HeadSHA))
	case kept.Review == "":
		return fmt.Errorf("reviewed: required, but the review of %q on #%d carries no authenticated record: it was made without review-secret (give the review run the same secret and run it again)", p.marker.Key, pr)
	case want.Verify(kept.Review):
		log.Command("notice", fmt.Sprintf("planpr: the plan is the one reviewed on #%d at %s (plan %s)", pr, bot.ShortSHA(merged.HeadSHA), fingerprint.Short(fp)))
		return nil
	}
	var b strings.Builder
	gate := report.Marker{Key: p.marker.Key + "/apply-gate", SHA: sha}
	fmt.Fprintf(&b, "%s\n## ❌ %s: the plan to apply is not the one reviewed\n\n", gate, md.Text(p.title))
	fmt.Fprintf(&b, "Reviewed on #%d at commit `%s` as plan `%s`; the plan of commit `%s` is `%s`. The apply was stopped.\n\n",
		pr, bot.ShortSHA(merged.HeadSHA), md.Text(fingerprint.Short(kept.Fingerprint)), bot.ShortSHA(sha), fingerprint.Short(fp))
	if kept.Fingerprint == fp {
		b.WriteString("The plans agree on everything but sensitive values, or the review's record was altered: either way, what is applied is not what was reviewed.\n\n")
	}
	if differs, ok := p.whatDiffers(); ok {
		for _, d := range differs {
			b.WriteString("- " + d + "\n")
		}
	} else {
		b.WriteString("Give the reviewed plan JSON (`reviewed-plan`, an artifact of the review run) to see what differs.\n")
	}
	body := b.String()
	writeJobSummary(env.Getenv("GITHUB_STEP_SUMMARY"), body)
	if _, err := publish.Upsert(ctx, api, p.repo, pr, author, gate, body, publish.ModeUpdate); err != nil { // a run again edits it
		log.Command("warning", "planpr: could not tell the pull request: "+err.Error())
	}
	return fmt.Errorf("the plan to apply (%s) is not the one reviewed on #%d (%s): see the job summary", fingerprint.Short(fp), pr, md.Text(fingerprint.Short(kept.Fingerprint)))
}

// keptReview is pull request pr, the login planpr's comments carry, and
// the marker of the review planpr keeps there for the key (the oldest of
// its comments with the key's marker; nil when there is none).
func (p *actionPlan) keptReview(ctx context.Context, api *gh.Client, pr int) (*gh.PullRequest, string, *report.Marker, error) {
	merged, err := api.PullRequest(ctx, p.repo, pr)
	if err != nil {
		return nil, "", nil, err
	}
	author := cmp.Or(p.in.CommentAuthor, gh.ActionsBot)
	if p.in.CommentAuthor == "" && !p.in.WorkflowToken {
		if login, err := api.Login(ctx); err == nil && login != "" {
			author = login
		}
	}
	comments, err := api.ListComments(ctx, p.repo, pr)
	if err != nil {
		return nil, "", nil, err
	}
	key := report.MarkerField(p.marker.Key)
	for _, c := range comments { // oldest first: the one planpr keeps for the key
		if m, ok := report.ParseMarker(c.Body); ok && c.User == author && m.Key == key {
			return merged, author, &m, nil
		}
	}
	return merged, author, nil, nil
}

// queueGate is reviewed: required in a merge queue: the plan made on the
// merge group's commit must be the one reviewed on the pull request the
// group queues, at its head (see gate). It says why it is not, for the
// group's check; nothing when it is.
func (p *actionPlan) queueGate(ctx context.Context, api *gh.Client, fp, keyed string) ([]string, error) {
	pr := p.ev.QueuedPR()
	if pr == 0 {
		return []string{"the merge group's ref names no pull request (gh-readonly-queue/BASE/pr-N-…): nothing was reviewed to compare its plan with"}, nil
	}
	queued, _, kept, err := p.keptReview(ctx, api, pr)
	if err != nil {
		return nil, err
	}
	switch {
	case kept == nil:
		return []string{fmt.Sprintf("pull request #%d has no review by planpr of %q: the queue's plan was not reviewed", pr, p.marker.Key)}, nil
	case kept.SHA != queued.HeadSHA:
		return []string{fmt.Sprintf("the review of %q on #%d is of commit %s, not of its head %s: the queued head's plan was not reviewed", p.marker.Key, pr, bot.ShortSHA(kept.SHA), bot.ShortSHA(queued.HeadSHA))}, nil
	case kept.Review == "":
		return []string{fmt.Sprintf("the review of %q on #%d carries no authenticated record: it was made without review-secret", p.marker.Key, pr)}, nil
	case p.review(pr, queued.HeadSHA, keyed).Verify(kept.Review):
		return nil, nil
	}
	why := []string{fmt.Sprintf("the queue's plan (%s) is not the one reviewed on #%d at %s (%s): the base it merges onto changed what it does",
		fingerprint.Short(fp), pr, bot.ShortSHA(queued.HeadSHA), md.Text(fingerprint.Short(kept.Fingerprint)))}
	differs, _ := p.whatDiffers()
	return append(why, differs...), nil
}

// whatDiffers says, resource by resource, how the run's plan differs from
// the reviewed one (the reviewed-plan input), as Markdown: addresses and
// keys are untrusted text. ok is false when there is no reviewed plan to
// compare with (or not one plan of the run).
func (p *actionPlan) whatDiffers() (differs []string, ok bool) {
	if p.in.ReviewedPlan == "" || len(p.plans) != 1 || p.plans[0].Path == "" {
		return nil, false
	}
	opts := fingerprint.Options{Key: p.in.ReviewSecret}
	r, errR := fingerprint.Read(p.files, p.in.ReviewedPlan, opts)
	c, errC := fingerprint.Read(p.files, p.plans[0].Path, opts)
	if errR == nil && errC == nil {
		for _, d := range fingerprint.Compare(r, c) {
			differs = append(differs, md.Message(d.Message))
		}
	}
	return differs, true
}

// applying reports whether the run's streams are an apply's (see
// review.IsApply).
func (p *actionPlan) applying() (bool, error) {
	for _, pl := range p.plans {
		for _, s := range pl.Streams {
			if apply, err := review.IsApply(p.files, s); apply || err != nil {
				return apply, err
			}
		}
	}
	return false, nil
}
