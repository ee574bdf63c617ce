package diff

import (
	"encoding/json"
	"strconv"
)

// Matcher follows attribute paths (replace_paths, relevant_attributes)
// down the tree as the differ descends.
type Matcher interface {
	// Matches reports whether some path ends exactly here.
	Matches() bool
	// MatchesPartial reports whether some path passes through here.
	MatchesPartial() bool
	Key(key string) Matcher
	Index(i int) Matcher
}

// Paths matches the given attribute paths. With propagate, a path that
// ends somewhere also matches everything below it.
func Paths(paths [][]any, propagate bool) Matcher {
	if len(paths) == 0 {
		return noPaths
	}
	return &pathMatcher{paths: paths, propagate: propagate}
}

// Always matches everything.
func Always() Matcher { return always{} }

type always struct{}

func (always) Matches() bool        { return true }
func (always) MatchesPartial() bool { return true }
func (a always) Key(string) Matcher { return a }
func (a always) Index(int) Matcher  { return a }

type pathMatcher struct {
	paths     [][]any
	propagate bool
}

func (p *pathMatcher) Matches() bool {
	for _, path := range p.paths {
		if len(path) == 0 {
			return true
		}
	}
	return false
}

func (p *pathMatcher) MatchesPartial() bool { return len(p.paths) > 0 }

// noPaths matches nothing, like every matcher below one that does not.
var noPaths = &pathMatcher{}

func (p *pathMatcher) Key(key string) Matcher {
	if len(p.paths) == 0 {
		return noPaths
	}
	return p.child(func(step any) bool { s, ok := step.(string); return ok && s == key })
}

func (p *pathMatcher) Index(i int) Matcher {
	if len(p.paths) == 0 {
		return noPaths
	}
	return p.child(func(step any) bool { n, ok := indexOf(step); return ok && n == i })
}

// child is the matcher one step down; with no path left, the shared
// noPaths, as most steps of a diff match nothing.
func (p *pathMatcher) child(match func(any) bool) Matcher {
	var paths [][]any
	for _, path := range p.paths {
		if len(path) == 0 {
			if p.propagate {
				paths = append(paths, path)
			}
			continue
		}
		if match(path[0]) {
			paths = append(paths, path[1:])
		}
	}
	if len(paths) == 0 {
		return noPaths
	}
	return &pathMatcher{paths: paths, propagate: p.propagate}
}

// indexOf reads a path step as a list index. OpenTofu accepts numbers and
// strings holding numbers ("0") alike.
func indexOf(step any) (int, bool) {
	var s string
	switch v := step.(type) {
	case json.Number:
		s = v.String()
	case float64:
		return int(v), true
	case int:
		return v, true
	case string:
		s = v
	default:
		return 0, false
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, false
	}
	return int(f), true
}
