// Package diff computes the attribute-level difference between the before
// and after values of a planned change, as a tree of plain data (Node).
//
// It follows OpenTofu's jsonformat differ rule for rule — which values count
// as changed, which are hidden, how lists are matched, where "forces
// replacement" lands — but it formats nothing: every output format walks the
// tree. Tests build trees by hand to check renderers, and check trees to
// check the differ.
package diff
