package fingerprint

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// plan writes a plan JSON from resource changes and outputs.
func plan(t testing.TB, top map[string]any, changes ...map[string]any) string {
	t.Helper()
	doc := map[string]any{"format_version": "1.2", "terraform_version": "1.9.0", "resource_changes": changes}
	for k, v := range top {
		doc[k] = v
	}
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "plan.json")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func rc(addr string, actions []string, before, after map[string]any, extra map[string]any) map[string]any {
	change := map[string]any{"actions": actions, "before": before, "after": after, "after_unknown": map[string]any{"id": true},
		"before_sensitive": map[string]any{"password": true}, "after_sensitive": map[string]any{"password": true}}
	for k, v := range extra {
		change[k] = v
	}
	r := map[string]any{"address": addr, "mode": "managed", "type": strings.Split(addr, ".")[0], "name": strings.Split(addr, ".")[1], "change": change}
	if reason, ok := extra["reason"]; ok {
		r["action_reason"] = reason
		delete(change, "reason")
	}
	return r
}

func sum(t *testing.T, path string) string {
	t.Helper()
	p, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	return p.Sum()
}

var (
	web = func() map[string]any {
		return rc("aws_instance.web", []string{"update"}, map[string]any{"ami": "a-1", "size": 2, "password": "p1"}, map[string]any{"ami": "a-1", "size": 4, "password": "p1"}, nil)
	}
	bucket = func() map[string]any {
		return rc("aws_s3_bucket.logs", []string{"create"}, nil, map[string]any{"bucket": "logs"}, nil)
	}
)

// TestFingerprintStable: the same plan made again — another timestamp,
// tool version, prior state, configuration, resource order, numbers
// written otherwise, an unknown left out of after — has the same
// fingerprint.
func TestFingerprintStable(t *testing.T) {
	base := sum(t, plan(t, nil, web(), bucket()))
	remade := rc("aws_instance.web", []string{"update"}, map[string]any{"ami": "a-1", "size": 2.0, "password": "p1"}, map[string]any{"ami": "a-1", "size": json.Number("4.0"), "password": "p1"}, nil)
	for name, path := range map[string]string{
		"other metadata": plan(t, map[string]any{"timestamp": "2026-11-26T10:00:00Z", "terraform_version": "1.10.2", "prior_state": map[string]any{"x": 1},
			"configuration": map[string]any{"root_module": map[string]any{}}, "resource_drift": []any{}}, web(), bucket()),
		"another order":   plan(t, nil, bucket(), web()),
		"numbers as 4.0":  plan(t, nil, remade, bucket()),
		"a no-op besides": plan(t, nil, web(), bucket(), rc("aws_iam_role.r", []string{"no-op"}, map[string]any{"n": "r"}, map[string]any{"n": "r"}, nil)),
	} {
		if got := sum(t, path); got != base {
			t.Errorf("%s: fingerprint %s, want %s", name, Short(got), Short(base))
		}
	}
}

// TestFingerprintDiffers: every kind of change to what a plan does
// changes its fingerprint, and compare-plans says it in words.
func TestFingerprintDiffers(t *testing.T) {
	reviewed := plan(t, nil, web(), bucket())
	base := sum(t, reviewed)
	replaced := rc("aws_instance.web", []string{"delete", "create"}, map[string]any{"ami": "a-1", "size": 2, "password": "p1"}, map[string]any{"ami": "a-2", "size": 4, "password": "p1"},
		map[string]any{"replace_paths": []any{[]any{"ami"}}, "reason": "replace_because_cannot_update"})
	otherSize := rc("aws_instance.web", []string{"update"}, map[string]any{"ami": "a-1", "size": 2, "password": "p1"}, map[string]any{"ami": "a-1", "size": 8, "password": "p1"}, nil)
	otherSecret := rc("aws_instance.web", []string{"update"}, map[string]any{"ami": "a-1", "size": 2, "password": "p1"}, map[string]any{"ami": "a-1", "size": 4, "password": "p2"}, nil)
	reason := rc("aws_s3_bucket.logs", []string{"create"}, nil, map[string]any{"bucket": "logs"}, map[string]any{"reason": "replace_by_request"})
	for _, tc := range []struct {
		name  string
		path  string
		words string
	}{
		{"an action", plan(t, nil, replaced, bucket()), "`aws_instance.web`: reviewed as update, now replace because `ami` forces replacement"},
		{"a value", plan(t, nil, otherSize, bucket()), "`aws_instance.web`: the same update, but with other values: `size`"},
		{"a sensitive value", plan(t, nil, otherSecret, bucket()), "`aws_instance.web`: the same update, but with other values: `password`"},
		{"a new resource", plan(t, nil, web(), bucket(), rc("aws_iam_role.r", []string{"create"}, nil, map[string]any{"n": "r"}, nil)), "`aws_iam_role.r`: new since review (create)"},
		{"a removed resource", plan(t, nil, web()), "`aws_s3_bucket.logs`: no longer in the plan (reviewed as create)"},
		{"a reason", plan(t, nil, web(), reason), "`aws_s3_bucket.logs`: the same create, now because replace by request"},
		{"an output", plan(t, map[string]any{"output_changes": map[string]any{"url": map[string]any{"actions": []any{"update"}, "before": "a", "after": "b"}}}, web(), bucket()), "`output.url`: new since review (update)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if sum(t, tc.path) == base {
				t.Errorf("the same fingerprint")
			}
			r, _ := Read(reviewed)
			c, _ := Read(tc.path)
			diffs := Compare(r, c)
			if len(diffs) != 1 || diffs[0].Message != tc.words && !strings.HasPrefix(diffs[0].Message, tc.words) {
				t.Errorf("differences %+v, want %q", diffs, tc.words)
			}
			for _, d := range diffs {
				if strings.Contains(d.Message, "p1") || strings.Contains(d.Message, "p2") {
					t.Errorf("a sensitive value in %q", d.Message)
				}
			}
		})
	}
}

// FuzzFingerprint: reading any plan never panics; a plan's fingerprint is
// the same read twice, and it compares equal to itself.
func FuzzFingerprint(f *testing.F) {
	f.Add(`{"format_version":"1.2","resource_changes":[{"address":"a.b","mode":"managed","type":"a","name":"b","change":{"actions":["update"],"before":{"x":1},"after":{"x":2},"after_unknown":{"y":true},"before_sensitive":{},"after_sensitive":{"x":true}}}]}`)
	f.Add(`{"format_version":"1.2","resource_changes":[],"output_changes":{"o":{"actions":["create"],"before":null,"after":[1,{"a":"b"}],"after_unknown":[false,{"c":true}]}}}`)
	f.Add(`{"format_version":"1.2"}`)
	f.Fuzz(func(t *testing.T, doc string) {
		path := filepath.Join(t.TempDir(), "plan.json")
		os.WriteFile(path, []byte(doc), 0o644)
		a, err := Read(path)
		if err != nil {
			return
		}
		b, err := Read(path)
		if err != nil {
			t.Fatalf("read once, refused the second time: %v", err)
		}
		if a.Sum() != b.Sum() || len(Compare(a, b)) != 0 {
			t.Errorf("the same plan differs from itself: %s %s %+v", a.Sum(), b.Sum(), Compare(a, b))
		}
	})
}

// TestCompareQuotesAddressesAsCode: an address holds for_each keys, which
// anyone writing the configuration chooses; a difference names it in a
// code span it cannot close, so no mention, link or HTML escapes.
func TestCompareQuotesAddressesAsCode(t *testing.T) {
	addr := "aws_s3_bucket.b[\"x` @org/admins <img src=x> `y\"]"
	got := Compare(&Plan{}, &Plan{Entries: []Entry{{Address: addr, Actions: "create"}}})
	if len(got) != 1 {
		t.Fatalf("differences %v", got)
	}
	want := "``" + addr + "``: new since review (create)"
	if got[0].Message != want {
		t.Errorf("message %q, want %q", got[0].Message, want)
	}
}
