package fingerprint

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
)

// sumOf is Read(path).Sum() as the streaming read gives it, without
// keeping the plan's values: what OfRoots sums for one plan.
func sumOf(ctx context.Context, path string, opts Options) (string, error) {
	sums, err := sumsOf(ctx, nil, path, []Options{opts})
	if err != nil {
		return "", err
	}
	return sums[0], nil
}

// canonicalPlans are plans of every kind this repository holds: both
// tools' actions, sensitive and unknown values, a hostile one, and one
// made here with numbers written every way and marks on nested values.
func canonicalPlans(t *testing.T) []string {
	t.Helper()
	paths, _ := filepath.Glob("../../testdata/terraform/*/plan.json")
	paths = append(paths, "../../testdata/example/plan.json", "../comment/testdata/plans/terraform-actions.json", "../comment/testdata/plans/hostile.json")
	nested := rc("aws_instance.nested", []string{"update"},
		map[string]any{"tags": map[string]any{"b<&>": "x\u2028\x01\"\\", "a": 1.5e3}, "list": []any{json.Number("-0.0"), json.Number("10e-1"), nil, true}, "password": "p"},
		map[string]any{"tags": map[string]any{"b<&>": "y"}, "list": []any{}, "password": "q"},
		map[string]any{"after_unknown": map[string]any{"id": true, "tags": map[string]any{"z": true}, "list": []any{true}},
			"after_sensitive": map[string]any{"password": true, "tags": map[string]any{"b<&>": true}}, "replace_paths": []any{[]any{"tags", "a"}}})
	outputs := map[string]any{"output_changes": map[string]any{"url": map[string]any{"actions": []any{"create"}, "before": nil, "after": "https://x?a=1&b=2", "after_unknown": false, "before_sensitive": false, "after_sensitive": false}}}
	return append(paths, plan(t, outputs, web(), bucket(), nested))
}

// TestCanonicalIsEncodingJSON: each entry's line is what encoding/json's
// Encoder writes for the entry normalized, byte for byte, and a plan's
// fingerprint summed while it is read is the one of its entries read
// whole.
func TestCanonicalIsEncodingJSON(t *testing.T) {
	entries := 0
	for _, path := range canonicalPlans(t) {
		type line struct {
			address   string
			got, want []byte
		}
		opts := Options{Key: []byte("k")}
		lines, err := visit(t.Context(), nil, path, func(e Entry, before, after marked) line {
			got := appendEntry(nil, &e, before, after, opts)
			e.Before = normalize(before.value, before.unknown, before.sensitive, opts)
			e.After = normalize(after.value, after.unknown, after.sensitive, opts)
			var want bytes.Buffer
			json.NewEncoder(&want).Encode(e)
			return line{e.Address, got, want.Bytes()}
		})
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		for _, l := range lines {
			if !bytes.Equal(l.got, l.want) {
				t.Errorf("%s %s:\ngot  %s\nwant %s", path, l.address, l.got, l.want)
			}
		}
		entries += len(lines)
		p, err := Read(nil, path, opts)
		if err != nil {
			t.Fatal(err)
		}
		if streamed, err := sumOf(t.Context(), path, opts); err != nil || streamed != p.Sum() {
			t.Errorf("%s: summed while read %s (%v), read whole %s", path, streamed, err, p.Sum())
		}
	}
	if entries < 25 {
		t.Fatalf("only %d entries compared", entries)
	}
}

// FuzzAppendString: strings are quoted as encoding/json quotes them.
func FuzzAppendString(f *testing.F) {
	for _, s := range []string{"", "plain", "<a href='x'>&amp;</a>", "\x00\x1f\b\f\n\r\t\"\\", "\u2028\u2029é😀", "bad \xff\xfe utf8", strings.Repeat("\xe2\x80", 3)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, _ := json.Marshal(s)
		if got := appendString(nil, s); !bytes.Equal(got, want) {
			t.Errorf("%q: %s, want %s", s, got, want)
		}
	})
}

// TestSumIgnoresOrderOfEqualAddresses: two entries at one address (a
// malformed plan) sum alike in either order.
func TestSumIgnoresOrderOfEqualAddresses(t *testing.T) {
	a := Entry{Address: "x.y", Actions: "create", After: "a"}
	b := Entry{Address: "x.y", Actions: "create", After: "b"}
	for range 20 {
		entries := []Entry{a, b}
		rand.Shuffle(len(entries), func(i, j int) { entries[i], entries[j] = entries[j], entries[i] })
		if got, want := (&Plan{Entries: entries}).Sum(), (&Plan{Entries: []Entry{a, b}}).Sum(); got != want {
			t.Fatalf("the order of entries at one address changed the fingerprint")
		}
	}
}

// FuzzNumber: what written says number writes as it is, read and written
// the long way, is as it was; no number is written much longer than it
// came.
func FuzzNumber(f *testing.F) {
	for _, s := range []string{"0", "-0", "1", "-17", "007", "2.5", "-0.5", "2.50", "1.0", "1e3", "0.12345678901234567891", "0.123456789012345678912", "12.", ".5", "-", "1e1000000", "-9.99E-999999", "0.100000000000000000000999", "1e99999999999999999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !json.Valid([]byte(s)) {
			return // plans hold JSON numbers
		}
		if written(s) && string(numberRead(s)) != s {
			t.Errorf("%q is written %q", s, numberRead(s))
		}
		if len(number(s)) > len(s)+maxPlainDigits {
			t.Errorf("%q is written %d bytes long", s, len(number(s)))
		}
	})
}

// TestSumWhileReadingMany: with more changes than the goroutine beside
// the read keeps up with, both goroutines hash entries, and the sum is
// still the one of the plan read whole; every change is in it once.
func TestSumWhileReadingMany(t *testing.T) {
	var changes []map[string]any
	for i := range 600 {
		changes = append(changes, rc(fmt.Sprintf("aws_instance.web%03d", i), []string{"update"},
			map[string]any{"ami": "a-1", "size": i, "password": "p1", "script": strings.Repeat("echo <&>\n", 50)},
			map[string]any{"ami": "a-2", "size": i + 1, "password": "p2", "script": strings.Repeat("echo <&>\n", 51)}, nil))
	}
	path := plan(t, nil, changes...)
	p, err := Read(nil, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Entries) != 600 {
		t.Fatalf("%d entries, want 600", len(p.Entries))
	}
	for i := range 3 {
		if got, err := sumOf(t.Context(), path, Options{}); err != nil || got != p.Sum() {
			t.Fatalf("run %d: summed while read %s (%v), read whole %s", i, got, err, p.Sum())
		}
	}
}
