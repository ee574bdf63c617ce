package tofujson

import (
	"errors"
	"strings"
	"testing"
)

func TestReadPlanSaysSeveralPlans(t *testing.T) {
	path := writeFile(t, "plans.json", minimalPlan+"\n"+minimalPlan)
	_, err := ReadPlanFile(path, nil)
	var several *SeveralPlansError
	if !errors.As(err, &several) || several.File != path {
		t.Fatalf("err = %v, want a SeveralPlansError naming %s", err, path)
	}
	// Text that is not a document is still refused as such.
	_, err = ReadPlanFile(writeFile(t, "plan.json", minimalPlan+"\nPlan: 1 to add"), nil)
	if err == nil || !strings.Contains(err.Error(), "unexpected text after the plan JSON") {
		t.Fatalf("err = %v, want unexpected text", err)
	}
}

func TestSplitPlans(t *testing.T) {
	const a, b = `{"format_version":"1.2","n":"é"}`, `{"format_version":"0.1"}`
	for _, tc := range []struct {
		name, text string
		parts      []PlanPart // Path is the part's text here
		err        string     // the error, when the file cannot be split
	}{
		{name: "terragrunt: one per line", text: a + "\n" + b + "\n",
			parts: []PlanPart{{a, 1, 1}, {"\n" + b, 1, len([]rune(a)) + 1}}},
		{name: "cat: no newline between", text: a + b,
			parts: []PlanPart{{a, 1, 1}, {b, 1, len([]rune(a)) + 1}}},
		{name: "blank lines between", text: a + "\n\n  " + b,
			parts: []PlanPart{{a, 1, 1}, {"\n\n  " + b, 1, len([]rune(a)) + 1}}},
		{name: "an array after the plans", text: a + "\n" + b + "\n  [1]", err: "plans.json:3:3: document 3 is not a JSON object"},
		{name: "cut short", text: a + "\n" + `{"format_version":`, err: "plans.json:2:19: truncated JSON"},
		{name: "bad JSON in the second", text: a + "\n" + `{"a" 1}`, err: "plans.json:2:6: invalid JSON"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := writeFile(t, "plans.json", tc.text)
			files := NewFiles()
			defer files.Close()
			parts, release, err := files.SplitPlans(path)
			defer release()
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), strings.TrimPrefix(tc.err, "plans.json")) || !strings.HasPrefix(err.Error(), path) {
					t.Fatalf("err = %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(parts) != len(tc.parts) {
				t.Fatalf("%d parts, want %d", len(parts), len(tc.parts))
			}
			for i, p := range parts {
				got, err := files.ReadFile(p.Path)
				if err != nil {
					t.Fatal(err)
				}
				want := tc.parts[i]
				if string(got) != want.Path || p.Line != want.Line || p.Column != want.Column {
					t.Errorf("part %d: %q at %d:%d, want %q at %d:%d", i+1, got, p.Line, p.Column, want.Path, want.Line, want.Column)
				}
			}
		})
	}
}

func TestPlanPartLocate(t *testing.T) {
	part := PlanPart{Path: "/tmp/x/2-plans.json", Line: 3, Column: 10}
	for _, tc := range []struct {
		in   error
		want string
	}{
		{&InputError{File: part.Path, Line: 1, Column: 5, Msg: "bad"}, "plans.json:3:14: bad"},
		{&InputError{File: part.Path, Line: 2, Column: 5, Msg: "bad"}, "plans.json:4:5: bad"},
		{&InputError{File: part.Path, Msg: "bad"}, "plans.json: bad"},
		{&InputError{File: "other.json", Line: 1, Column: 1, Msg: "bad"}, "other.json:1:1: bad"},
	} {
		if got := part.Locate(tc.in, "plans.json").Error(); got != tc.want {
			t.Errorf("Locate(%v) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
