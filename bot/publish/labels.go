package publish

import (
	"context"
	"slices"

	"github.com/planpr/planpr/bot/gh"
	"github.com/planpr/planpr/render/report"
)

// SyncLabels adds and removes planpr's labels to match every planpr
// comment on the pull request, not just this run's: in a monorepo matrix
// each job comments for its own root, and whichever finishes last must
// keep planpr:destroy while any root destroys. Each comment's marker says
// what it found; of a key's comments (hide-and-new leaves old ones) only
// the newest counts.
func SyncLabels(ctx context.Context, api interface {
	Comments
	Labels
}, repo gh.Repo, pr int, author string) error {
	all, err := planprComments(ctx, api, repo, pr, author)
	if err != nil {
		return err
	}
	newest := map[string]report.Marker{} // oldest first: the last one of a key wins
	for _, c := range all {
		newest[c.Marker.Key] = c.Marker
	}
	var destroy, lockAlert bool
	for _, m := range newest {
		destroy = destroy || m.Destroy > 0
		lockAlert = lockAlert || m.LockAlert
	}
	have, err := api.Labels(ctx, repo, pr)
	if err != nil {
		return err
	}
	want := map[string]bool{report.LabelDestroy: destroy, report.LabelLockAlert: lockAlert}
	var add []string
	for _, l := range []string{report.LabelDestroy, report.LabelLockAlert} {
		has := slices.Contains(have, l)
		switch {
		case want[l] && !has:
			add = append(add, l)
		case !want[l] && has:
			if err := api.RemoveLabel(ctx, repo, pr, l); err != nil {
				return err
			}
		}
	}
	if len(add) > 0 {
		return api.AddLabels(ctx, repo, pr, add)
	}
	return nil
}
