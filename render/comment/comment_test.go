package comment

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/planpr/planpr/lockdiff"
	"github.com/planpr/planpr/render/mask"
	"github.com/planpr/planpr/render/review"
	"github.com/planpr/planpr/render/tofujson"
)

func exampleSchemas(t *testing.T) *tofujson.Schemas {
	t.Helper()
	s, err := tofujson.ReadSchemasFile("../../testdata/example/schemas.json")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func comment(t *testing.T, plans []CommentPlan, o CommentOptions) (string, *CommentResult) {
	t.Helper()
	var b bytes.Buffer
	res, err := Comment(&b, plans, o)
	if err != nil {
		t.Fatal(err)
	}
	if res.Size != b.Len() {
		t.Errorf("reported size %d, wrote %d", res.Size, b.Len())
	}
	return b.String(), res
}

func TestCommentGolden(t *testing.T) {
	schemas := exampleSchemas(t)
	example := []CommentPlan{{Path: "../../testdata/example/plan.json"}}
	tests := []struct {
		golden string
		plans  []CommentPlan
		opts   CommentOptions
	}{
		{"example.md", example, CommentOptions{PlanOptions: review.PlanOptions{Schemas: schemas}, Marker: Marker{Key: "example"}, Version: "test"}},
		{"example-with-locks.md", example, CommentOptions{PlanOptions: review.PlanOptions{Schemas: schemas}, Marker: Marker{Key: "example"}, Version: "test", Locks: exampleLockDiff(t)}},
		{"lock-only.md", nil, CommentOptions{Marker: Marker{Key: "locks"}, Version: "test", Locks: exampleLockDiff(t)}},
		{"two-plans.md", []CommentPlan{{Name: "prod", Path: "../../testdata/example/plan.json"}, {Name: "staging", Path: "testdata/plans/drift.json"}},
			CommentOptions{PlanOptions: review.PlanOptions{Schemas: schemas}, Marker: Marker{Key: "all"}, Title: "Infrastructure", Version: "test"}},
		{"example-shortened.md", example, CommentOptions{PlanOptions: review.PlanOptions{Schemas: schemas}, Marker: Marker{Key: "example"}, Version: "test", MaxSize: 3000, FullText: "the job summary"}},
		{"example-summary-only.md", example, CommentOptions{PlanOptions: review.PlanOptions{Schemas: schemas}, Marker: Marker{Key: "example"}, Version: "test", MaxSize: 1500, FullText: "the job summary"}},
		// Real tfsec and TFLint SARIF beside the plan of the same
		// configuration, with a report of a resource the plan leaves alone
		// and one finding on no resource of it.
		{"findings.md", []CommentPlan{{Name: "modules", Path: "../../testdata/findings/modules/plan.json", Findings: []string{
			"../../testdata/findings/modules/tfsec.sarif", "../../testdata/findings/modules/tflint.sarif", "testdata/findings/elsewhere.sarif"}}},
			CommentOptions{Marker: Marker{Key: "modules"}, Version: "test"}},
		// Infracost's own diff of the plan it priced, from its repository's tests.
		{"cost.md", []CommentPlan{{Name: "infracost", Path: "../../testdata/findings/infracost/plan.json", Costs: []string{"../../testdata/findings/infracost/infracost.json"}}},
			CommentOptions{Marker: Marker{Key: "infracost"}, Version: "test"}},
		// conftest's verdicts over the modules plan.
		{"policy.md", []CommentPlan{{Name: "policy", Path: "../../testdata/findings/policy/plan.json", Policies: []string{"../../testdata/findings/policy/report.json"}}},
			CommentOptions{Marker: Marker{Key: "policy"}, Version: "test"}},
		{"findings-summary-only.md", []CommentPlan{{Name: "modules", Path: "../../testdata/findings/modules/plan.json", Findings: []string{
			"../../testdata/findings/modules/tfsec.sarif", "../../testdata/findings/modules/tflint.sarif", "testdata/findings/elsewhere.sarif"}}},
			CommentOptions{Marker: Marker{Key: "modules"}, Version: "test", MaxSize: 2500, FullText: "the job summary"}},
	}
	for _, tt := range tests {
		t.Run(tt.golden, func(t *testing.T) {
			got, res := comment(t, tt.plans, tt.opts)
			if tt.opts.MaxSize > 0 && res.Size > tt.opts.MaxSize {
				t.Errorf("size %d over the budget %d", res.Size, tt.opts.MaxSize)
			}
			golden(t, tt.golden, []byte(got))
		})
	}
}

func TestCommentLevels(t *testing.T) {
	schemas := exampleSchemas(t)
	example := []CommentPlan{{Path: "../../testdata/example/plan.json"}}
	for _, tt := range []struct {
		max  int
		want Level
	}{{GitHubMaxComment, LevelFull}, {3000, LevelReduced}, {1500, LevelReduced}, {1000, LevelReduced}} {
		got, res := comment(t, example, CommentOptions{PlanOptions: review.PlanOptions{Schemas: schemas}, Marker: Marker{Key: "k"}, MaxSize: tt.max})
		if res.Level != tt.want || len(got) > tt.max {
			t.Errorf("max %d: level %d size %d, want level %d", tt.max, res.Level, len(got), tt.want)
		}
		for _, must := range []string{"<!-- planpr:v1 key=k destroy=2 -->\n", "2 to add, 2 to change, 2 to destroy", "`aws_s3_bucket.logs` will be **destroyed**", "`aws_db_instance.main` will be **replaced**: `engine_version` forces replacement"} {
			if !strings.Contains(got, must) {
				t.Errorf("max %d: the comment lost %q", tt.max, must)
			}
		}
	}
}

// hostileMarkers are what an attacker-controlled value must never achieve
// outside code in the rendered HTML.
var hostileOutside = []*regexp.Regexp{
	regexp.MustCompile(`<script`), regexp.MustCompile(`<img`), regexp.MustCompile(`<a `), regexp.MustCompile(`onerror`),
	regexp.MustCompile(`<b>x`), regexp.MustCompile(`@octocat`), regexp.MustCompile(`#(123|45|1)\b`),
	regexp.MustCompile(`evil\.example`), regexp.MustCompile("\u202e"), regexp.MustCompile("\u200b"), regexp.MustCompile("\x1b"),
	regexp.MustCompile(`::set-output`),
}

var codeElements = regexp.MustCompile(`(?s)<pre[^>]*>.*?</pre>|<code[^>]*>.*?</code>`)

// TestCommentHostileValuesWithCmark renders the hostile fixture's comment
// with cmark-gfm, GitHub's Markdown engine, raw HTML allowed, and checks
// that every payload stays inside <pre>/<code> and <details> stay balanced.
func TestCommentHostileValuesWithCmark(t *testing.T) {
	cmark, err := exec.LookPath("cmark-gfm")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("cmark-gfm is not installed (.ci/run installs it)")
		}
		t.Skip("cmark-gfm not installed: apt-get install cmark-gfm")
	}
	schemas, err := tofujson.ReadSchemasFile("testdata/plans/hostile-schemas.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, max := range []int{GitHubMaxComment, 2500, 900} {
		md, _ := comment(t, []CommentPlan{{Name: "</details>@octocat", Path: "testdata/plans/hostile.json"}},
			CommentOptions{PlanOptions: review.PlanOptions{Schemas: schemas}, Marker: Marker{Key: "k"}, Title: "<b>x</b> @octocat #1", MaxSize: max})
		cmd := exec.Command(cmark, "--unsafe", "-e", "table", "-e", "autolink", "-e", "strikethrough", "-e", "tagfilter")
		cmd.Stdin = strings.NewReader(md)
		out, err := cmd.Output()
		if err != nil {
			t.Fatal(err)
		}
		html := string(out)
		if o, c := strings.Count(html, "<details>"), strings.Count(html, "</details>"); o != c {
			t.Errorf("max %d: %d <details> but %d </details>:\n%s", max, o, c, html)
		}
		outside := codeElements.ReplaceAllString(html, "")
		for _, re := range hostileOutside {
			if loc := re.FindStringIndex(outside); loc != nil {
				lo, hi := max0(loc[0]-80), min(len(outside), loc[1]+80)
				t.Errorf("max %d: %q escaped code: …%s…", max, re.String(), outside[lo:hi])
			}
		}
		if !strings.Contains(html, "<pre><code class=\"language-diff\">") && max == GitHubMaxComment {
			t.Errorf("no diff block rendered")
		}
	}
}

func max0(n int) int { return max(n, 0) }

// sensitiveStrings lists what a plan marks sensitive anywhere, and the
// values of its sensitive root variables.
func sensitiveStrings(t *testing.T, path string) []string {
	t.Helper()
	seen := map[string]bool{}
	add := func(s string, kind tofujson.SecretKind) {
		if s != "" && kind == tofujson.SecretString {
			seen[s] = true
		}
	}
	_, err := tofujson.ReadPlanFile(path, func(_ string, rc *tofujson.ResourceChange) error {
		tofujson.CollectMarked(rc.Change.Before, rc.Change.BeforeSensitive, add)
		tofujson.CollectMarked(rc.Change.After, rc.Change.AfterSensitive, add)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	p, _ := tofujson.ReadPlanFile(path, nil)
	for _, oc := range p.OutputChanges {
		tofujson.CollectMarked(oc.Before, oc.BeforeSensitive, add)
		tofujson.CollectMarked(oc.After, oc.AfterSensitive, add)
	}
	for _, v := range p.SensitiveVariables() {
		tofujson.CollectMarked(v, true, add)
	}
	var out []string
	for s := range seen {
		out = append(out, s)
	}
	return out
}

// TestCommentNeverShowsSensitiveValues renders every plan of the
// conformance corpus and checks that no string the plan marks sensitive
// anywhere appears: as a value (quoted) whatever its length, and anywhere
// at all when it is long enough not to be an ordinary word.
func TestCommentNeverShowsSensitiveValues(t *testing.T) {
	plans, _ := filepath.Glob("../../../shared/conformance/*/*/plan.json")
	if len(plans) == 0 {
		t.Skip("../shared not found: the conformance corpus is an extra; the project's own fixtures are tested without it")
	}
	checked := 0
	for _, path := range plans {
		secrets := sensitiveStrings(t, path)
		if len(secrets) == 0 {
			continue
		}
		dir := filepath.Dir(path)
		var o CommentOptions
		if s, err := tofujson.ReadSchemasFile(filepath.Join(dir, "schemas.json")); err == nil {
			o.Schemas = s
		}
		var meta struct {
			Mode string `json:"mode"`
		}
		if b, err := os.ReadFile(filepath.Join(dir, "meta.json")); err == nil {
			_ = json.Unmarshal(b, &meta)
			o.Mode = review.Mode(meta.Mode)
		}
		var b bytes.Buffer
		if _, err := Comment(&b, []CommentPlan{{Path: path}}, o); err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		md := b.String()
		for _, s := range secrets {
			if strings.Contains(md, strconv.Quote(s)) || len(s) >= mask.MinRawSecret && strings.Contains(md, s) {
				t.Errorf("%s: the comment shows the sensitive value %q", path, s)
			}
		}
		checked++
	}
	if checked < 30 {
		t.Errorf("only %d plans with sensitive values checked", checked)
	}
}

func writePlan(t *testing.T, plan any) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "plan.json")
	b, err := json.Marshal(plan)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestCommentMasksSecretsEverywhere(t *testing.T) {
	pem := "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA7\n-----END RSA PRIVATE KEY-----"
	plan := map[string]any{
		"format_version": "1.2",
		"variables":      map[string]any{"db_password": map[string]any{"value": "var-secret-42"}},
		"configuration": map[string]any{"root_module": map[string]any{"variables": map[string]any{
			"db_password": map[string]any{"sensitive": true}}}},
		"resource_changes": []any{
			map[string]any{"address": "a_b.marked", "mode": "managed", "type": "a_b", "name": "marked", "provider_name": "p",
				"change": map[string]any{"actions": []string{"create"}, "before": nil,
					"after": map[string]any{"secret": "marked-secret-1", "plain": "ok"}, "after_unknown": map[string]any{},
					"before_sensitive": false, "after_sensitive": map[string]any{"secret": true}}},
			map[string]any{"address": "a_b.leaky", "mode": "managed", "type": "a_b", "name": "leaky", "provider_name": "p",
				"change": map[string]any{"actions": []string{"create"}, "before": nil,
					"after": map[string]any{
						"copy":   "marked-secret-1",
						"pw":     "var-secret-42",
						"token":  "ghp_" + strings.Repeat("a1B2", 9),
						"pat":    "github_pat_" + strings.Repeat("x", 30),
						"slack":  "xoxb-1234567890-abcdef",
						"aws":    "AKIAIOSFODNN7EXAMPLE",
						"jwt":    "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
						"key":    pem,
						"normal": "hello world"},
					"after_unknown": map[string]any{}, "before_sensitive": false, "after_sensitive": map[string]any{}}},
		},
	}
	path := writePlan(t, plan)
	md, res := comment(t, []CommentPlan{{Path: path}}, CommentOptions{Marker: Marker{Key: "k"}})
	for _, leak := range []string{"marked-secret-1", "var-secret-42", "ghp_a1B2", "github_pat_", "xoxb-", "AKIAIOSFODNN7EXAMPLE", "eyJhbGciOiJIUzI1NiJ9", "PRIVATE KEY", "MIIEow"} {
		if strings.Contains(md, leak) {
			t.Errorf("the comment leaks %q", leak)
		}
	}
	if !strings.Contains(md, "hello world") {
		t.Error("an ordinary value was masked")
	}
	// One value the plan marks, one copy of it, the variable, six
	// credentials (by their shape, and "token" by its name too).
	if res.Masked != 9 || !strings.Contains(md, "9 sensitive values masked") {
		t.Errorf("masked %d values; footer: %s", res.Masked, md[strings.LastIndex(md, "<sub>"):])
	}
}

// bigPlan writes a plan of n resources: every tenth destroyed, every
// fifth replaced, the rest updated or created.
func bigPlan(t *testing.T, n int) (string, review.Counts) {
	t.Helper()
	var changes []any
	var c review.Counts
	for i := 0; i < n; i++ {
		actions := []string{"create"}
		before := any(nil)
		after := any(map[string]any{"id": fmt.Sprintf("id-%d", i), "size": i, "name": fmt.Sprintf("thing-%d", i)})
		switch {
		case i%10 == 0:
			actions, before, after = []string{"delete"}, after, nil
			c.Destroy++
		case i%5 == 0:
			actions, before = []string{"delete", "create"}, map[string]any{"id": fmt.Sprintf("id-%d", i), "size": i + 1, "name": "old"}
			c.Add++
			c.Destroy++
		case i%2 == 0:
			actions, before = []string{"update"}, map[string]any{"id": fmt.Sprintf("id-%d", i), "size": i + 1, "name": fmt.Sprintf("thing-%d", i)}
			c.Change++
		default:
			c.Add++
		}
		changes = append(changes, map[string]any{"address": fmt.Sprintf("test_thing.t[%d]", i), "mode": "managed", "type": "test_thing",
			"name": "t", "index": i, "provider_name": "registry.opentofu.org/hashicorp/test",
			"change": map[string]any{"actions": actions, "before": before, "after": after, "after_unknown": map[string]any{},
				"before_sensitive": map[string]any{}, "after_sensitive": map[string]any{}, "replace_paths": [][]any{{"name"}}}})
	}
	return writePlan(t, map[string]any{"format_version": "1.2", "resource_changes": changes}), c
}

func TestComment10000Resources(t *testing.T) {
	path, counts := bigPlan(t, 10000)
	md, res := comment(t, []CommentPlan{{Path: path}}, CommentOptions{Marker: Marker{Key: "big"}, FullText: "the job summary"})
	if len(md) > GitHubMaxComment {
		t.Fatalf("comment is %d bytes", len(md))
	}
	want := fmt.Sprintf("%d to add, %d to change, %d to destroy", counts.Add, counts.Change, counts.Destroy)
	if !strings.Contains(md, want) || res.Counts.Add != counts.Add || res.Counts.Destroy != counts.Destroy {
		t.Errorf("counts: want %q in the title; result %+v", want, res.Counts)
	}
	if res.Level == LevelFull || !strings.Contains(md, "Shortened to fit") || !strings.Contains(md, "the job summary") {
		t.Errorf("level %d: the comment does not say it was shortened", res.Level)
	}
	// Destroys and replacements of one resource's instances are grouped:
	// a few lines, each with its count, not thousands.
	box := 0
	for _, line := range strings.Split(md, "\n") {
		if strings.HasPrefix(line, "> - ") {
			box++
		}
	}
	if box == 0 || box > 20 || !regexp.MustCompile("`test_thing.t\\[[^`]*\\]` \\(\\d+\\) will be \\*\\*(destroyed|replaced)\\*\\*").MatchString(md) {
		t.Errorf("%d lines in the warning box, or no grouped line:\n%s", box, md[:min(len(md), 3000)])
	}
	// A shortened comment spends its budget on diffs, the riskiest first:
	// never none while room remains, and 80% of it unless nothing is left
	// to show (every group has its diff, every member its name).
	complete := !strings.Contains(md, "without a diff shown") && !strings.Contains(md, "not named")
	if len(md) < GitHubMaxComment*8/10 && !complete || !strings.Contains(md, "will be <b>destroyed</b></summary>") {
		t.Errorf("the shortened comment uses %d of %d characters, or shows no diff of a destroyed resource", len(md), GitHubMaxComment)
	}
	// The job summary's budget keeps every diff of the destroyed ones.
	big, res := comment(t, []CommentPlan{{Path: path}}, CommentOptions{Marker: Marker{Key: "big"}, MaxSize: 1 << 20})
	if len(big) > 1<<20 || res.Level == LevelSummary {
		t.Errorf("job summary: %d bytes at level %d", len(big), res.Level)
	}
}

func TestCommentHugeHeredoc(t *testing.T) {
	var lines []string
	for len(strings.Join(lines, "\n")) < 200000 {
		lines = append(lines, fmt.Sprintf("line %d of a very long user_data script ```", len(lines)))
	}
	path := writePlan(t, map[string]any{"format_version": "1.2", "resource_changes": []any{map[string]any{
		"address": "test_thing.big", "mode": "managed", "type": "test_thing", "name": "big", "provider_name": "p",
		"change": map[string]any{"actions": []string{"create"}, "before": nil, "after": map[string]any{"user_data": strings.Join(lines, "\n")},
			"after_unknown": map[string]any{}, "before_sensitive": false, "after_sensitive": map[string]any{}}}}})
	md, res := comment(t, []CommentPlan{{Path: path}}, CommentOptions{Marker: Marker{Key: "k"}})
	if len(md) > GitHubMaxComment || !strings.Contains(md, "1 to add, 0 to change, 0 to destroy") || res.Level == LevelFull {
		t.Errorf("size %d level %d", len(md), res.Level)
	}
	if !strings.Contains(md, "`test_thing.big`") {
		t.Error("the address list lost the resource")
	}
}

func TestCommentNoChanges(t *testing.T) {
	md, res := comment(t, []CommentPlan{{Path: "testdata/plans/nochanges.json"}}, CommentOptions{Marker: Marker{Key: "k"}})
	if res.HasChange || !strings.Contains(md, "## ✅ planpr: no changes") {
		t.Errorf("no-changes comment:\n%s", md)
	}
}

func TestCommentFailedChecksAndErrors(t *testing.T) {
	path := writePlan(t, map[string]any{"format_version": "1.2", "errored": true, "resource_changes": []any{},
		"checks": []any{map[string]any{"address": map[string]any{"kind": "check", "to_display": "check.health"}, "status": "fail",
			"instances": []any{map[string]any{"address": map[string]any{"to_display": "check.health"}, "status": "fail",
				"problems": []any{map[string]any{"message": "endpoint returned 503"}}}}}}})
	md, _ := comment(t, []CommentPlan{{Path: path}}, CommentOptions{Marker: Marker{Key: "k"}})
	for _, want := range []string{"❌ planpr: Plan failed\n", "planning **failed**", "check check.health failed: endpoint returned 503"} {
		if !strings.Contains(md, want) {
			t.Errorf("missing %q in:\n%s", want, md)
		}
	}
}

func TestMarker(t *testing.T) {
	got := Marker{Key: "prod --> <b>", SHA: "abc"}.String()
	if strings.Count(got, "-->") != 1 || !strings.HasSuffix(got, " sha=abc -->") || strings.Contains(got, "<b>") {
		t.Errorf("marker %q can be closed early or carries HTML", got)
	}
	if got := (Marker{Key: "a b"}).String(); got != "<!-- planpr:v1 key=a_b -->" {
		t.Errorf("marker = %q", got)
	}
}

func TestMarkerRoundTrip(t *testing.T) {
	m := Marker{Key: "envs/prod", SHA: "0123abc", At: 1700000000, Run: 987654321}
	got, ok := ParseMarker(m.String() + "\n## title")
	if !ok || !reflect.DeepEqual(got, m) {
		t.Errorf("%+v %v", got, ok)
	}
	// What a comment found travels in its marker, for the labels and the
	// lock files of a monorepo's other comments.
	full := Marker{Key: "prod", At: 1, Destroy: 12, LockAlert: true, Roots: []string{"envs/prod", "envs/prod-eu"}}
	if got, ok := ParseMarker(full.String()); !ok || !reflect.DeepEqual(got, full) {
		t.Errorf("%q read back as %+v", full.String(), got)
	}
	if _, ok := ParseMarker("hello <!-- planpr:v1 key=x -->"); ok {
		t.Error("a marker must be at the start")
	}
	if m.String() != "<!-- planpr:v1 key=envs/prod sha=0123abc at=1700000000 run=987654321 -->" {
		t.Errorf("marker %q", m.String())
	}
}

var _ = lockdiff.Info

// TestCommentsReadOnceWriteEach: Comments writes, from one read of the
// plans, exactly what Comment writes for each size on its own.
func TestCommentsReadOnceWriteEach(t *testing.T) {
	schemas := exampleSchemas(t)
	gen := t.TempDir()
	if out, err := exec.Command("go", "run", "../../testdata/genplan", "-n", "150", "-o", gen).CombinedOutput(); err != nil {
		t.Fatalf("genplan: %v\n%s", err, out)
	}
	genSchemas, err := tofujson.ReadSchemasFile(filepath.Join(gen, "schemas.json"))
	if err != nil {
		t.Fatal(err)
	}
	for name, tc := range map[string]struct {
		plans []CommentPlan
		o     CommentOptions
	}{
		"example with locks": {[]CommentPlan{{Path: "../../testdata/example/plan.json"}}, CommentOptions{PlanOptions: review.PlanOptions{Schemas: schemas}, Locks: exampleLockDiff(t)}},
		"two plans":          {[]CommentPlan{{Name: "prod", Path: "../../testdata/example/plan.json"}, {Name: "staging", Path: "testdata/plans/drift.json"}}, CommentOptions{PlanOptions: review.PlanOptions{Schemas: schemas}}},
		"hostile":            {[]CommentPlan{{Path: "testdata/plans/hostile.json"}}, CommentOptions{}},
		"streams":            {[]CommentPlan{{Path: "../../testdata/example/plan.json", Streams: []string{"testdata/streams/apply.jsonl", "testdata/streams/test.jsonl"}}}, CommentOptions{PlanOptions: review.PlanOptions{Schemas: schemas}}},
		"generated":          {[]CommentPlan{{Path: filepath.Join(gen, "plan.json")}}, CommentOptions{PlanOptions: review.PlanOptions{Schemas: genSchemas}}},
	} {
		t.Run(name, func(t *testing.T) {
			var sizes []CommentOptions
			for _, max := range []int{1500, 3000, 20000, GitHubMaxComment, 1 << 20} {
				o := tc.o
				o.Marker = Marker{Key: "k"}
				o.MaxSize, o.FullText = max, fmt.Sprint("size ", max)
				sizes = append(sizes, o)
			}
			ws := make([]io.Writer, len(sizes))
			bufs := make([]*bytes.Buffer, len(sizes))
			for i := range sizes {
				bufs[i] = &bytes.Buffer{}
				ws[i] = bufs[i]
			}
			results, err := Comments(ws, tc.plans, sizes)
			if err != nil {
				t.Fatal(err)
			}
			for i, o := range sizes {
				want, wantRes := comment(t, tc.plans, o)
				if bufs[i].String() != want {
					t.Errorf("size %d: Comments wrote\n%s\nComment writes\n%s", o.MaxSize, bufs[i].String(), want)
				}
				if !reflect.DeepEqual(*results[i], *wantRes) {
					t.Errorf("size %d: result %+v, want %+v", o.MaxSize, *results[i], *wantRes)
				}
			}
		})
	}
}

// TestOutputsOnlyTitleSaysSo: a plan that changes outputs alone is titled
// by them, not "0 to add, 0 to change, 0 to destroy".
func TestOutputsOnlyTitleSaysSo(t *testing.T) {
	path := filepath.Join(t.TempDir(), "plan.json")
	if err := os.WriteFile(path, []byte(`{"format_version":"1.2","terraform_version":"1.9.0","resource_changes":[],"output_changes":{`+
		`"url":{"actions":["update"],"before":"a","after":"b","after_unknown":false,"before_sensitive":false,"after_sensitive":false},`+
		`"name":{"actions":["create"],"before":null,"after":"x","after_unknown":false,"before_sensitive":false,"after_sensitive":false}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	if _, err := Comment(&out, []CommentPlan{{Path: path}}, CommentOptions{Marker: Marker{Key: "k"}}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "## ✅ planpr: no resource changes, 2 outputs to change\n") || strings.Contains(out.String(), "0 to add") {
		t.Errorf("title:\n%.300s", out.String())
	}
}
