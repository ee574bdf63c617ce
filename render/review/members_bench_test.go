package review

import (
	"fmt"
	"testing"
)

// benchMembers is a group of n instances spread over seven module
// instances, as the generated 10k plan's are: module.app[0..6], every
// twentieth index.
func benchMembers(n int) *Members {
	var g *ChangeGroup
	var gs Groups
	for i := range n {
		addr := fmt.Sprintf("module.app[%d].gen_instance.web[%d]", i%7, 33+20*i)
		a := SplitAddress(addr)
		g, _ = gs.AddSplit("k", ChangeSummary{Address: addr}, &a)
	}
	return &g.Members
}

// BenchmarkMembersAddress and BenchmarkMembersExact name a group of 500,
// as a shortened comment does for each group it lists or shows.
func BenchmarkMembersAddress(b *testing.B) {
	m := benchMembers(500)
	for b.Loop() {
		m.address = nil
		_ = m.Address()
	}
}

func BenchmarkMembersExact(b *testing.B) {
	m := benchMembers(500)
	for b.Loop() {
		_ = m.Exact()
	}
}
