// Package lazyre owns regular expressions compiled when first used:
// bounded repetitions compile to large programs, and every run of planpr
// — a render as much as the App — would pay for all of them at start.
package lazyre

import (
	"regexp"
	"sync"
)

// New returns the pattern's regexp, compiled by the first call.
func New(pattern string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(pattern) })
}
