// Package report owns what every runner must agree on about a comment
// beside its body: the keys comments are found by, their titles and
// their defaults. The Action, the App and dry-run all ask it, so that the
// same inputs give the same key and title wherever they run.
package report

import (
	"cmp"
	"github.com/planpr/planpr/render/inputs"
	"path"
	"strings"
)

// LocksKey is the key of a comment that holds lock files alone: a pull
// request with no plan, or the lock files no planned root holds.
const LocksKey = "locks"

// PullRequestKey is the key of the one comment that covers every root of
// a pull request (comment-per: pull-request): titled "planpr", its check
// "planpr", whichever roots a run brings.
const PullRequestKey = "pr"

// Title is a comment's default title: planpr, and its key, so that the
// comments of a monorepo's roots tell themselves apart ("planpr · prod");
// a comment of lock files alone is "planpr · lock files".
func Title(key string) string {
	switch key {
	case "", ".", PullRequestKey:
		return "planpr"
	case LocksKey:
		return "planpr · lock files"
	}
	return "planpr · " + key
}

// KeyFor is the key of a run's comment: PullRequestKey when it covers
// several roots (or the roots a monorepo expects) and comments are per
// pull request; else Key(names).
func KeyFor(names []string, perPullRequest, expected bool) string {
	if perPullRequest && (len(names) > 1 || expected) {
		return PullRequestKey
	}
	return Key(names)
}

// Key is the key of a comment of the root modules named: their names
// joined, or LocksKey when there is none.
func Key(names []string) string {
	if len(names) == 0 {
		return LocksKey
	}
	return strings.Join(names, ",")
}

// Missing are the roots the roots input expects and no plan or
// stream of this run is: a matrix job that failed or was cancelled.
func Missing(expected []string, plans []inputs.Root) []MissingRoot {
	have := map[string]bool{}
	for _, p := range plans {
		have[path.Clean(cmp.Or(p.Root, p.Name))] = true
		have[path.Clean(p.Name)] = true
	}
	var out []MissingRoot
	for _, r := range expected {
		if !have[path.Clean(r)] {
			out = append(out, MissingRoot{Name: r, Why: "no plan arrived: its job failed or was cancelled"})
		}
	}
	return out
}
