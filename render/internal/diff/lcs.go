package diff

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/planpr/planpr/render/tofujson"
)

// walkSlice steps through two slices along their longest common
// subsequence of equal elements, calling visit with a before and an after
// index for each displayed element: an index equal to the slice's length
// means "absent" (a pure deletion or creation). Before and after elements
// off the subsequence are visited together as one update when shouldDiff
// says they are worth diffing. It reports false when the slices were too
// long and too different to align within maxAlignWork (see lcs): their
// differing middle is then shown as removed and added. positional is
// Terraform's rule: slices of the same length whose elements are not a
// reordering of each other are visited position by position, each before
// element with the after element at its index.
func walkSlice[T any](before, after []T, eq func(a, b T) bool, shouldDiff func(a, b T) bool, positional bool, visit func(bi, ai int)) (aligned bool) {
	if positional && len(before) == len(after) && !isReorder(before, after, eq) {
		for i := range before {
			visit(i, i)
		}
		return true
	}
	common, aligned := lcs(before, after, eq)
	bi, ai, ci := 0, 0, 0
	for bi < len(before) || ai < len(after) || ci < len(common) {
		for bi < len(before) && (ci >= len(common) || !eq(before[bi], common[ci])) {
			pair := ai < len(after) && shouldDiff(before[bi], after[ai])
			afterInCommon := ci < len(common) && eq(after[ai], common[ci])
			if pair && !afterInCommon {
				visit(bi, ai)
				bi++
				ai++
				continue
			}
			visit(bi, len(after))
			bi++
		}
		for ai < len(after) && (ci >= len(common) || !eq(after[ai], common[ci])) {
			if bi < len(before) && shouldDiff(before[bi], after[ai]) {
				visit(bi, ai)
				bi++
				ai++
				continue
			}
			visit(len(before), ai)
			ai++
		}
		if ci < len(common) {
			visit(bi, ai)
			bi++
			ai++
			ci++
		}
	}
	return aligned
}

// isReorder reports whether every element of before has an equal element
// in after (the slices are as long).
func isReorder[T any](before, after []T, eq func(a, b T) bool) bool {
	if len(before) > reorderByKeyFrom {
		if keys, ok := reorderKeys(before, after); ok {
			return keys
		}
	}
	for _, b := range before {
		if !slices.ContainsFunc(after, func(a T) bool { return eq(b, a) }) {
			return false
		}
	}
	return true
}

// reorderByKeyFrom is the length from which isReorder compares elements
// by their JSON encoding in a set rather than pair by pair: the pairs of
// two lists of 20,000 elements are 400 million comparisons.
const reorderByKeyFrom = 64

// reorderKeys is isReorder for slices of strings, numbers, booleans and
// nulls, by a key per element; ok is false for slices holding anything
// else, whose equality the caller's eq decides.
func reorderKeys[T any](before, after []T) (reorder, ok bool) {
	keys := make(map[any]bool, len(after))
	for _, a := range after {
		k, ok := primitiveKey(a)
		if !ok {
			return false, false
		}
		keys[k] = true
	}
	for _, b := range before {
		k, ok := primitiveKey(b)
		if !ok {
			return false, false
		}
		if !keys[k] {
			return false, true
		}
	}
	return true, true
}

// primitiveKey is a comparable key standing for a primitive JSON value.
func primitiveKey(x any) (any, bool) {
	switch v := x.(type) {
	case nil, string, bool:
		return v, true
	case json.Number:
		return numberKey(v), true // a key of its own type: never equal to a string
	}
	return nil, false
}

type numberKey string

// Limits of list alignment. OpenTofu fills an n×m table, which for two
// lists of 20,000 elements is 3 GB: planpr uses that table (and so breaks
// ties exactly as OpenTofu does) only up to maxTableCells, and beyond it
// Myers' algorithm, whose time grows with the lists' length times the
// number of differences and whose memory with the square of the
// differences. Past maxAlignWork steps it gives up and shows the
// differing middle as removed and added.
const (
	maxTableCells = 1 << 20
	maxAlignWork  = 20_000_000
	maxEdits      = 2000
)

// lcs is the longest common subsequence of xs and ys, with ties broken the
// way OpenTofu's objchange package breaks them, so lists diff identically.
// It reports false when it gave up aligning the lists' middle.
func lcs[T any](xs, ys []T, eq func(a, b T) bool) ([]T, bool) {
	// The walk back starts at the last elements and takes every equal pair
	// it meets, so a common suffix always ends the result, and the table
	// for what precedes it does not depend on it. A common prefix then
	// begins the result: whichever elements the full table pairs there, it
	// pairs all of the prefix, in order, and walkSlice compares elements
	// only with eq. Only the middle needs a table.
	k := 0
	for k < len(xs) && k < len(ys) && eq(xs[len(xs)-1-k], ys[len(ys)-1-k]) {
		k++
	}
	suffix := xs[len(xs)-k:]
	xs, ys = xs[:len(xs)-k], ys[:len(ys)-k]
	p := 0
	for p < len(xs) && p < len(ys) && eq(xs[p], ys[p]) {
		p++
	}
	prefix := xs[:p]
	xs, ys = xs[p:], ys[p:]
	var middle []T
	aligned := true
	if len(xs)*len(ys) <= maxTableCells {
		middle = lcsTable(xs, ys, eq, 0)
	} else {
		middle, aligned = myers(xs, ys, eq, min(maxEdits, maxAlignWork/(len(xs)+len(ys))))
	}
	out := make([]T, 0, len(prefix)+len(middle)+len(suffix))
	return append(append(append(out, prefix...), middle...), suffix...), aligned
}

// myers is a longest common subsequence found by Myers' greedy algorithm,
// or false when more than maxD insertions and deletions separate xs and
// ys. It keeps the furthest reach of each diagonal for every number of
// edits, O(maxD²) memory, to walk back the path.
func myers[T any](xs, ys []T, eq func(a, b T) bool, maxD int) ([]T, bool) {
	n, m := len(xs), len(ys)
	off := maxD + 1
	v := make([]int, 2*maxD+3)
	var trace [][]int
	for d := 0; d <= maxD; d++ {
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
				x = v[off+k+1] // down: an insertion
			} else {
				x = v[off+k-1] + 1 // right: a deletion
			}
			y := x - k
			for x < n && y < m && eq(xs[x], ys[y]) {
				x++
				y++
			}
			v[off+k] = x
			if x >= n && y >= m {
				trace = append(trace, slices.Clone(v[off-d:off+d+1]))
				return myersPath(xs, trace, n, m), true
			}
		}
		trace = append(trace, slices.Clone(v[off-d:off+d+1]))
	}
	return nil, false
}

// myersPath walks the trace back from (n, m), collecting the diagonal
// steps: the common elements.
func myersPath[T any](xs []T, trace [][]int, n, m int) []T {
	var rev []T
	x, y := n, m
	for d := len(trace) - 1; d > 0; d-- {
		prev := trace[d-1] // indexed by k+(d-1)
		k := x - y
		var pk int
		if k == -d || (k != d && prev[k-1+d-1] < prev[k+1+d-1]) {
			pk = k + 1
		} else {
			pk = k - 1
		}
		px := prev[pk+d-1]
		py := px - pk
		mx := px + 1 // after a deletion (a step right)
		if pk == k+1 {
			mx = px // after an insertion (a step down)
		}
		for x > mx {
			rev = append(rev, xs[x-1])
			x--
			y--
		}
		x, y = px, py
	}
	for x > 0 && y > 0 {
		rev = append(rev, xs[x-1])
		x--
		y--
	}
	slices.Reverse(rev)
	return rev
}

// lcsTable is the longest common subsequence of xs and ys, with room
// after it for extra elements.
func lcsTable[T any](xs, ys []T, eq func(a, b T) bool, extra int) []T {
	if len(xs) == 0 || len(ys) == 0 {
		return make([]T, 0, extra)
	}
	w := len(xs)
	cells := lcsCells.Get().(*[]int32)
	defer lcsCells.Put(cells)
	if cap(*cells) < len(xs)*len(ys) {
		*cells = make([]int32, len(xs)*len(ys))
	}
	// Each cell is the length so far, times two, plus one where the
	// elements are equal: every cell is written before it is read.
	c := (*cells)[:len(xs)*len(ys)]
	for y := range ys {
		for x := range xs {
			var left, up, diag int32
			if x > 0 {
				left = c[w*y+x-1] >> 1
			}
			if y > 0 {
				up = c[w*(y-1)+x] >> 1
			}
			if x > 0 && y > 0 {
				diag = c[w*(y-1)+x-1] >> 1
			}
			switch {
			case eq(xs[x], ys[y]):
				c[w*y+x] = (diag+1)<<1 | 1
			case left > up:
				c[w*y+x] = left << 1
			default:
				c[w*y+x] = up << 1
			}
		}
	}
	n := int(c[len(c)-1] >> 1)
	out := make([]T, n, n+extra)
	i := len(out) - 1
	x, y := len(xs)-1, len(ys)-1
	for x >= 0 && y >= 0 {
		if c[w*y+x]&1 != 0 {
			out[i] = xs[x]
			i--
			x--
			y--
			continue
		}
		var left, up int32
		if x > 0 {
			left = c[w*y+x-1] >> 1
		}
		if y > 0 {
			up = c[w*(y-1)+x] >> 1
		}
		if left > up {
			x--
		} else {
			y--
		}
	}
	return out
}

// lcsCells keep lcsTable's table from one call to the next (a table is
// at most maxTableCells).
var lcsCells = sync.Pool{New: func() any { return new([]int32) }}

// shouldDiffMultiline reports whether two list elements are strings, one
// of them spanning lines, that share at least one line: such a pair is
// shown as an edited heredoc rather than a removal and an addition.
func shouldDiffMultiline(a, b any) bool {
	sa, ok1 := a.(string)
	sb, ok2 := b.(string)
	if !ok1 || !ok2 || (!strings.Contains(sa, "\n") && !strings.Contains(sb, "\n")) {
		return false
	}
	linesB := strings.Split(sb, "\n")
	for _, la := range strings.Split(sa, "\n") {
		for _, lb := range linesB {
			if la == lb {
				return true
			}
		}
	}
	return false
}

// equalJSON is reflect.DeepEqual for decoded JSON values, written out for
// the types decoding produces.
func equalJSON(a, b any) bool {
	switch x := a.(type) {
	case string:
		y, ok := b.(string)
		return ok && x == y
	case json.Number:
		y, ok := b.(json.Number)
		return ok && x == y
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	case nil:
		return b == nil
	case tofujson.Object:
		y, ok := b.(tofujson.Object)
		if !ok || len(x) != len(y) || (x == nil) != (y == nil) {
			return false
		}
		if len(x) > 0 && &x[0] == &y[0] {
			return true // one value on both sides, as decoding shares them
		}
		for i := range x {
			if x[i].Name != y[i].Name || !equalJSON(x[i].Value, y[i].Value) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) || (x == nil) != (y == nil) {
			return false
		}
		if len(x) > 0 && &x[0] == &y[0] {
			return true
		}
		for i := range x {
			if !equalJSON(x[i], y[i]) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(a, b)
}
