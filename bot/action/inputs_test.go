package action

import (
	"path/filepath"
	"testing"
)

// TestActionKnowsSchemasByContent: a plan glob matching schemas.json beside
// the plan used to read the schemas as a second plan with no changes, and
// the comment said "no changes" while the plan created resources. The
// schemas now describe the plan, and the plan is the section's only one.
func TestActionKnowsSchemasByContent(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"envs/prod/plan.json": `{"format_version":"1.2","resource_changes":[` +
			`{"address":"a.b","mode":"managed","type":"a","name":"b","provider_name":"registry.opentofu.org/x/a","change":{"actions":["create"],"before":null,"after":{"v":"x"},"after_unknown":{}}}]}`,
		"envs/prod/schemas.json": `{"format_version":"1.0","provider_schemas":{"registry.opentofu.org/x/a":{"resource_schemas":{"a":{"version":0,"block":{"attributes":{"v":{"type":"string","optional":true}}}}}}}}`,
	})
	env := actionEnv(map[string]string{"GITHUB_REPOSITORY": "o/r", "INPUT_GITHUB-TOKEN": "t", "INPUT_PLAN": filepath.Join(dir, "envs/prod/*.json"),
		"GITHUB_EVENT_NAME": "pull_request", "GITHUB_EVENT_PATH": "../../testdata/payloads/pull_request-opened.json"})
	p, err := prepare(env)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.plans) != 1 || p.plans[0].Path != filepath.Join(dir, "envs/prod/plan.json") {
		t.Fatalf("plans %+v, want the plan alone", p.plans)
	}
	plan, schemas := filepath.Join(dir, "envs/prod/plan.json"), filepath.Join(dir, "envs/prod/schemas.json")
	if s := p.schemasOf[plan]; s.Schemas == nil || s.File != schemas || p.schemasFile != schemas {
		t.Errorf("the plan's schemas %+v (packed: %q), want %s", s, p.schemasFile, schemas)
	}
}
