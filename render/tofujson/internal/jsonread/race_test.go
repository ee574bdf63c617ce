//go:build race

package jsonread

// raceEnabled: the race detector makes allocations of its own, so counts
// of allocations are not checked under it.
const raceEnabled = true
