package review

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/planpr/planpr/render/internal/diff"
)

func TestSplitIndexes(t *testing.T) {
	for _, tc := range []struct {
		addr           string
		parts, indexes []string
	}{
		{"a.b", []string{"a.b"}, nil},
		{"terraform_data.fleet[17]", []string{"terraform_data.fleet", ""}, []string{"17"}},
		{`module.app[3].x.web["k]1"]`, []string{"module.app", ".x.web", ""}, []string{"3", `"k]1"`}},
	} {
		parts, idx := SplitIndexes(tc.addr)
		if !reflect.DeepEqual(parts, tc.parts) || !reflect.DeepEqual(idx, tc.indexes) {
			t.Errorf("SplitIndexes(%q) = %q %q, want %q %q", tc.addr, parts, idx, tc.parts, tc.indexes)
		}
	}
}

func TestSplitNumbered(t *testing.T) {
	for _, tc := range []struct {
		addr           string
		parts, indexes []string
		bare           []bool
	}{
		{"a.b", []string{"a.b"}, nil, nil},
		{"aws_route53_record.www", []string{"aws_route53_record.www"}, nil, nil},
		{"gen_instance.junk_0042", []string{"gen_instance.junk_", ""}, []string{"0042"}, []bool{true}},
		{"data.aws_s3_bucket.logs_v2", []string{"data.aws_s3_bucket.logs_v", ""}, []string{"2"}, []bool{true}},
		{`module.team_01.gen_instance.dns["k12"]`, []string{"module.team_", ".gen_instance.dns", ""}, []string{"01", `"k12"`}, []bool{true, false}},
		{`module.app[3].module.x2.aws_s3.web_7["a.1"]`, []string{"module.app", ".module.x", ".aws_s3.web_", "", ""}, []string{"3", "2", "7", `"a.1"`}, []bool{false, true, true, false}},
	} {
		parts, idx, bare := SplitNumbered(tc.addr)
		if !reflect.DeepEqual(parts, tc.parts) || !reflect.DeepEqual(idx, tc.indexes) || !reflect.DeepEqual(bare, tc.bare) {
			t.Errorf("SplitNumbered(%q) = %q %q %v, want %q %q %v", tc.addr, parts, idx, bare, tc.parts, tc.indexes, tc.bare)
		}
	}
}

// TestNumberedNames: resources that differ only by a number in their
// name are one group, named with the number's range (zeros kept); a
// resource alone keeps its name.
func TestNumberedNames(t *testing.T) {
	var st Stats
	destroy := func(addr string) ChangeSummary {
		return ChangeSummary{Mode: "managed", Action: diff.Delete, Address: addr, Reason: "delete_because_no_resource_config"}
	}
	for i := range 3000 {
		st.add(destroy(fmt.Sprintf("gen_instance.junk_%04d", i)))
	}
	st.add(destroy("gen_instance.zz_prod_database"))
	st.add(destroy("gen_instance.logs_v2"))
	var got []string
	for _, g := range st.RiskyGroupsBySize() {
		got = append(got, fmt.Sprintf("%s (%d) %q", g.Address(), g.Count, g.Exact()))
	}
	want := []string{`gen_instance.junk_[0000..2999] (3000) ["gen_instance.junk_[0000..2999]"]`,
		`gen_instance.zz_prod_database (1) ["gen_instance.zz_prod_database"]`, `gen_instance.logs_v2 (1) ["gen_instance.logs_v2"]`}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("groups\n%q, want\n%q", got, want)
	}
}

func TestRiskyGroups(t *testing.T) {
	var st Stats
	replace := func(addr string) ChangeSummary {
		return ChangeSummary{Mode: "managed", Action: diff.DeleteThenCreate, Address: addr, Reason: "replace_because_cannot_update", ReplacePaths: [][]any{{"triggers_replace"}}}
	}
	for i := range 300 {
		st.add(replace(fmt.Sprintf("terraform_data.fleet[%d]", i)))
	}
	for _, i := range []int{0, 1, 2, 7, 9, 10} {
		st.add(ChangeSummary{Mode: "managed", Action: diff.Delete, Address: fmt.Sprintf("terraform_data.old[%d]", i), Reason: "delete_because_count_index"})
	}
	st.add(ChangeSummary{Mode: "managed", Action: diff.Delete, Address: `module.app["eu"].aws_s3_bucket.logs`})
	st.add(ChangeSummary{Mode: "managed", Action: diff.Delete, Address: `module.app["us"].aws_s3_bucket.logs`})
	st.add(ChangeSummary{Mode: "managed", Action: diff.Delete, Address: "aws_s3_bucket.alone"})
	var got []string
	for _, g := range st.RiskyGroupsBySize() {
		got = append(got, fmt.Sprintf("%s (%d)", g.Address(), g.Count))
	}
	want := []string{"terraform_data.fleet[0..299] (300)", "terraform_data.old[0..2,7,9..10] (6)", "module.app[\"eu\",\"us\"].aws_s3_bucket.logs (2)", "aws_s3_bucket.alone (1)"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("groups %q, want %q", got, want)
	}
	if st.Risky != 309 {
		t.Errorf("risky %d", st.Risky)
	}
}

func TestMembersExact(t *testing.T) {
	var gs Groups
	var g *ChangeGroup
	for i := range 40 {
		g, _ = gs.Add("", ChangeSummary{Address: fmt.Sprintf("module.app[%d].x.web[%d]", i%2, i)})
	}
	for _, k := range []string{"b", "a"} {
		gs.Add("", ChangeSummary{Address: fmt.Sprintf(`x.user[%q]`, k)})
	}
	gs.Add("", ChangeSummary{Address: "x.alone"})
	if got := g.Address(); got != "module.app[*].x.web[0..39]" {
		t.Errorf("Address %q", got)
	}
	evens, odds := []string{}, []string{}
	for i := 0; i < 40; i += 2 {
		evens, odds = append(evens, fmt.Sprint(i)), append(odds, fmt.Sprint(i+1))
	}
	want := []string{"module.app[0].x.web[" + strings.Join(evens, ",") + "]", "module.app[1].x.web[" + strings.Join(odds, ",") + "]"}
	if got := g.Exact(); !reflect.DeepEqual(got, want) {
		t.Errorf("Exact\n%q, want\n%q", got, want)
	}
	if got := gs.List[1].Exact(); !reflect.DeepEqual(got, []string{`x.user["b","a"]`}) {
		t.Errorf("keys: %q", got)
	}
	if got := gs.List[2].Exact(); !reflect.DeepEqual(got, []string{"x.alone"}) {
		t.Errorf("one member: %q", got)
	}
}

// Addresses of one pattern share its number, and split again they are
// what SplitAddress made of them.
func TestPatternsNumberEachPatternOnce(t *testing.T) {
	var ps Patterns
	var ids []int32
	addresses := []string{"web[0]", "db.main", "web[7]", "module.m[\"a\"].junk_0042"}
	for _, a := range addresses {
		ids = append(ids, ps.Add(SplitAddress(a)))
	}
	if ids[0] != ids[2] || ids[0] == ids[1] || ids[3] == ids[0] {
		t.Fatalf("pattern numbers %v", ids)
	}
	for i, a := range addresses {
		want := SplitAddress(a)
		if got := ps.Split(ids[i], want.Indexes); !reflect.DeepEqual(got, want) {
			t.Errorf("%s split again: %+v, want %+v", a, got, want)
		}
	}
}

// ExactWithin names the first members, as many as fit, as Exact would.
func TestMembersExactWithin(t *testing.T) {
	var gs Groups
	var g *ChangeGroup
	for i := range 1000 {
		g, _ = gs.Add("", ChangeSummary{Address: fmt.Sprintf(`aws_route53_record.r["host-%d.example.internal"]`, i)})
	}
	for _, room := range []int{0, 10, 100, 1000, 5000} {
		names, n := g.ExactWithin(room)
		text := strings.Join(names, ", ")
		if len(text) > room {
			t.Errorf("room %d: %d bytes", room, len(text))
		}
		var keys []string
		for i := range n {
			keys = append(keys, fmt.Sprintf(`"host-%d.example.internal"`, i))
		}
		if want := `aws_route53_record.r[` + strings.Join(keys, ",") + `]`; n > 0 && text != want {
			t.Errorf("room %d: %q, want %q", room, text, want)
		}
		// One more member would not have fitted.
		if next := len(`aws_route53_record.r[`) + len(strings.Join(keys, ",")) + len(fmt.Sprintf(`,"host-%d.example.internal"`, n)) + 1; n < 1000 && next <= room {
			t.Errorf("room %d: %d members named, one more fits", room, n)
		}
	}
	if names, n := g.ExactWithin(1 << 20); n != 1000 || !reflect.DeepEqual(names, g.Exact()) {
		t.Errorf("all fit: %d named", n)
	}
}

// NamedWithin names the first members and counts the rest, within room;
// nothing when none fits or all do.
func TestMembersNamedWithin(t *testing.T) {
	var gs Groups
	var g *ChangeGroup
	for i := range 100 {
		g, _ = gs.Add("", ChangeSummary{Address: fmt.Sprintf(`r["host-%d"]`, i)})
	}
	code := func(s string) string { return "`" + s + "`" }
	got := g.NamedWithin(60, code)
	if want := "`r[\"host-0\",\"host-1\",\"host-2\",\"host-3\"]` and 96 more: `r[*]`"; got != want { // 60 bytes
		t.Errorf("got %q, want %q", got, want)
	}
	if got := g.NamedWithin(20, code); got != "" {
		t.Errorf("room for none: %q", got)
	}
	if got := g.NamedWithin(1<<20, code); got != "" {
		t.Errorf("room for all: %q", got)
	}
}
