package action

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/planpr/planpr/bot/githubtest"
)

// TestScheduledPlansKeepOneDriftIssuePerRoot: a scheduled plan of the
// default branch keeps one issue per root, labelled planpr:drift, from
// real Terraform plans of a state changed by hand: opened on drift, left
// alone when the drift is the same, edited with a note when it grows,
// closed with a note when nothing drifts, reopened when it comes back;
// a failed plan is noted without closing; two roots, two issues.
func TestScheduledPlansKeepOneDriftIssuePerRoot(t *testing.T) {
	fake, _, _ := newFake(t, "t-write")
	ws := t.TempDir()
	event := filepath.Join(t.TempDir(), "schedule.json")
	os.WriteFile(event, []byte(`{"schedule": "0 6 * * *", "repository": {"full_name": "o/r", "default_branch": "main"}}`), 0o644)
	vars := map[string]string{"GITHUB_API_URL": fake.URL, "GITHUB_GRAPHQL_URL": fake.URL + "/graphql", "GITHUB_REPOSITORY": "o/r",
		"GITHUB_EVENT_PATH": event, "GITHUB_EVENT_NAME": "schedule", "GITHUB_SHA": "abcdef1234567890abcdef1234567890abcdef12",
		"GITHUB_WORKSPACE": ws, "INPUT_GITHUB-TOKEN": "t-write", "PLANPR_WORKFLOW_TOKEN": "true", "INPUT_VERIFY": "off",
		"INPUT_PLAN": filepath.Join(ws, "envs/*/plan.json")}
	plan := func(root, fixture string) {
		t.Helper()
		os.RemoveAll(filepath.Join(ws, "envs", root))
		b, err := os.ReadFile(filepath.Join("../../testdata/terraform", fixture, "plan.json"))
		if err != nil {
			t.Fatal(err)
		}
		writeFiles(t, ws, map[string]string{"envs/" + root + "/plan.json": string(b)})
	}
	failed := func(root string) {
		os.RemoveAll(filepath.Join(ws, "envs", root))
		writeFiles(t, ws, map[string]string{"envs/" + root + "/plan.jsonl": `{"@level":"info","@message":"Terraform 1.11.4","type":"version","terraform":"1.11.4","ui":"1.2"}
{"@level":"error","@message":"Error: Invalid reference","type":"diagnostic","diagnostic":{"severity":"error","summary":"Invalid reference","detail":"A reference to a resource type must be followed by at least one attribute access."}}
`})
	}
	run := func(what string) string {
		t.Helper()
		out := &strings.Builder{}
		env := actionEnv(vars)
		env.Stdout = out
		if err := Run(t.Context(), env); err != nil {
			t.Fatalf("%s: %v\n%s", what, err, out)
		}
		return out.String()
	}
	only := func() githubtest.Issue {
		t.Helper()
		is := fake.Issues()
		if len(is) != 1 {
			t.Fatalf("%d issues, want one: %+v", len(is), is)
		}
		return is[0]
	}
	notes := func(i githubtest.Issue) []string {
		var out []string
		for _, c := range fake.Comments(i.Number) {
			out = append(out, c.Body)
		}
		return out
	}

	plan("prod", "drift")
	run("a drift")
	i := only()
	if i.State != "open" || i.Title != "planpr drift · envs/prod: 1 resource differs from the configuration" || !strings.Contains(i.Body, "terraform_data.web") ||
		len(i.Labels) != 1 || i.Labels[0] != "planpr:drift" {
		t.Fatalf("the drift issue: %+v", i)
	}

	writes := len(fake.Log())
	run("the same drift")
	for _, c := range fake.Log()[writes:] {
		if !strings.HasPrefix(c, "GET ") {
			t.Errorf("the same drift wrote: %s", c)
		}
	}

	plan("prod", "drift-more")
	run("more drift")
	if i = only(); i.Title != "planpr drift · envs/prod: 2 resources differ from the configuration" || !strings.Contains(i.Body, "terraform_data.db") {
		t.Errorf("the grown drift: %+v", i)
	}
	if n := notes(i); len(n) != 1 || !strings.Contains(n[0], "The drift grew at commit abcdef1 from 1 resource to 2 resources") {
		t.Errorf("notes %q", n)
	}

	plan("prod", "nochanges")
	run("no drift")
	if i = only(); i.State != "closed" || !strings.Contains(notes(i)[1], "No drift at commit abcdef1: closing.") {
		t.Errorf("no drift: %+v, notes %q", i, notes(i))
	}

	plan("prod", "drift")
	run("the drift back")
	if i = only(); i.State != "open" || i.Opens != 1 || !strings.Contains(notes(i)[2], "The drift is back at commit abcdef1: 1 resource.") {
		t.Errorf("drift again: %+v, notes %q", i, notes(i))
	}

	failed("prod")
	vars["INPUT_UI-STREAM"] = filepath.Join(ws, "envs/*/plan.jsonl")
	run("a failed plan")
	delete(vars, "INPUT_UI-STREAM")
	if i = only(); i.State != "open" || len(notes(i)) != 4 || !strings.Contains(notes(i)[3], "The scheduled plan failed at commit abcdef1") {
		t.Errorf("a failed plan: %+v, notes %q", i, notes(i))
	}

	plan("prod", "drift")
	plan("staging", "drift-more")
	run("two roots")
	titles := map[string]bool{}
	for _, i := range fake.Issues() {
		titles[i.Title] = true
	}
	if len(fake.Issues()) != 2 || !titles["planpr drift · envs/staging: 2 resources differ from the configuration"] {
		t.Errorf("two roots: %+v", fake.Issues())
	}

	// A plan with drift (resource_drift): what changed outside the tool.
	b, err := os.ReadFile("../../render/comment/testdata/plans/drift.json")
	if err != nil {
		t.Fatal(err)
	}
	writeFiles(t, ws, map[string]string{"envs/ops/plan.json": string(b)})
	run("a plan with drift")
	var ops []string
	for _, i := range fake.Issues() {
		if strings.Contains(i.Title, "envs/ops") {
			ops = append(ops, i.Title)
		}
	}
	if len(ops) != 1 || ops[0] != "planpr drift · envs/ops: 1 resource changed outside OpenTofu" {
		t.Errorf("the drifted root's issue: %q", ops)
	}
}
