package publish

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/planpr/planpr/bot/gh"
	"github.com/planpr/planpr/render/report"
)

// CommentMode says how a new comment replaces the old one.
type CommentMode string

const (
	ModeUpdate     CommentMode = "update"       // edit the comment in place
	ModeRecreate   CommentMode = "recreate"     // delete it and post anew
	ModeHideAndNew CommentMode = "hide-and-new" // minimise it as outdated and post anew
	ModeOff        CommentMode = "off"          // do not comment
	// ModeChangesOnly updates the comment while there is something to
	// say (changes, failures, lock files) and deletes it once there is not.
	ModeChangesOnly CommentMode = "changes-only"
)

// ParseCommentMode validates a comment-mode input.
func ParseCommentMode(s string) (CommentMode, error) {
	switch m := CommentMode(s); m {
	case ModeUpdate, ModeRecreate, ModeHideAndNew, ModeOff, ModeChangesOnly:
		return m, nil
	case "":
		return ModeUpdate, nil
	}
	return "", fmt.Errorf("comment-mode %q: want update, recreate, hide-and-new, changes-only or off", s)
}

// UpsertResult says what the upsert did.
type UpsertResult struct {
	Comment *gh.Comment // the comment that now holds the body (nil when skipped or off)
	Action  string      // created, updated, unchanged, skipped-older, recreated, hidden-and-created, off
	Deleted int         // duplicates removed
}

// Upsert keeps exactly one comment for the marker's key on the pull request
// (only comments written by author, planpr's own login, count: anyone can
// write a comment that starts with a marker):
// it finds the comment carrying the key, updates it (or replaces it, per
// mode), else creates one, and after creating lists again and deletes
// same-key duplicates keeping the oldest, so runs racing each other end
// with one comment. A run older than the one that wrote the comment
// changes nothing, and an unchanged body is not written again.
func Upsert(ctx context.Context, api Comments, repo gh.Repo, pr int, author string, marker report.Marker, body string, mode CommentMode) (*UpsertResult, error) {
	for range convergeTries - 1 {
		res, err := upsertOnce(ctx, api, repo, pr, author, marker, body, mode)
		if !errors.Is(err, gh.ErrGone) {
			return res, err
		}
	}
	return upsertOnce(ctx, api, repo, pr, author, marker, body, mode)
}

// olderThan reports whether a run with marker mine is older than the one
// that wrote a comment with marker theirs: its object (the pull request's
// update, the workflow run's start) is older, or it is the same commit's
// and an earlier workflow run's (a lower run id), finishing late.
func olderThan(mine, theirs report.Marker) bool {
	if mine.At == 0 {
		return false // unknown: never counts as older
	}
	if theirs.At != mine.At {
		return theirs.At > mine.At
	}
	return mine.SHA != "" && theirs.SHA == mine.SHA && mine.Run != 0 && theirs.Run > mine.Run
}

func upsertOnce(ctx context.Context, api Comments, repo gh.Repo, pr int, author string, marker report.Marker, body string, mode CommentMode) (*UpsertResult, error) {
	if mode == ModeOff {
		return &UpsertResult{Action: "off"}, nil
	}
	if mode == ModeChangesOnly {
		mode = ModeUpdate // while there is something to say
	}
	if written, ok := report.ParseMarker(body); !ok || written.Key != report.MarkerField(marker.Key) || written.At != marker.At {
		return nil, errors.New("internal error: the comment body does not start with its marker")
	}
	if author == "" {
		return nil, errors.New("internal error: planpr's own login is not known")
	}
	mine, err := sameKey(ctx, api, repo, pr, author, marker.Key)
	if err != nil {
		return nil, err
	}
	if len(mine) > 0 {
		newest := mine[0]
		for _, c := range mine {
			if m, _ := report.ParseMarker(c.Body); olderThan(marker, m) {
				return &UpsertResult{Comment: c, Action: "skipped-older"}, nil
			}
			if c.CreatedAt.After(newest.CreatedAt) {
				newest = c
			}
		}
		switch mode {
		case ModeRecreate:
			for _, c := range mine {
				if err := api.DeleteComment(ctx, repo, c.ID); err != nil {
					return nil, err
				}
			}
			return createAndConverge(ctx, api, repo, pr, author, marker, body, "recreated")
		case ModeHideAndNew:
			if newest.Body == body {
				return &UpsertResult{Comment: newest, Action: "unchanged"}, nil
			}
			for _, c := range mine {
				if err := api.MinimizeComment(ctx, c.NodeID); err != nil {
					return nil, err
				}
				// Retire its marker so it is not found again.
				retired := strings.Replace(c.Body, "<!-- planpr:v1 ", "<!-- planpr:v1:hidden ", 1)
				if _, err := api.EditComment(ctx, repo, c.ID, retired); err != nil {
					return nil, err
				}
			}
			return createAndConverge(ctx, api, repo, pr, author, marker, body, "hidden-and-created")
		}
		keep := mine[0] // the oldest
		res := &UpsertResult{Comment: keep, Action: "unchanged"}
		if keep.Body != body {
			c, err := api.EditComment(ctx, repo, keep.ID, body)
			if err != nil {
				return nil, err
			}
			res.Comment, res.Action = c, "updated"
		}
		for _, c := range mine[1:] {
			if err := api.DeleteComment(ctx, repo, c.ID); err != nil {
				return nil, err
			}
			res.Deleted++
		}
		return res, nil
	}
	return createAndConverge(ctx, api, repo, pr, author, marker, body, "created")
}

// createAndConverge posts the comment, then resolves a race with other
// runs: the oldest same-key comment wins and the others are deleted. (GitHub
// offers no compare-and-swap, so which of several racing runs' bodies ends
// up in it is not guaranteed; that there is exactly one comment is.)
func createAndConverge(ctx context.Context, api Comments, repo gh.Repo, pr int, author string, marker report.Marker, body, action string) (*UpsertResult, error) {
	created, err := api.CreateComment(ctx, repo, pr, body)
	if gh.AnswerLost(err) {
		created, err = createdOrCreate(ctx, api, repo, pr, author, marker, body, err)
	}
	if err != nil {
		return nil, err
	}
	// Racing runs delete each other's duplicates: a comment this run chose
	// to keep may be gone when it writes to it. Losing a race must never
	// fail a run, so it looks again.
	for range convergeTries - 1 {
		res, err := converge(ctx, api, repo, pr, author, marker, body, action, created)
		if !errors.Is(err, gh.ErrGone) {
			return res, err
		}
	}
	return converge(ctx, api, repo, pr, author, marker, body, action, created)
}

// createdOrCreate follows a create whose answer was lost: the comment may
// have been made. One of planpr's with the key and this very body is it;
// else it is posted again, once.
func createdOrCreate(ctx context.Context, api Comments, repo gh.Repo, pr int, author string, marker report.Marker, body string, lost error) (*gh.Comment, error) {
	mine, err := sameKey(ctx, api, repo, pr, author, marker.Key)
	if err != nil {
		return nil, fmt.Errorf("%w; looking for the comment then: %w", lost, err)
	}
	for i := len(mine) - 1; i >= 0; i-- {
		if mine[i].Body == body {
			return mine[i], nil
		}
	}
	return api.CreateComment(ctx, repo, pr, body)
}

// convergeTries bounds how often a run looks again after losing a race.
const convergeTries = 4

// converge keeps the oldest same-key comment and deletes the others.
func converge(ctx context.Context, api Comments, repo gh.Repo, pr int, author string, marker report.Marker, body, action string, created *gh.Comment) (*UpsertResult, error) {
	res := &UpsertResult{Comment: created, Action: action}
	mine, err := sameKey(ctx, api, repo, pr, author, marker.Key)
	if err != nil {
		return nil, err
	}
	if len(mine) <= 1 {
		return res, nil
	}
	// The oldest wins; it takes this run's body when this run is newer
	// than the one that wrote it.
	keep := mine[0]
	if km, _ := report.ParseMarker(keep.Body); keep.ID != created.ID && (km.At < marker.At || marker.At == 0) && keep.Body != body {
		c, err := api.EditComment(ctx, repo, keep.ID, body)
		if err != nil {
			return nil, err
		}
		keep = c
	}
	for _, c := range mine[1:] {
		if err := api.DeleteComment(ctx, repo, c.ID); err != nil {
			return nil, err
		}
		res.Deleted++
	}
	res.Comment = keep
	return res, nil
}

// sameKey lists the pull request's comments by author carrying the key's
// marker, oldest first.
func sameKey(ctx context.Context, api Comments, repo gh.Repo, pr int, author, key string) ([]*gh.Comment, error) {
	all, err := planprComments(ctx, api, repo, pr, author)
	if err != nil {
		return nil, err
	}
	return withKey(all, key), nil
}

// markedComment is one of planpr's comments and what its marker says.
type markedComment struct {
	*gh.Comment
	Marker report.Marker
}

// planprComments lists planpr's own comments on the pull request — a
// marker, written by author (anyone can write a marker) — oldest first.
func planprComments(ctx context.Context, api Comments, repo gh.Repo, pr int, author string) ([]markedComment, error) {
	all, err := api.ListComments(ctx, repo, pr)
	if err != nil {
		return nil, err
	}
	var mine []markedComment
	for _, c := range all {
		if m, ok := report.ParseMarker(c.Body); ok && c.User == author {
			mine = append(mine, markedComment{c, m})
		}
	}
	sort.SliceStable(mine, func(i, j int) bool {
		if mine[i].CreatedAt.Equal(mine[j].CreatedAt) {
			return mine[i].ID < mine[j].ID
		}
		return mine[i].CreatedAt.Before(mine[j].CreatedAt)
	})
	return mine, nil
}

// withKey are the comments of one key, in order.
func withKey(all []markedComment, key string) []*gh.Comment {
	var out []*gh.Comment
	for _, c := range all {
		if c.Marker.Key == report.MarkerField(key) {
			out = append(out, c.Comment)
		}
	}
	return out
}

// Retract deletes the comments of the marker's key, for a root that has
// nothing to say any more (ModeChangesOnly); a comment a newer run wrote
// stays. It reports how many it deleted.
func Retract(ctx context.Context, api Comments, repo gh.Repo, pr int, author string, marker report.Marker) (int, error) {
	mine, err := sameKey(ctx, api, repo, pr, author, marker.Key)
	if err != nil {
		return 0, err
	}
	for _, c := range mine {
		if m, _ := report.ParseMarker(c.Body); m.At > marker.At && marker.At != 0 {
			return 0, nil
		}
	}
	for _, c := range mine {
		if err := api.DeleteComment(ctx, repo, c.ID); err != nil {
			return 0, err
		}
	}
	return len(mine), nil
}
