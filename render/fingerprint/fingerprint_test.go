package fingerprint

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
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
	return keyedSum(t, path, Options{})
}

func keyedSum(t *testing.T, path string, opts Options) string {
	t.Helper()
	p, err := Read(nil, path, opts)
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
	keyed := Options{Key: []byte("the review's secret")}
	keyedBase := keyedSum(t, reviewed, keyed)
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
			if keyedSum(t, tc.path, keyed) == keyedBase {
				t.Errorf("the same fingerprint")
			}
			r, _ := Read(nil, reviewed, keyed)
			c, _ := Read(nil, tc.path, keyed)
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
		a, err := Read(nil, path, Options{})
		if err != nil {
			return
		}
		b, err := Read(nil, path, Options{})
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

// TestFingerprintTellsApartWhatAReviewerWouldNot: what the fourth review
// found summing alike — where a provider points, which provider serves a
// resource, a variable only a provider reads, the string "(known after
// apply)" against an unknown, numbers that differ past the 20th place,
// an address written twice — changes the fingerprint, and Compare says
// so (never "the same" while the sums differ).
func TestFingerprintTellsApartWhatAReviewerWouldNot(t *testing.T) {
	provider := func(region string) map[string]any {
		return map[string]any{"configuration": map[string]any{"provider_config": map[string]any{"aws": map[string]any{
			"name": "aws", "full_name": "registry.opentofu.org/hashicorp/aws",
			"expressions": map[string]any{"region": map[string]any{"constant_value": region}}}}}}
	}
	served := func(source string) map[string]any {
		r := bucket()
		r["provider_name"] = source
		return r
	}
	valued := func(v any, unknown bool) map[string]any {
		return rc("aws_s3_bucket.logs", []string{"create"}, nil, map[string]any{"bucket": v}, map[string]any{"after_unknown": map[string]any{"bucket": unknown}})
	}
	variables := func(account string) map[string]any {
		return map[string]any{"variables": map[string]any{"account": map[string]any{"value": account}}}
	}
	for _, tc := range []struct {
		name       string
		a, b       string
		difference string
	}{
		{"where the provider points", plan(t, provider("eu-west-1"), bucket()), plan(t, provider("us-east-1"), bucket()), "`provider_config.aws`: the same configure, but with other values: `expressions.region.constant_value`"},
		{"which provider serves a resource", plan(t, nil, served("registry.opentofu.org/hashicorp/aws")), plan(t, nil, served("registry.opentofu.org/evil/aws")), "`aws_s3_bucket.logs`: the same create, now by provider `registry.opentofu.org/evil/aws`"},
		{"a variable only a provider reads", plan(t, variables("111111111111"), bucket()), plan(t, variables("222222222222"), bucket()), "`var.account`: the same input, but with other values"},
		{"the string (known after apply) and an unknown", plan(t, nil, valued(Unknown, false)), plan(t, nil, valued(nil, true)), "`aws_s3_bucket.logs`: the same create, but with other values: `bucket`"},
		{"numbers past the 20th place", plan(t, nil, valued(json.Number("0.1"), false)), plan(t, nil, valued(json.Number("0.100000000000000000000999"), false)), "`aws_s3_bucket.logs`: the same create, but with other values: `bucket`"},
		{"an address written twice", plan(t, nil, bucket()), plan(t, nil, bucket(), valued("other", false)), "`aws_s3_bucket.logs (occurrence 2)`: new since review (create)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if sum(t, tc.a) == sum(t, tc.b) {
				t.Errorf("the same fingerprint")
			}
			a, _ := Read(nil, tc.a, Options{})
			b, _ := Read(nil, tc.b, Options{})
			diffs := Compare(a, b)
			if len(diffs) == 0 || !strings.HasPrefix(diffs[len(diffs)-1].Message, tc.difference) {
				t.Errorf("differences %+v, want %q", diffs, tc.difference)
			}
		})
	}
}

// TestUnkeyedFingerprintHoldsNoSensitiveValue: a published (unkeyed)
// fingerprint does not change with a sensitive value, so nothing can be
// guessed from it offline; a keyed one does, and depends on its key.
func TestUnkeyedFingerprintHoldsNoSensitiveValue(t *testing.T) {
	secret := func(pw string) string {
		return plan(t, map[string]any{"variables": map[string]any{"db_password": map[string]any{"value": pw}}},
			rc("aws_db_instance.db", []string{"update"}, map[string]any{"password": "old"}, map[string]any{"password": pw}, nil))
	}
	a, b := secret("hunter2"), secret("correct horse")
	if sum(t, a) != sum(t, b) {
		t.Errorf("the unkeyed fingerprint changes with a sensitive value (or a variable named like a credential)")
	}
	k1, k2 := Options{Key: []byte("one")}, Options{Key: []byte("two")}
	if keyedSum(t, a, k1) == keyedSum(t, b, k1) {
		t.Errorf("the keyed fingerprint does not see the sensitive value change")
	}
	if keyedSum(t, a, k1) == keyedSum(t, a, k2) || keyedSum(t, a, k1) == sum(t, a) {
		t.Errorf("the keyed fingerprint does not depend on its key")
	}
	p, _ := Read(nil, a, k1)
	for _, e := range p.Entries {
		if line, _ := json.Marshal(e); strings.Contains(string(line), "hunter2") {
			t.Errorf("a sensitive value in an entry: %s", line)
		}
	}
}

// TestNumberBombIsNotExpanded: a number written short with a huge
// exponent is written about as short, however it is spelt, and equal
// values are written alike.
func TestNumberBombIsNotExpanded(t *testing.T) {
	for in, want := range map[string]string{
		"1e1000000": "1e1000000", "10e999999": "1e1000000", "-2.50E-1000000": "-2.5e-1000000",
		"1e3": "1000", "1.0": "1", "0.1": "0.1", "1e-1": "0.1", "0.100000000000000000000999": "0.100000000000000000000999",
		"-0.0": "0", "123.4500": "123.45", "1e40": "1e40", "1e39": "1000000000000000000000000000000000000000",
		"0.000000000000000000000000000001": "0.000000000000000000000000000001", "1e-31": "1e-31",
		"1e99999999999999999999": "1e99999999999999999999",
	} {
		if got := string(number(in)); got != want {
			t.Errorf("number(%q) = %q, want %q", in, got, want)
		}
	}
	bomb := plan(t, nil, rc("aws_s3_bucket.logs", []string{"create"}, nil, map[string]any{"n": json.Number("1e1000000"), "m": json.Number("-9.99e-999999")}, nil))
	p, err := Read(nil, bomb, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if line, _ := json.Marshal(p.Entries[0]); len(line) > 400 {
		t.Errorf("the entry is %d bytes", len(line))
	}
}

// TestFingerprintStopsWithTheJobsContext: a job whose time is up stops
// summing a plan rather than reading it to its end.
func TestFingerprintStopsWithTheJobsContext(t *testing.T) {
	var changes []map[string]any
	for i := range 200 {
		changes = append(changes, rc(fmt.Sprintf("aws_instance.w%03d", i), []string{"create"}, nil, map[string]any{"n": i}, nil))
	}
	path := plan(t, nil, changes...)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := OfRoots(ctx, nil, []Root{{Name: "prod", Path: path}}, Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("a cancelled job: %v", err)
	}
	if sum, err := OfRoots(t.Context(), nil, []Root{{Name: "prod", Path: path}}, Options{}); err != nil || sum == "" {
		t.Errorf("a live job: %q %v", sum, err)
	}
}

// TestOfRootsEachIsAReadForEach: the sums of one read for several
// options are each plan's Sum read with each option on its own.
func TestOfRootsEachIsAReadForEach(t *testing.T) {
	path := plan(t, nil, web(), bucket())
	keyed := Options{Key: []byte("k")}
	sums, err := OfRootsEach(t.Context(), nil, []Root{{Name: "prod", Path: path}}, Options{}, keyed)
	if err != nil {
		t.Fatal(err)
	}
	for i, o := range []Options{{}, keyed} {
		p, err := Read(nil, path, o)
		if err != nil {
			t.Fatal(err)
		}
		if sums[i] != p.Sum() {
			t.Errorf("options %d: %s, want %s", i, sums[i], p.Sum())
		}
	}
	if sums[0] == sums[1] {
		t.Error("the keyed sum is the published one")
	}
}
