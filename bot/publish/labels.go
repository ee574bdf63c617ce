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
// the newest counts. It returns the pull request's labels as they are
// once it is done, for whoever reads them next in the run.
func SyncLabels(ctx context.Context, comments Comments, api Labels, repo gh.Repo, pr int, author string) ([]string, error) {
	all, err := planprComments(ctx, comments, repo, pr, author)
	if err != nil {
		return nil, err
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
		return nil, err
	}
	now := append([]string{}, have...) // never nil: the labels are known
	want := map[string]bool{report.LabelDestroy: destroy, report.LabelLockAlert: lockAlert}
	var add []string
	for _, l := range []string{report.LabelDestroy, report.LabelLockAlert} {
		has := slices.Contains(have, l)
		switch {
		case want[l] && !has:
			add = append(add, l)
		case !want[l] && has:
			if err := api.RemoveLabel(ctx, repo, pr, l); err != nil {
				return nil, err
			}
			now = slices.DeleteFunc(now, func(x string) bool { return x == l })
		}
	}
	if len(add) > 0 {
		if err := api.AddLabels(ctx, repo, pr, add); err != nil {
			return nil, err
		}
		now = append(now, add...)
	}
	return now, nil
}
