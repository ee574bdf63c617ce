// Package budget holds collapsed diffs as plain values until every
// secret of a plan is known (a plan is read in one pass), then masks them
// and only then lays them out, so that no secret can change the markup
// around it; and a buffer that keeps them while an estimate of their size
// fits a limit.
package budget

import (
	"strings"

	"github.com/planpr/planpr/render/mask"
	"github.com/planpr/planpr/render/md"
)

// Item is one collapsed diff, kept as plain values until every secret of
// the plan is known: then its values are masked, and only then escaped,
// fenced and laid out.
type Item struct {
	Summary func(m *mask.Masker) string // the <summary> line
	// Head, when set, is Markdown laid out inside before the text, its
	// untrusted parts masked and escaped by it (a resource's findings).
	Head   func(m *mask.Masker) string
	Text   string              // the plain text inside
	Wrap   func(string) string // fences the masked text
	Marked int                 // values the plan marked sensitive in it

	// An item can sit in several buffers (every size, and the groups'
	// first diffs): it is masked and laid out once.
	LaidOut string
	masks   int // values the masker hid in it
	done    bool
}

// LayOut masks the item's values and lays it out, once; it returns how
// many values were hidden.
func (it *Item) LayOut(m *mask.Masker) int {
	if !it.done {
		before := m.Count
		summary := it.Summary(m)
		m.Count += strings.Count(summary, mask.Masked) // laid out once, so counted here
		head := ""
		if it.Head != nil {
			head = it.Head(m)
		}
		it.LaidOut = md.Details(summary, head+it.Wrap(m.Mask(it.Text)))
		it.masks, it.done = m.Count-before, true
	}
	return it.masks
}

// Masks is how many values the masker hid in the item (once laid out).
func (it *Item) Masks() int { return it.masks }

// Buffer collects diffs until they would pass its Limit; Overflow says
// one did.
type Buffer struct {
	Limit    int
	Overflow bool
	pending  []*Item
	size     int // the Markdown's size, estimated until Finish
	md       strings.Builder
}

// Add keeps an item if its estimated size still fits, and reports whether
// it did; once one does not fit, none is.
func (b *Buffer) Add(it *Item, estimate int) bool {
	if b.Overflow || b.size+estimate > b.Limit {
		b.Overflow = true
		return false
	}
	b.pending = append(b.pending, it)
	b.size += estimate
	return true
}

// Finish lays out each item, its values masked, and returns how many
// values were hidden in them.
func (b *Buffer) Finish(m *mask.Masker) int {
	n := 0
	for _, it := range b.pending {
		n += it.LayOut(m)
		b.md.WriteString(it.LaidOut)
	}
	b.pending = nil
	b.size = b.md.Len()
	return n
}

// String is the laid-out Markdown (after Finish).
func (b *Buffer) String() string { return b.md.String() }

// Estimate is the room a collapsed diff of text takes: the text, its
// summary and its markup.
func Estimate(text, address string) int { return len(text) + 2*len(address) + 160 }
