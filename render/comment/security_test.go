package comment

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	txt "github.com/planpr/planpr/render/text"

	"github.com/planpr/planpr/lockdiff"
	"github.com/planpr/planpr/render/review"
	"github.com/planpr/planpr/render/summary"
)

// rc is a resource change for a test plan; before or after nil leave the
// change a create or a delete.
func rc(address, action string, before, after, beforeSens, afterSens any) map[string]any {
	typ, name, _ := strings.Cut(address, ".")
	if i := strings.IndexAny(name, "[."); i >= 0 {
		name = name[:i]
	}
	change := map[string]any{"actions": []string{action}, "before": before, "after": after,
		"after_unknown": map[string]any{}, "before_sensitive": beforeSens, "after_sensitive": afterSens}
	if action == "replace" {
		change["actions"] = []string{"delete", "create"}
	}
	return map[string]any{"address": address, "mode": "managed", "type": typ, "name": name,
		"provider_name": "registry.opentofu.org/hashicorp/test", "change": change}
}

func planOf(changes ...map[string]any) map[string]any {
	list := make([]any, len(changes))
	for i, c := range changes {
		list[i] = c
	}
	return map[string]any{"format_version": "1.2", "resource_changes": list}
}

// cmarkHTML renders Markdown as GitHub does, raw HTML allowed.
func cmarkHTML(t *testing.T, md string) string {
	t.Helper()
	cmark, err := exec.LookPath("cmark-gfm")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("cmark-gfm is not installed (.ci/run installs it)")
		}
		t.Skip("cmark-gfm not installed: apt-get install cmark-gfm")
	}
	cmd := exec.Command(cmark, "--unsafe", "-e", "table", "-e", "autolink", "-e", "strikethrough", "-e", "tagfilter")
	cmd.Stdin = strings.NewReader(md)
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

func commentOf(t *testing.T, plan map[string]any, o CommentOptions) string {
	t.Helper()
	md, _ := comment(t, []CommentPlan{{Path: writePlan(t, plan)}}, o)
	return md
}

// TestSecretCannotRewriteMarkup: masking ran over the finished Markdown,
// so a secret equal to "```diff" turned every fence opener into "(sensitive
// value)" and the diffs rendered as live Markdown, and a secret equal to
// "</details>" unbalanced the details. Values are masked before they are
// fenced now.
func TestSecretCannotRewriteMarkup(t *testing.T) {
	live := "```diff\n<h1>x</h1>\n<img src=https://evil.example/x.png>\n[link](https://evil.example)\n@octocat"
	plan := planOf(
		rc("test_a.fence", "create", nil, map[string]any{"s": "```diff"}, false, map[string]any{"s": true}),
		rc("test_a.details", "create", nil, map[string]any{"s": "</details>"}, false, map[string]any{"s": true}),
		rc("test_a.live", "create", nil, map[string]any{"v": live, "w": "</details>", "x": "```diff"}, false, map[string]any{}),
	)
	md := commentOf(t, plan, CommentOptions{Marker: Marker{Key: "k"}})
	if n := strings.Count(md, "```diff\n"); n != 3 {
		t.Errorf("%d diff fences open, want 3:\n%s", n, md)
	}
	html := cmarkHTML(t, md)
	if o, c := strings.Count(html, "<details>"), strings.Count(html, "</details>"); o != 3 || c != 3 {
		t.Errorf("%d <details>, %d </details>", o, c)
	}
	outside := codeElements.ReplaceAllString(html, "")
	for _, bad := range []string{"<h1>", "<img", "<a ", "@octocat", "evil.example"} {
		if strings.Contains(outside, bad) {
			t.Errorf("%q outside code:\n%s", bad, outside)
		}
	}
}

// TestUnterminatedPrivateKeyHidesOnlyItsValue: an unterminated
// "-----BEGIN PRIVATE KEY-----" made the pattern swallow everything after
// it, later diffs and a destroy included.
func TestUnterminatedPrivateKeyHidesOnlyItsValue(t *testing.T) {
	key := "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7\nVJTUt9Us8cKjMzEfYyjiWA4R4/M2bS1GB4t7NXp98C3SC6dVMvDuictGeurT8jNb"
	plan := planOf(
		rc("test_a.key", "create", nil, map[string]any{"pem": key}, false, map[string]any{}),
		rc("test_a.later", "delete", map[string]any{"id": "kept-visible"}, nil, map[string]any{}, false),
	)
	md := commentOf(t, plan, CommentOptions{Marker: Marker{Key: "k"}})
	for _, want := range []string{"`test_a.later` will be **destroyed**", "test_a.later will be destroyed", "kept-visible"} {
		if !strings.Contains(md, want) {
			t.Errorf("the comment lost %q:\n%s", want, md)
		}
	}
	for _, leak := range []string{"MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcw", "VJTUt9Us8cKjMzEfYyjiWA4R4"} {
		if strings.Contains(md, leak) {
			t.Errorf("the key shows: %q", leak)
		}
	}
}

// TestMultilineSecretAsHeredoc: a multi-line secret shown elsewhere as a
// heredoc leaked every line.
func TestMultilineSecretAsHeredoc(t *testing.T) {
	secret := "first-secret-line\nsecond-secret-line"
	plan := planOf(
		rc("test_a.marked", "create", nil, map[string]any{"s": secret}, false, map[string]any{"s": true}),
		rc("test_a.shown", "create", nil, map[string]any{"v": "intro line\n" + secret + "\noutro"}, false, map[string]any{}),
	)
	md := commentOf(t, plan, CommentOptions{Marker: Marker{Key: "k"}})
	for _, leak := range []string{"first-secret-line", "second-secret-line"} {
		if strings.Contains(md, leak) {
			t.Errorf("%q shows:\n%s", leak, md)
		}
	}
	if !strings.Contains(md, "intro line") {
		t.Error("the heredoc's other lines were hidden too")
	}
}

// TestEscapedSecretInsideALongerString: a secret with a quote, a
// backslash, a tab or a control character is escaped where a longer
// string holds it, and that form leaked.
func TestEscapedSecretInsideALongerString(t *testing.T) {
	for _, secret := range []string{`pa"ssword`, `pa\ssword`, "pa\tssword", "pa\x01ssword", "pässwörd<&>"} {
		plan := planOf(
			rc("test_a.marked", "create", nil, map[string]any{"s": secret}, false, map[string]any{"s": true}),
			rc("test_a.shown", "create", nil, map[string]any{"v": "prefix-" + secret + "-suffix"}, false, map[string]any{}),
		)
		md := commentOf(t, plan, CommentOptions{Marker: Marker{Key: "k"}})
		if strings.Contains(md, "prefix-pa") || strings.Contains(md, "prefix-p\\u00e4") {
			t.Errorf("secret %q shows inside the longer string:\n%s", secret, md)
		}
		if !strings.Contains(md, "prefix-(sensitive value)-suffix") {
			t.Errorf("secret %q: the longer string is not masked as expected:\n%s", secret, md)
		}
	}
}

// TestSensitiveMapKeysInReplacePaths: a sensitive map's keys showed in
// the replace paths of the warnings and the JSON summary.
func TestSensitiveMapKeysInReplacePaths(t *testing.T) {
	change := rc("test_a.r", "replace", map[string]any{"tags": map[string]any{"secretkey": "a"}}, map[string]any{"tags": map[string]any{"secretkey": "b"}},
		map[string]any{"tags": true}, map[string]any{"tags": true})
	change["change"].(map[string]any)["replace_paths"] = []any{[]any{"tags", "secretkey"}}
	path := writePlan(t, planOf(change))
	md, _ := comment(t, []CommentPlan{{Path: path}}, CommentOptions{Marker: Marker{Key: "k"}})
	var js bytes.Buffer
	if err := summary.Write(&js, []CommentPlan{{Path: path}}, review.PlanOptions{}); err != nil {
		t.Fatal(err)
	}
	for name, out := range map[string]string{"markdown": md, "json": js.String()} {
		if strings.Contains(out, "secretkey") {
			t.Errorf("%s shows the sensitive map's key:\n%s", name, out)
		}
	}
}

// TestSensitiveNumbers: a number marked sensitive showed where another
// resource holds it unmarked.
func TestSensitiveNumbers(t *testing.T) {
	plan := planOf(
		rc("test_a.marked", "create", nil, map[string]any{"port": json.Number("54321")}, false, map[string]any{"port": true}),
		rc("test_a.shown", "create", nil, map[string]any{"p": json.Number("54321"), "other": json.Number("543210")}, false, map[string]any{}),
	)
	md := commentOf(t, plan, CommentOptions{Marker: Marker{Key: "k"}})
	if strings.Contains(md, "= 54321\n") || !strings.Contains(md, "543210") {
		t.Errorf("the sensitive number shows (or a longer one is hidden):\n%s", md)
	}
}

// TestEveryOutputIsMasked: the warnings, failed checks, the shortened
// comment's address lists, the drift list and the JSON summary were never
// masked: credential-shaped for_each keys showed there.
func TestEveryOutputIsMasked(t *testing.T) {
	token := "ghp_" + strings.Repeat("A1b2", 9)
	addr := func(kind string) string { return fmt.Sprintf(`test_a.%s["%s"]`, kind, token) }
	changes := []map[string]any{
		rc(addr("gone"), "delete", map[string]any{"id": "1"}, nil, map[string]any{}, false),
		rc(addr("swap"), "replace", map[string]any{"id": "1"}, map[string]any{"id": "2"}, map[string]any{}, map[string]any{}),
	}
	for i := range 30 {
		changes = append(changes, rc(fmt.Sprintf(`test_a.many["%s-%d"]`, token, i), "create", nil, map[string]any{"v": strings.Repeat("x", 200)}, false, map[string]any{}))
	}
	plan := planOf(changes...)
	plan["resource_drift"] = []any{rc(addr("drift"), "update", map[string]any{"v": "a"}, map[string]any{"v": "b"}, map[string]any{}, map[string]any{})}
	plan["relevant_attributes"] = []any{map[string]any{"resource": addr("drift"), "attribute": []any{"v"}}}
	plan["checks"] = []any{map[string]any{"address": map[string]any{"kind": "resource", "to_display": addr("check")}, "status": "fail",
		"instances": []any{map[string]any{"address": map[string]any{"to_display": addr("check")}, "status": "fail", "problems": []any{map[string]any{"message": "bad " + token}}}}}}
	path := writePlan(t, plan)
	for _, max := range []int{GitHubMaxComment, 4000, 1500} {
		md, res := comment(t, []CommentPlan{{Path: path}}, CommentOptions{Marker: Marker{Key: "k"}, MaxSize: max})
		if strings.Contains(md, "ghp_") {
			t.Errorf("max %d (level %d): a token shows:\n%s", max, res.Level, md)
		}
	}
	var js bytes.Buffer
	if err := summary.Write(&js, []CommentPlan{{Path: path}}, review.PlanOptions{}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(js.String(), "ghp_") {
		t.Errorf("the JSON summary shows a token:\n%s", js.String())
	}
}

// TestFailedChecksCannotPushOutTheLockAlert: failed checks, stream
// errors, lock warnings and per-plan rows had no count limit; 1,500
// failing checks pushed the lock alert out of the comment.
func TestFailedChecksCannotPushOutTheLockAlert(t *testing.T) {
	var checks []any
	for i := range 1500 {
		a := fmt.Sprintf("check.c%d", i)
		checks = append(checks, map[string]any{"address": map[string]any{"kind": "check", "to_display": a}, "status": "fail",
			"instances": []any{map[string]any{"address": map[string]any{"to_display": a}, "status": "fail", "problems": []any{map[string]any{"message": strings.Repeat("bad ", 20)}}}}})
	}
	plan := planOf(rc("test_a.x", "delete", map[string]any{"id": "1"}, nil, map[string]any{}, false))
	plan["checks"] = checks
	path := writePlan(t, plan)
	locks := alertLockDiff(t)
	for _, max := range []int{GitHubMaxComment, 8000, 3000} {
		md, _ := comment(t, []CommentPlan{{Path: path}}, CommentOptions{Marker: Marker{Key: "k"}, MaxSize: max, Locks: locks})
		if !strings.Contains(md, "🚨 **alert**") {
			t.Errorf("max %d: the lock alert was pushed out:\n%.2000s", max, md)
		}
		if !strings.Contains(md, "`test_a.x` will be **destroyed**") {
			t.Errorf("max %d: the destroy warning was pushed out", max)
		}
		if n := strings.Count(md, "- ❌ check "); n > maxWarningsOfAKind {
			t.Errorf("max %d: %d failed checks listed", max, n)
		}
		if !strings.Contains(md, "more failed checks") {
			t.Errorf("max %d: the rest of the failed checks is not counted", max)
		}
	}
}

func alertLockDiff(t *testing.T) []*lockdiff.FileDiff {
	t.Helper()
	before, d1 := lockdiff.Parse([]byte("provider \"registry.opentofu.org/hashicorp/random\" {\n  version = \"3.6.3\"\n  hashes = [\"h1:a=\", \"zh:1111\"]\n}\n"), "before.hcl")
	after, d2 := lockdiff.Parse([]byte("provider \"registry.opentofu.org/hashicorp/random\" {\n  version = \"3.6.3\"\n  hashes = [\"h1:b=\", \"zh:2222\"]\n}\n"), "after.hcl")
	if d1.HasErrors() || d2.HasErrors() {
		t.Fatal(d1, d2)
	}
	return []*lockdiff.FileDiff{lockdiff.Compare(".terraform.lock.hcl", before, after)}
}

// TestManyPlansAreCounted: one row per plan had no limit.
func TestManyPlansAreCounted(t *testing.T) {
	path := writePlan(t, planOf(rc("test_a.x", "create", nil, map[string]any{"v": "x"}, false, map[string]any{})))
	var plans []CommentPlan
	for i := range 300 {
		plans = append(plans, CommentPlan{Name: fmt.Sprintf("root-%03d", i), Path: path})
	}
	md, _ := comment(t, plans, CommentOptions{Marker: Marker{Key: "k"}})
	if n := strings.Count(md, "| `root-"); n != maxPlanRows {
		t.Errorf("%d plan rows, want %d", n, maxPlanRows)
	}
	if !strings.Contains(md, "| … and 200 more roots |") {
		t.Error("the other plans are not counted")
	}
}

// TestTextOutsideCodeIsInert: bare URLs became links, GH-42 and :emoji:
// passed, and invisible characters were kept, in text outside code
// (diagnostics, check messages, plan and directory names).
func TestTextOutsideCodeIsInert(t *testing.T) {
	hostile := "see https://evil.example/a and www.evil.example, GH-42, :smile: x\ufeffy\u061cz\u2060w\u00adv\u2028u\u2029t\u3164s"
	plan := planOf(rc("test_a.x", "create", nil, map[string]any{"v": "x"}, false, map[string]any{}))
	plan["checks"] = []any{map[string]any{"address": map[string]any{"kind": "check", "to_display": "check.c"}, "status": "fail",
		"instances": []any{map[string]any{"address": map[string]any{"to_display": "check.c"}, "status": "fail", "problems": []any{map[string]any{"message": hostile}}}}}}
	path := writePlan(t, plan)
	md, _ := comment(t, []CommentPlan{{Name: hostile, Path: path}, {Name: "other", Path: path}}, CommentOptions{Marker: Marker{Key: "k"}, Title: hostile})
	html := cmarkHTML(t, md)
	outside := codeElements.ReplaceAllString(html, "")
	for _, bad := range []string{"<a ", "https://evil", "www.evil", "GH-42", ":smile:", "\ufeff", "\u061c", "\u2060", "\u00ad", "\u2028", "\u2029", "\u3164"} {
		if strings.Contains(outside, bad) {
			t.Errorf("%q outside code", bad)
		}
	}
	for _, keep := range []string{"evil.example/a", "GH", "smile", `\ufeff`} {
		if !strings.Contains(outside, keep) {
			t.Errorf("%q was lost", keep)
		}
	}
}

// TestDeepValues: a value nested 9,990 levels deep (20 KB) took 17 s and
// 1.07 GB as Markdown and 400 MB as text. Values nested past
// tofujson.MaxValueDepth are refused, located; a string holding such JSON
// is shown as the string it is.
func TestDeepValues(t *testing.T) {
	deep := strings.Repeat(`{"a":`, 9990) + "1" + strings.Repeat("}", 9990)
	var v any
	if err := json.Unmarshal([]byte(deep), &v); err != nil {
		t.Fatal(err)
	}
	path := writePlan(t, planOf(rc("test_a.deep", "create", nil, map[string]any{"v": v}, false, map[string]any{})))
	for _, format := range []string{"markdown", "text", "json"} {
		var err error
		var out bytes.Buffer
		switch format {
		case "markdown":
			_, err = Comment(&out, []CommentPlan{{Path: path}}, CommentOptions{Marker: Marker{Key: "k"}})
		case "text":
			err = txt.PlanText(&out, path, review.PlanOptions{})
		case "json":
			err = summary.Write(&out, []CommentPlan{{Path: path}}, review.PlanOptions{})
		}
		if err == nil || !strings.Contains(err.Error(), "nested more than 256 levels") || !strings.Contains(err.Error(), path+":1:") {
			t.Errorf("%s: err = %v, want a located refusal", format, err)
		}
	}
	str := writePlan(t, planOf(rc("test_a.deep", "create", nil, map[string]any{"v": deep}, false, map[string]any{})))
	md, _ := comment(t, []CommentPlan{{Path: str}}, CommentOptions{Marker: Marker{Key: "k"}})
	if strings.Contains(md, "jsonencode(") || len(md) > GitHubMaxComment {
		t.Errorf("the deep JSON string was decoded (%d characters)", len(md))
	}
}

// TestManyTestRuns: 200,000 test runs in a stream took 77 s: each run
// was looked up in a list. Reading runs is linear now.
func TestManyTestRuns(t *testing.T) {
	timeFor := func(n int) time.Duration {
		var b strings.Builder
		b.WriteString(`{"@level":"info","@message":"OpenTofu 1.9.0","type":"version","ui":"1.2"}` + "\n")
		for i := range n {
			fmt.Fprintf(&b, `{"@level":"info","@message":"run","type":"test_run","@testfile":"main.tftest.hcl","@testrun":"r%d","test_run":{"path":"main.tftest.hcl","run":"r%d","progress":"complete","status":"pass"}}`+"\n", i, i)
		}
		path := filepath.Join(t.TempDir(), "test.jsonl")
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		var out bytes.Buffer
		if _, err := Comment(&out, []CommentPlan{{Streams: []string{path}}}, CommentOptions{Marker: Marker{Key: "k"}}); err != nil {
			t.Fatal(err)
		}
		return time.Since(start)
	}
	small, large := timeFor(10000), timeFor(40000)
	// Four times the runs: four times the time when linear, sixteen when not.
	if large > 9*small+100*time.Millisecond {
		t.Errorf("10,000 runs took %v, 40,000 took %v", small, large)
	}
}

// TestBudgetsCountCharacters: GitHub counts a comment's characters, not
// its bytes; the cut never splits one.
func TestBudgetsCountCharacters(t *testing.T) {
	text := strings.Repeat("ü✅ line\n", 5000) // 8 characters, 11 bytes a line
	o := CommentOptions{MaxSize: 40000}
	if !o.fits(text) || len(text) <= 40000 {
		t.Errorf("%d bytes of %d characters do not fit 40,000 characters", len(text), utf8.RuneCountInString(text))
	}
	if (CommentOptions{MaxSize: 40000, MaxBytes: 50000}).fits(text) {
		t.Error("MaxBytes is not a limit")
	}
}
