package bot

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/planpr/planpr/bot/gh"
	"github.com/planpr/planpr/bot/publish"
	"github.com/planpr/planpr/internal/lazyre"
	"github.com/planpr/planpr/render"
	"github.com/planpr/planpr/render/fingerprint"
	"github.com/planpr/planpr/render/md"
	"github.com/planpr/planpr/render/report"
)

// applyOperation finds a UI stream of an apply.
var applyOperation = lazyre.New(`"operation"\s*:\s*"apply"`)

// afterMerge is a run on the base branch (push, workflow_dispatch): it
// answers to the pull request whose merge made the commit. With reviewed:
// required it checks the plan about to be applied against the fingerprint
// that pull request's review recorded, and fails before the apply when
// they differ (done: nothing else is posted); given an apply's stream, the
// run's comment is that pull request's "applied" comment. It reports
// whether the run is done.
func (p *actionPlan) afterMerge(ctx context.Context, env ActionEnv, log *ActionLog, api *gh.Client, fp string) (bool, error) {
	if p.ev.PullRequest != nil || p.ev.WorkflowRun != nil || p.pr != 0 {
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
	if !p.in.Reviewed {
		if pr != 0 && p.applying() {
			p.pr, p.marker.SHA = pr, sha
			p.marker.Key += "/applied"
			p.title = report.Title(strings.TrimSuffix(p.marker.Key, "/applied")) + " · applied"
		}
		return false, nil
	}
	if pr == 0 {
		return true, fmt.Errorf("reviewed: required, but no pull request's merge made commit %s: nothing was reviewed", shortSHA(sha))
	}
	author := cmp.Or(p.in.CommentAuthor, gh.ActionsBot)
	if login, err := api.Login(ctx); err == nil && login != "" && p.in.CommentAuthor == "" {
		author = login
	}
	comments, err := api.ListComments(ctx, p.repo, pr)
	if err != nil {
		return true, err
	}
	reviewed := ""
	for _, c := range comments {
		if m, ok := render.ParseMarker(c.Body); ok && c.User == author && m.Key == render.MarkerField(p.marker.Key) && m.Fingerprint != "" {
			reviewed = m.Fingerprint
		}
	}
	switch {
	case reviewed == "":
		return true, fmt.Errorf("reviewed: required, but pull request #%d has no review by planpr of %q with a plan fingerprint: the plan about to be applied was not reviewed", pr, p.marker.Key)
	case fp == reviewed:
		log.Command("notice", fmt.Sprintf("planpr: the plan is the one reviewed on #%d (plan %s)", pr, fingerprint.Short(fp)))
		return true, nil
	}
	var b strings.Builder
	gate := render.Marker{Key: p.marker.Key + "/apply-gate", SHA: sha}
	fmt.Fprintf(&b, "%s\n## ❌ %s: the plan to apply is not the one reviewed\n\n", gate, md.Text(p.title))
	fmt.Fprintf(&b, "Reviewed on #%d as plan `%s`; the plan of commit `%s` is `%s`. The apply was stopped.\n\n", pr, fingerprint.Short(reviewed), shortSHA(sha), fingerprint.Short(fp))
	if p.in.ReviewedPlan != "" && len(p.plans) == 1 && p.plans[0].Path != "" {
		r, errR := fingerprint.Read(p.in.ReviewedPlan)
		c, errC := fingerprint.Read(p.plans[0].Path)
		if errR == nil && errC == nil {
			for _, d := range fingerprint.Compare(r, c) {
				b.WriteString("- " + d.Message + "\n")
			}
		}
	} else {
		b.WriteString("Give the reviewed plan JSON (`reviewed-plan`, an artifact of the review run) to see what differs.\n")
	}
	body := b.String()
	writeJobSummary(env.Getenv("GITHUB_STEP_SUMMARY"), body)
	if _, err := publish.Upsert(ctx, api, p.repo, pr, author, gate, body, publish.ModeUpdate); err != nil { // a run again edits it
		log.Command("warning", "planpr: could not tell the pull request: "+err.Error())
	}
	return true, fmt.Errorf("the plan to apply (%s) is not the one reviewed on #%d (%s): see the job summary", fingerprint.Short(fp), pr, fingerprint.Short(reviewed))
}

// applying reports whether the run's streams are an apply's.
func (p *actionPlan) applying() bool {
	for _, pl := range p.plans {
		for _, s := range pl.Streams {
			if isApply(s) {
				return true
			}
		}
	}
	return false
}

func isApply(stream string) bool {
	b, err := os.ReadFile(stream)
	return err == nil && applyOperation().Match(b)
}

// applyIn reports whether an unpacked artifact holds an apply's stream.
func applyIn(dir string) bool {
	found := false
	filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".jsonl") && isApply(path) {
			found = true
		}
		return nil
	})
	return found
}
