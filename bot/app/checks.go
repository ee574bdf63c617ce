package app

import (
	"context"
	"errors"
	"github.com/planpr/planpr/bot"
	"log/slog"
	"strings"

	"github.com/planpr/planpr/bot/gh"
	"github.com/planpr/planpr/bot/publish"
	"github.com/planpr/planpr/lockdiff"
	"github.com/planpr/planpr/render/report"
)

// RepoConfigPath is a repository's own planpr settings (read from its
// default branch only).
const RepoConfigPath = report.RepoConfigPath

// failOn is a repository's fail-on: its RepoConfigPath's on the default
// branch, else the App's (PLANPR_FAIL_ON). A file that says something
// planpr cannot read is logged and the App's is used.
func (s *Server) failOn(ctx context.Context, api bot.GitHub, repo gh.Repo, defaultBranch string, log *slog.Logger) report.FailOn {
	fallback := s.cfg.FailOn
	if fallback == nil {
		fallback, _ = report.ParseFailOn("")
	}
	src, found, err := api.FileAt(ctx, repo, RepoConfigPath, defaultBranch)
	if err != nil || !found {
		return fallback
	}
	f, err := report.RepoFailOn(src)
	if err != nil {
		log.Warn("the repository's planpr settings cannot be used; using the App's fail-on", "error", boundedName(err.Error()))
	}
	if f == nil {
		return fallback
	}
	return f
}

// keepCheck keeps a key's check run on the head commit, judged by the
// repository's fail-on and the approval label. An installation the App
// may not write checks with is logged, and the comment stands.
func (s *Server) keepCheck(ctx context.Context, api bot.GitHub, repo gh.Repo, pr int, ev *bot.Event, key, sha string, res *report.Result, locks []*lockdiff.FileDiff, checkBody, detailsURL string, log *slog.Logger) error {
	labels, err := api.Labels(ctx, repo, pr)
	if err != nil {
		return err
	}
	app, err := s.appSlug(ctx)
	if err != nil {
		return err
	}
	run, verdict, err := publish.UpsertCheck(ctx, api, repo, publish.Check{Name: report.CheckName(key), SHA: sha, App: app, PR: pr,
		Facts: report.FactsOf(res, locks), FailOn: s.failOn(ctx, api, repo, ev.Repository.DefaultBranch, log),
		Approval: publish.ReadApproval(ctx, api, repo, pr, labels), LabelledHere: bot.ApprovalLabelledAt(ev, sha),
		Title: res.Heading, Summary: checkBody, DetailsURL: detailsURL, Annotations: res.Annotations})
	if errors.Is(err, gh.ErrReadOnly) {
		log.Warn("the App cannot write check runs: give it checks (write)")
		return nil
	}
	if err != nil {
		return err
	}
	log.Info("check", "name", run.Name, "conclusion", verdict.Conclusion)
	return nil
}

// appSlug is the App's slug: its check runs are the ones it made.
func (s *Server) appSlug(ctx context.Context) (string, error) {
	login, err := s.login(ctx)
	return strings.TrimSuffix(login, "[bot]"), err
}

// rejudge answers the approval label added or removed: planpr's checks on
// the commit that was the head when the label changed (the event's, never
// the head read later: a push after the label is not approved) are judged
// again.
func (s *Server) rejudge(ctx context.Context, api bot.GitHub, repo gh.Repo, ev *bot.Event, log *slog.Logger) error {
	app, err := s.appSlug(ctx)
	if err != nil {
		return err
	}
	n, err := bot.JudgeAgain(ctx, api, repo, ev, app, s.failOn(ctx, api, repo, ev.Repository.DefaultBranch, log))
	if errors.Is(err, gh.ErrReadOnly) {
		log.Warn("the App cannot write check runs: give it checks (write)")
		return nil
	}
	log.Info("checks judged again", "label", ev.Label.Name, "action", ev.Action, "checks", n)
	return err
}

// dropApproval removes the approval label on a new push: an approval is
// for the commit it was given at.
func dropApproval(ctx context.Context, api bot.GitHub, repo gh.Repo, pr int, log *slog.Logger) error {
	labels, err := api.Labels(ctx, repo, pr)
	if err != nil {
		return err
	}
	for _, l := range labels {
		if l == report.LabelDestroyApproved {
			if err := api.RemoveLabel(ctx, repo, pr, l); err != nil && !errors.Is(err, gh.ErrReadOnly) {
				return err
			}
			log.Info("a new push: the approval label is removed", "label", l)
		}
	}
	return nil
}
