package bot

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// CommentMode says how a new comment replaces the old one.
type CommentMode string

const (
	ModeUpdate     CommentMode = "update"       // edit the comment in place
	ModeRecreate   CommentMode = "recreate"     // delete it and post anew
	ModeHideAndNew CommentMode = "hide-and-new" // minimise it as outdated and post anew
	ModeOff        CommentMode = "off"          // do not comment
)

// ParseCommentMode validates a comment-mode input.
func ParseCommentMode(s string) (CommentMode, error) {
	switch m := CommentMode(s); m {
	case ModeUpdate, ModeRecreate, ModeHideAndNew, ModeOff:
		return m, nil
	case "":
		return ModeUpdate, nil
	}
	return "", fmt.Errorf("comment-mode %q: want update, recreate, hide-and-new or off", s)
}

// Marker is what planpr writes on the first line of its comments.
type Marker struct {
	Key string
	SHA string
	// At orders comments of one key: the Unix time of the object that
	// triggered the run (the pull request's updated_at, the workflow run's
	// run_started_at), one clock for the Action and the App; 0 when
	// unknown, which never counts as newer.
	At  int64
	Run int64 // the workflow run id, for reference; 0 when unknown
}

// String is the marker line.
func (m Marker) String() string {
	s := "<!-- planpr:v1 key=" + markerField(m.Key)
	if m.SHA != "" {
		s += " sha=" + markerField(m.SHA)
	}
	if m.At != 0 {
		s += " at=" + strconv.FormatInt(m.At, 10)
	}
	if m.Run != 0 {
		s += " run=" + strconv.FormatInt(m.Run, 10)
	}
	return s + " -->"
}

// Extra is the marker's fields after the key, for render.Marker.
func (m Marker) Extra() string {
	s := strings.TrimPrefix(m.String(), "<!-- planpr:v1 key="+markerField(m.Key))
	return strings.TrimSpace(strings.TrimSuffix(s, " -->"))
}

func markerField(s string) string {
	s = strings.ReplaceAll(s, "--", "__")
	return strings.Map(func(r rune) rune {
		if r <= ' ' || r == '<' || r == '>' || r == '"' {
			return '_'
		}
		return r
	}, s)
}

var markerLine = regexp.MustCompile(`^<!-- planpr:v1 key=(\S+)((?: \w+=\S+)*) -->`)

// ParseMarker reads the marker at the start of a comment body.
func ParseMarker(body string) (Marker, bool) {
	m := markerLine.FindStringSubmatch(body)
	if m == nil {
		return Marker{}, false
	}
	mk := Marker{Key: m[1]}
	for _, f := range strings.Fields(m[2]) {
		k, v, _ := strings.Cut(f, "=")
		switch k {
		case "sha":
			mk.SHA = v
		case "at":
			mk.At, _ = strconv.ParseInt(v, 10, 64)
		case "run":
			mk.Run, _ = strconv.ParseInt(v, 10, 64)
		}
	}
	return mk, true
}

// UpsertResult says what the upsert did.
type UpsertResult struct {
	Comment *Comment // the comment that now holds the body (nil when skipped or off)
	Action  string   // created, updated, unchanged, skipped-older, recreated, hidden-and-created, off
	Deleted int      // duplicates removed
}

// Upsert keeps exactly one comment for the marker's key on the pull request
// (only comments written by author, planpr's own login, count: anyone can
// write a comment that starts with a marker):
// it finds the comment carrying the key, updates it (or replaces it, per
// mode), else creates one, and after creating lists again and deletes
// same-key duplicates keeping the oldest, so runs racing each other end
// with one comment. A run older than the one that wrote the comment
// changes nothing, and an unchanged body is not written again.
func Upsert(ctx context.Context, gh GitHub, repo Repo, pr int, author string, marker Marker, body string, mode CommentMode) (*UpsertResult, error) {
	if mode == ModeOff {
		return &UpsertResult{Action: "off"}, nil
	}
	if !strings.HasPrefix(body, marker.String()) {
		return nil, errors.New("internal error: the comment body does not start with its marker")
	}
	if author == "" {
		return nil, errors.New("internal error: planpr's own login is not known")
	}
	mine, err := sameKey(ctx, gh, repo, pr, author, marker.Key)
	if err != nil {
		return nil, err
	}
	if len(mine) > 0 {
		newest := mine[0]
		for _, c := range mine {
			if m, _ := ParseMarker(c.Body); m.At > marker.At && marker.At != 0 {
				return &UpsertResult{Comment: c, Action: "skipped-older"}, nil
			}
			if c.CreatedAt.After(newest.CreatedAt) {
				newest = c
			}
		}
		switch mode {
		case ModeRecreate:
			for _, c := range mine {
				if err := gh.DeleteComment(ctx, repo, c.ID); err != nil {
					return nil, err
				}
			}
			return createAndConverge(ctx, gh, repo, pr, author, marker, body, "recreated")
		case ModeHideAndNew:
			if newest.Body == body {
				return &UpsertResult{Comment: newest, Action: "unchanged"}, nil
			}
			for _, c := range mine {
				if err := gh.MinimizeComment(ctx, c.NodeID); err != nil {
					return nil, err
				}
				// Retire its marker so it is not found again.
				retired := strings.Replace(c.Body, "<!-- planpr:v1 ", "<!-- planpr:v1:hidden ", 1)
				if _, err := gh.EditComment(ctx, repo, c.ID, retired); err != nil {
					return nil, err
				}
			}
			return createAndConverge(ctx, gh, repo, pr, author, marker, body, "hidden-and-created")
		}
		keep := mine[0] // the oldest
		res := &UpsertResult{Comment: keep, Action: "unchanged"}
		if keep.Body != body {
			c, err := gh.EditComment(ctx, repo, keep.ID, body)
			if err != nil {
				return nil, err
			}
			res.Comment, res.Action = c, "updated"
		}
		for _, c := range mine[1:] {
			if err := gh.DeleteComment(ctx, repo, c.ID); err != nil {
				return nil, err
			}
			res.Deleted++
		}
		return res, nil
	}
	return createAndConverge(ctx, gh, repo, pr, author, marker, body, "created")
}

// createAndConverge posts the comment, then resolves a race with other
// runs: the oldest same-key comment wins and the others are deleted. (GitHub
// offers no compare-and-swap, so which of several racing runs' bodies ends
// up in it is not guaranteed; that there is exactly one comment is.)
func createAndConverge(ctx context.Context, gh GitHub, repo Repo, pr int, author string, marker Marker, body, action string) (*UpsertResult, error) {
	created, err := gh.CreateComment(ctx, repo, pr, body)
	if err != nil {
		return nil, err
	}
	res := &UpsertResult{Comment: created, Action: action}
	mine, err := sameKey(ctx, gh, repo, pr, author, marker.Key)
	if err != nil {
		return nil, err
	}
	if len(mine) <= 1 {
		return res, nil
	}
	// The oldest wins; it takes this run's body when this run is newer
	// than the one that wrote it.
	keep := mine[0]
	if km, _ := ParseMarker(keep.Body); keep.ID != created.ID && (km.At < marker.At || marker.At == 0) && keep.Body != body {
		c, err := gh.EditComment(ctx, repo, keep.ID, body)
		if err != nil {
			return nil, err
		}
		keep = c
	}
	for _, c := range mine[1:] {
		if err := gh.DeleteComment(ctx, repo, c.ID); err != nil {
			return nil, err
		}
		res.Deleted++
	}
	res.Comment = keep
	return res, nil
}

// sameKey lists the pull request's comments by author carrying the key's
// marker, oldest first.
func sameKey(ctx context.Context, gh GitHub, repo Repo, pr int, author, key string) ([]*Comment, error) {
	all, err := gh.ListComments(ctx, repo, pr)
	if err != nil {
		return nil, err
	}
	var mine []*Comment
	for _, c := range all {
		if m, ok := ParseMarker(c.Body); ok && c.User == author && m.Key == markerField(key) {
			mine = append(mine, c)
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
