// Package chunks owns a list that grows in chunks: adding to it never
// copies what it holds, and a pointer to an item stays valid. A slice grown
// by append copies its items again and again (a quarter more room each
// time once large: about four times its final size in all), each time
// into fresh memory that the process then faults in.
package chunks

import "math/bits"

// firstLen is how many items the first chunk holds; each next chunk holds
// twice as many as the one before, so that the list never has more than
// twice the room it needs, and finding an item's chunk is a bit count.
const (
	firstBits = 6
	firstLen  = 1 << firstBits
)

// List is a list of Ts; the zero List is empty and ready.
type List[T any] struct {
	chunks [][]T
	n      int
}

// Add appends v and returns where it is kept.
func (l *List[T]) Add(v T) *T {
	k, _ := place(l.n)
	if k == len(l.chunks) {
		l.chunks = append(l.chunks, make([]T, 0, firstLen<<k))
	}
	c := &l.chunks[k]
	*c = append(*c, v)
	l.n++
	return &(*c)[len(*c)-1]
}

// At is where the item at index i is kept; i must be below Len.
func (l *List[T]) At(i int) *T {
	k, j := place(i)
	return &l.chunks[k][j]
}

// Len is how many items the list holds.
func (l *List[T]) Len() int { return l.n }

// place is the chunk that holds item i and its index there: chunk k holds
// items firstLen·(2ᵏ−1) to firstLen·(2ᵏ⁺¹−1)−1.
func place(i int) (chunk, at int) {
	x := uint(i) + firstLen
	chunk = bits.Len(x) - 1 - firstBits
	return chunk, int(x - firstLen<<chunk)
}
