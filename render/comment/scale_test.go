package comment

import (
	"fmt"
	"html"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/planpr/planpr/render/internal/diff"
	"github.com/planpr/planpr/render/review"
	txt "github.com/planpr/planpr/render/text"
	"github.com/planpr/planpr/render/tofujson"
)

// genPlan writes a plan with testdata/genplan (args after -o DIR) and
// returns it with its schemas.
func genPlan(t *testing.T, args ...string) (string, *tofujson.Schemas) {
	t.Helper()
	dir := t.TempDir()
	out, err := exec.Command("go", append([]string{"run", "../../testdata/genplan", "-o", dir}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("genplan: %v\n%s", err, out)
	}
	schemas, err := tofujson.ReadSchemasFile(filepath.Join(dir, "schemas.json"))
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(dir, "plan.json"), schemas
}

// TestCommentAtScale: plans of thousands of changes built from a few
// shapes, one of 200 creations no two alike, and the plans of issue
// reports (every action with drift and a failed check; instances whose
// numbers follow from their index; a lone destroy among alike
// replacements and among numbered destroys) give comments that fill the
// budget with diffs (the five actions each have one), keep the warning
// box within 20 lines, name every destroyed or replaced change exactly
// and every other change at least in a pattern.
func TestCommentAtScale(t *testing.T) {
	for _, tc := range []struct {
		name   string
		args   []string
		golden string
		check  func(t *testing.T, md string, diffs int)
	}{
		{"2000 of a few shapes", []string{"-n", "2000"}, "scale-2000.md", nil},
		{"200 distinct creations", []string{"-n", "200", "-distinct"}, "scale-distinct-200.md", nil},
		{"10000 of a few shapes", []string{"-n", "10000"}, "", nil},
		{"10000 mixed, drift and a failed check", []string{"-scenario", "mixed"}, "scale-mixed-10000.md", func(t *testing.T, md string, _ int) {
			if !strings.Contains(md, "> - ❌ check check.health failed") || !strings.Contains(md, "#### Changed outside OpenTofu (162)") {
				t.Errorf("the failed check or the drift is missing")
			}
		}},
		{"2000 differing in numbers", []string{"-scenario", "fleet"}, "scale-fleet.md", func(t *testing.T, md string, diffs int) {
			for _, want := range []string{"`gen_instance.fleet[1901..1991]`", "`gen_instance.worker[1..138]`", "`gen_instance.node[1..1768]`"} {
				if !strings.Contains(md, "more like this") || !strings.Contains(md, want) {
					t.Errorf("no range %s beside a representative diff", want)
				}
			}
			if diffs != 3 {
				t.Errorf("%d diffs, want one for each of the 3 shapes", diffs)
			}
		}},
		{"a lone destroy among 300 alike replacements", []string{"-scenario", "lone-destroy"}, "scale-lone-destroy.md", func(t *testing.T, md string, _ int) {
			for _, want := range []string{"> - `gen_instance.prod_db` will be **destroyed**", "> - `gen_instance.r_[000..149,151..300]` (300) will be **replaced**"} {
				if !strings.Contains(md, want) {
					t.Errorf("the warning box lacks %q", want)
				}
			}
		}},
		{"3000 keyed records, a third destroyed", []string{"-scenario", "keyed-records"}, "", nil},
		{"a lone destroy among 3000 numbered destroys", []string{"-scenario", "numbered-destroys"}, "", func(t *testing.T, md string, _ int) {
			for _, want := range []string{"> - `gen_instance.zz_prod_database` will be **destroyed**", "> - `gen_instance.junk_[0000..2999]` (3000) will be **destroyed**"} {
				if !strings.Contains(md, want) {
					t.Errorf("the warning box lacks %q", want)
				}
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			plan, schemas := genPlan(t, tc.args...)
			o := CommentOptions{PlanOptions: review.PlanOptions{Schemas: schemas}, Marker: Marker{Key: "scale"}, Version: "test", FullText: "the job summary"}
			md, res := comment(t, []CommentPlan{{Path: plan}}, o)
			if tc.golden != "" {
				golden(t, tc.golden, []byte(md))
			}
			complete := !strings.Contains(md, "without a diff shown") && !strings.Contains(md, "not named")
			if res.Level != LevelReduced || len(md) > GitHubMaxComment || len(md) < GitHubMaxComment*8/10 && !complete {
				t.Errorf("level %d, %d characters: a shortened comment should use 80%% to 100%% of %d, or show everything", res.Level, len(md), GitHubMaxComment)
			}
			if box := strings.Count(md, "\n> - "); box > maxBoxLines {
				t.Errorf("%d lines in the warning box", box)
			}
			scan, err := review.ReadPlan(plan, o.PlanOptions, review.ScanOptions{KeepAll: true})
			if err != nil {
				t.Fatal(err)
			}
			kinds, withDiff := map[string]bool{}, map[string]bool{}
			byAddress := map[string]review.ChangeSummary{}
			for _, c := range scan.Changes {
				if c.Shown() {
					kinds[changeKind(c)] = true
					byAddress[c.Address] = c
				}
			}
			names := namedInComment(md, byAddress)
			allNamed := !strings.Contains(md, "not named")
			for _, c := range byAddress {
				switch {
				case review.IsRisky(c.Action) && !names.coversExactly(c):
					t.Errorf("%s (%s) is destroyed but not named in the comment, literally or in a range", c.Address, kindTag(c))
				case allNamed && !names.covers(c):
					t.Errorf("%s (%s) is not named in the comment, literally or in a group", c.Address, kindTag(c))
				}
			}
			diffs := summaryAddress.FindAllStringSubmatch(md, -1)
			for _, m := range diffs {
				if c, ok := byAddress[html.UnescapeString(m[1])]; ok {
					withDiff[changeKind(c)] = true
				}
			}
			for k := range kinds {
				if !withDiff[k] && (mainKinds[k] || complete) {
					t.Errorf("no diff of a change of kind %s", k)
				}
			}
			if tc.check != nil {
				tc.check(t, md, len(diffs))
			}
			t.Logf("%d characters, %d diffs, %d warning lines", len(md), len(diffs), strings.Count(md, "\n> - "))
		})
	}
}

// TestCommentNamesWhatItCanOfManyKeyedDestroys: 6,667 destroyed records
// whose keys no range shortens cannot all be named in a comment; it shows
// a diff of each kind, names as many destroyed records as fit, says how
// many more there are, and fills its budget.
func TestCommentNamesWhatItCanOfManyKeyedDestroys(t *testing.T) {
	plan, schemas := genPlan(t, "-scenario", "keyed-records", "-n", "20000")
	o := CommentOptions{PlanOptions: review.PlanOptions{Schemas: schemas}, Marker: Marker{Key: "scale"}, Version: "test"}
	md, _ := comment(t, []CommentPlan{{Path: plan}}, o)
	if len(md) > GitHubMaxComment || len(md) < GitHubMaxComment*8/10 {
		t.Errorf("%d characters: a shortened comment should use 80%% to 100%% of %d", len(md), GitHubMaxComment)
	}
	scan, err := review.ReadPlan(plan, o.PlanOptions, review.ScanOptions{KeepAll: true})
	if err != nil {
		t.Fatal(err)
	}
	byAddress := map[string]review.ChangeSummary{}
	for _, c := range scan.Changes {
		byAddress[c.Address] = c
	}
	names := namedInComment(md, byAddress)
	named := 0
	for _, c := range byAddress {
		if review.IsRisky(c.Action) && names.coversExactly(c) {
			named++
		}
	}
	more := regexp.MustCompile("and ([0-9]+) more: `gen_record\\.r\\[\\*\\]`").FindAllStringSubmatch(md, -1)
	if len(more) == 0 {
		t.Fatal("no line says how many destroyed records are not named")
	}
	rest, _ := strconv.Atoi(more[0][1])
	if named < 1000 || named+rest != 6667 {
		t.Errorf("%d destroyed records named exactly and %d more counted, want 1,000 or more and 6,667 in all", named, rest)
	}
	for _, want := range []string{"</code> will be <b>destroyed</b></summary>", "</code> will be created</summary>"} {
		if !strings.Contains(md, want) {
			t.Errorf("no diff of %q", want)
		}
	}
}

// TestCommentOfMoreDistinctDestroysThanItHolds: 5,000 destroyed resources
// of as many types cannot all be named, even in patterns; the comment
// names as many as fit after a few diffs, counts the rest and says where
// they are — and its warning box does not claim they are all below.
func TestCommentOfMoreDistinctDestroysThanItHolds(t *testing.T) {
	var changes []string
	for i := range 5000 {
		changes = append(changes, fmt.Sprintf(`{"address":"acme_type_%d.main","mode":"managed","type":"acme_type_%d","name":"main","provider_name":"registry.opentofu.org/acme/acme",`+
			`"change":{"actions":["delete"],"before":{"id":"id-%d"},"after":null,"after_unknown":{},"before_sensitive":{},"after_sensitive":{}}}`, i, i, i))
	}
	plan := filepath.Join(t.TempDir(), "plan.json")
	if err := os.WriteFile(plan, []byte(`{"format_version":"1.2","resource_changes":[`+strings.Join(changes, ",")+`]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	md, res := comment(t, []CommentPlan{{Path: plan}}, CommentOptions{Marker: Marker{Key: "scale"}, Version: "test", FullText: "the job summary"})
	if res.Level != LevelReduced || len(md) > GitHubMaxComment || len(md) < GitHubMaxComment*8/10 {
		t.Errorf("level %d, %d characters: a shortened comment should use 80%% to 100%% of %d", res.Level, len(md), GitHubMaxComment)
	}
	if strings.Contains(md, "all are named below") || !strings.Contains(md, "; all are in the job summary") {
		t.Error("the warning box should send the reader to the job summary for the destroys the comment does not name")
	}
	diffs := len(summaryAddress.FindAllString(md, -1))
	listed := len(regexp.MustCompile("(?m)^- `-` `acme_type_[0-9]+\\.main`$").FindAllString(md, -1))
	m := regexp.MustCompile(`(?m)^- … and ([0-9]+) more changes, all in the job summary$`).FindStringSubmatch(md)
	if m == nil {
		t.Fatal("the listing does not count what it leaves unnamed")
	}
	counted, _ := strconv.Atoi(m[1])
	if diffs == 0 || listed < 1000 || diffs+listed+counted != 5000 {
		t.Errorf("%d diffs, %d listed, %d counted: want a diff, 1,000 or more named, 5,000 in all", diffs, listed, counted)
	}
}

// mainKinds are the actions whose diffs a shortened comment spends its
// budget on first (see fillBudget): destroy, replace, update, create, read.
var mainKinds = func() map[string]bool {
	k := map[string]bool{}
	for _, a := range []diff.Action{diff.Delete, diff.DeleteThenCreate, diff.CreateThenDelete, diff.Update, diff.Create, diff.Read} {
		k[changeKind(review.ChangeSummary{Action: a})] = true
	}
	return k
}()

var (
	summaryAddress = regexp.MustCompile(`<details><summary>(?:<code>[^<]*</code> )?<code>([^<]*)</code>`)
	codeSpan       = regexp.MustCompile("`([^`]+)`")
	listedLine     = regexp.MustCompile("^- (?:`([^`]+)`|(import|move)) ")
)

// addressPatterns are the addresses and address patterns a comment
// names for each kind of change: in a diff's summary, in the line naming
// the changes like it, and in the list of changes without a diff. Keys
// are kindTag and the address's parts (see review.SplitIndexes).
type addressPatterns map[string][][]string

// kindTag is what a comment tells of a change's kind: its action's
// symbol, or import or move.
func kindTag(c review.ChangeSummary) string {
	if sym := strings.TrimSpace(txt.Symbol(c.Action)); sym != "" {
		return sym
	}
	if c.Importing {
		return "import"
	}
	return "move"
}

// bracketed writes the numbers in an address's names as indexes:
// junk_0042 as junk_[0042], as a pattern names them (junk_[0000..2999]).
func bracketed(address string) string {
	parts, indexes, _ := review.SplitNumbered(address)
	var b strings.Builder
	for i, p := range parts {
		b.WriteString(p)
		if i < len(indexes) {
			b.WriteString("[" + indexes[i] + "]")
		}
	}
	return b.String()
}

func (p addressPatterns) add(tag, pattern string) {
	parts, indexes := review.SplitIndexes(bracketed(pattern))
	key := tag + " " + strings.Join(parts, "[]")
	p[key] = append(p[key], indexes)
}

func namedInComment(md string, byAddress map[string]review.ChangeSummary) addressPatterns {
	p := addressPatterns{}
	fence, tag := "", ""
	for _, line := range strings.Split(md, "\n") {
		switch {
		case fence == "" && strings.HasPrefix(line, "```"):
			fence = strings.TrimRight(line, "diff")
		case fence != "":
			if line == fence {
				fence = ""
			}
		case summaryAddress.MatchString(line):
			address := html.UnescapeString(summaryAddress.FindStringSubmatch(line)[1])
			tag = kindTag(byAddress[address])
			p.add(tag, address)
		case strings.HasPrefix(line, "<sub>↳ "):
			for _, m := range codeSpan.FindAllStringSubmatch(line, -1) {
				p.add(tag, m[1])
			}
		case listedLine.MatchString(line):
			m := listedLine.FindStringSubmatch(line)
			for _, c := range codeSpan.FindAllStringSubmatch(line[len(m[0]):], -1) {
				p.add(m[1]+m[2], c[1])
			}
		}
	}
	return p
}

// covers reports whether the comment names c's address for its kind, or
// a pattern that matches it: * for any index, a..b for a range, a,b for
// either.
func (p addressPatterns) covers(c review.ChangeSummary) bool { return p.coversAs(c, false) }

// coversExactly is covers without the * of a pattern: the change is named.
func (p addressPatterns) coversExactly(c review.ChangeSummary) bool { return p.coversAs(c, true) }

func (p addressPatterns) coversAs(c review.ChangeSummary, exactly bool) bool {
	parts, indexes := review.SplitIndexes(bracketed(c.Address))
	for _, pattern := range p[kindTag(c)+" "+strings.Join(parts, "[]")] {
		if len(pattern) == len(indexes) && matchesAll(pattern, indexes, exactly) {
			return true
		}
	}
	return false
}

func matchesAll(pattern, indexes []string, exactly bool) bool {
	for i, idx := range indexes {
		if !matchesIndex(pattern[i], idx, exactly) {
			return false
		}
	}
	return true
}

func matchesIndex(pattern, idx string, exactly bool) bool {
	if pattern == "*" && !exactly || pattern == idx {
		return true
	}
	for _, alt := range splitOutsideQuotes(pattern) {
		if alt == idx {
			return true
		}
		lo, hi, ok := strings.Cut(alt, "..")
		n, err := strconv.Atoi(idx)
		if ok && err == nil {
			a, errA := strconv.Atoi(lo)
			b, errB := strconv.Atoi(hi)
			if errA == nil && errB == nil && a <= n && n <= b {
				return true
			}
		}
	}
	return false
}

func splitOutsideQuotes(s string) []string {
	var out []string
	start, quoted := 0, false
	for i := 0; i < len(s); i++ {
		switch {
		case quoted && s[i] == '\\':
			i++
		case s[i] == '"':
			quoted = !quoted
		case s[i] == ',' && !quoted:
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

func TestAddressPatterns(t *testing.T) {
	md := "<details><summary><code>~</code> <code>m[&#34;x&#34;].c[&#34;k0&#34;]</code> will be updated in-place</summary>\n\n" +
		"```diff\n`a.b[9]`\n```\n\n</details>\n<sub>↳ and 2 more like this: `m[\"x\"].c[\"k1\",\"k,2\"]`</sub>\n\n" +
		"- `+` `a.b[0..3,7]` (5)\n- `-` `m[*].d[*]` (9)\n- import `i.j`\n"
	byAddress := map[string]review.ChangeSummary{`m["x"].c["k0"]`: {Action: diff.Update}}
	p := namedInComment(md, byAddress)
	for _, tc := range []struct {
		c    review.ChangeSummary
		want bool
	}{
		{review.ChangeSummary{Address: "a.b[2]", Action: diff.Create}, true},
		{review.ChangeSummary{Address: "a.b[7]", Action: diff.Create}, true},
		{review.ChangeSummary{Address: "a.b[5]", Action: diff.Create}, false},
		{review.ChangeSummary{Address: "a.b[9]", Action: diff.Create}, false}, // inside a diff
		{review.ChangeSummary{Address: "a.b[2]", Action: diff.Update}, false}, // named for another kind
		{review.ChangeSummary{Address: `m["x"].c["k0"]`, Action: diff.Update}, true},
		{review.ChangeSummary{Address: `m["x"].c["k,2"]`, Action: diff.Update}, true},
		{review.ChangeSummary{Address: `m["y"].c["k1"]`, Action: diff.Update}, false},
		{review.ChangeSummary{Address: `m["q"].d[9]`, Action: diff.Delete}, true},
		{review.ChangeSummary{Address: "i.j", Importing: true}, true},
		{review.ChangeSummary{Address: "i.j", Moved: true}, false},
	} {
		if got := p.covers(tc.c); got != tc.want {
			t.Errorf("covers(%s %s) = %v, want %v", kindTag(tc.c), tc.c.Address, got, tc.want)
		}
	}
}

// TestCommentFiftyRoots: 50 roots of 200 changes each make one comment
// within GitHub's limit: a row each in the table, and every destroyed or
// replaced change of every root named exactly in its root's section.
func TestCommentFiftyRoots(t *testing.T) {
	plan, schemas := genPlan(t, "-n", "200")
	var plans []CommentPlan
	for i := range 50 {
		plans = append(plans, CommentPlan{Name: fmt.Sprintf("envs/root-%02d", i), Path: plan})
	}
	o := CommentOptions{PlanOptions: review.PlanOptions{Schemas: schemas}, Marker: Marker{Key: "pr"}, Version: "test", FullText: "the job summary"}
	md, _ := comment(t, plans, o)
	if n := utf8.RuneCountInString(md); n > GitHubMaxComment {
		t.Fatalf("%d characters", n)
	}
	scan, err := review.ReadPlan(plan, o.PlanOptions, review.ScanOptions{KeepAll: true})
	if err != nil {
		t.Fatal(err)
	}
	byAddress := map[string]review.ChangeSummary{}
	for _, c := range scan.Changes {
		if c.Shown() {
			byAddress[c.Address] = c
		}
	}
	sections := strings.Split(md, "<details")
	for i := range 50 {
		name := fmt.Sprintf("envs/root-%02d", i)
		if !strings.Contains(md, "| `"+name+"` | ⚠️ |") {
			t.Errorf("no row for %s", name)
		}
		// The root's own section: from its summary to the next root's.
		var section string
		for j, s := range sections {
			if strings.HasPrefix(s, " open><summary><b><code>"+name+"</code>") {
				for _, rest := range sections[j+1:] {
					if strings.Contains(rest, "><summary><b><code>envs/root-") {
						break
					}
					s += "<details" + rest
				}
				section = s
			}
		}
		names := namedInComment(section, byAddress)
		for _, c := range byAddress {
			if review.IsRisky(c.Action) && !names.coversExactly(c) {
				t.Errorf("%s: %s (%s) is destroyed but not named exactly", name, c.Address, kindTag(c))
				break
			}
		}
	}
	t.Logf("%d characters", len(md))
}

// TestCommentNamesSomeOfMuchDrift: 5,000 resources changed outside the
// tool, each named in a pattern of its own, are named as far as the
// drift's share of a shortened comment goes, then counted.
func TestCommentNamesSomeOfMuchDrift(t *testing.T) {
	change := func(addr, name string) string {
		return fmt.Sprintf(`{"address":%q,"mode":"managed","type":"acme_thing","name":%q,"provider_name":"registry.opentofu.org/acme/acme",`+
			`"change":{"actions":["update"],"before":{"v":1},"after":{"v":2},"after_unknown":{},"before_sensitive":{},"after_sensitive":{}}}`, addr, name)
	}
	var drift, relevant []string // drift is shown where the plan relies on it
	for i := range 5000 {
		addr := fmt.Sprintf(`acme_thing.d_%d["k%d"]`, i, i)
		drift = append(drift, change(addr, fmt.Sprintf("d_%d", i)))
		relevant = append(relevant, fmt.Sprintf(`{"resource":%q,"attribute":["v"]}`, addr))
	}
	plan := filepath.Join(t.TempDir(), "plan.json")
	doc := `{"format_version":"1.2","resource_drift":[` + strings.Join(drift, ",") + `],"resource_changes":[` + change("acme_thing.c", "c") +
		`],"relevant_attributes":[` + strings.Join(relevant, ",") + `]}`
	if err := os.WriteFile(plan, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	md, _ := comment(t, []CommentPlan{{Path: plan}}, CommentOptions{Marker: Marker{Key: "scale"}, Version: "test"})
	_, section, ok := strings.Cut(md, "#### Changed outside OpenTofu (5000)\n\n")
	if !ok {
		t.Fatal("no drift section")
	}
	section, _, _ = strings.Cut(section, "\n\n")
	if !strings.HasPrefix(section, "- `acme_thing.d_0[\"k0\"]`, `acme_thing.d_1[\"k1\"]`") || !strings.Contains(section, " more: `acme_thing.d_[*][*]` (5000)") || len(section) > maxDriftList {
		t.Errorf("the drift is not named in part within %d characters: %.200s… (%d)", maxDriftList, section, len(section))
	}
}

// TestCommentShowsSomeOfManyOutputs: 5,000 output changes, more than a
// comment holds and nothing else to show, are shown as far as they fit,
// then counted; the note says what was shortened.
func TestCommentShowsSomeOfManyOutputs(t *testing.T) {
	var outputs []string
	for i := range 5000 {
		outputs = append(outputs, fmt.Sprintf(`"out_%04d":{"actions":["create"],"before":null,"after":"value-%d","after_unknown":false,"before_sensitive":false,"after_sensitive":false}`, i, i))
	}
	plan := filepath.Join(t.TempDir(), "plan.json")
	if err := os.WriteFile(plan, []byte(`{"format_version":"1.2","resource_changes":[],"output_changes":{`+strings.Join(outputs, ",")+`}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	md, _ := comment(t, []CommentPlan{{Path: plan}}, CommentOptions{Marker: Marker{Key: "scale"}, Version: "test", FullText: "the job summary"})
	if len(md) > GitHubMaxComment || len(md) < GitHubMaxComment*8/10 {
		t.Errorf("%d characters: a shortened comment should use 80%% to 100%% of %d", len(md), GitHubMaxComment)
	}
	if !strings.Contains(md, "Shortened to fit GitHub's 65,536-character limit for a comment: output changes are left out or shown in part.") {
		t.Error("the note does not say what was shortened")
	}
	shown := strings.Count(md, "\n+   out_")
	m := regexp.MustCompile(`_… and ([0-9]+) more output changes, all in the job summary\._`).FindStringSubmatch(md)
	if m == nil || !strings.Contains(md, "+   out_0000 = \"value-0\"\n") {
		t.Fatal("the first outputs are not shown, or the rest not counted")
	}
	if rest, _ := strconv.Atoi(m[1]); shown < 1000 || shown+rest != 5000 {
		t.Errorf("%d outputs shown and %d counted, want 1,000 or more and 5,000 in all", shown, rest)
	}
}
