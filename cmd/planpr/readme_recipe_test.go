package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/planpr/planpr/bot/githubtest"
)

// recipeStep is a workflow step as the README writes it.
type recipeStep struct {
	Uses string            `yaml:"uses"`
	If   string            `yaml:"if"`
	With map[string]string `yaml:"with"`
}

// TestReadmeMonorepoRecipe runs the README's monorepo workflow: each
// matrix job's planpr step packs its root (one root's job fails before it
// plans), the artifacts are downloaded as the final job's
// download-artifact lays them out, and the final job's planpr step posts
// one comment covering every root, the failed one a ❌ row.
func TestReadmeMonorepoRecipe(t *testing.T) {
	block := readmeYAML(t, "# A monorepo: one job per root module, then one comment for the whole pull request.")
	var wf struct {
		Jobs map[string]struct {
			Needs    string `yaml:"needs"`
			If       string `yaml:"if"`
			Strategy struct {
				Matrix struct {
					Root []string `yaml:"root"`
				} `yaml:"matrix"`
			} `yaml:"strategy"`
			Steps []recipeStep `yaml:"steps"`
		} `yaml:"jobs"`
	}
	if err := yaml.Unmarshal(block, &wf); err != nil {
		t.Fatalf("the README's monorepo recipe: %v", err)
	}
	planpr := func(job string) recipeStep {
		for _, s := range wf.Jobs[job].Steps {
			if strings.HasPrefix(s.Uses, "planpr/planpr@") {
				return s
			}
		}
		t.Fatalf("job %s runs no planpr step", job)
		return recipeStep{}
	}
	matrix, final := planpr("plan"), planpr("comment")
	if wf.Jobs["comment"].Needs != "plan" || !strings.Contains(wf.Jobs["comment"].If, "!cancelled()") || matrix.With["pack"] == "" || final.With["roots"] == "" {
		t.Fatalf("the recipe is not the two-job recipe: %+v", wf.Jobs["comment"])
	}
	roots := wf.Jobs["plan"].Strategy.Matrix.Root

	fake := githubtest.New()
	t.Cleanup(fake.Close)
	fake.AddPR(githubtest.PR{Number: 2, BaseSHA: strings.Repeat("a", 40), HeadSHA: strings.Repeat("b", 40), HeadRef: "feature", HeadOwner: "octo"})
	event := filepath.Join(t.TempDir(), "event.json")
	os.WriteFile(event, []byte(`{"action":"opened","number":2,"pull_request":{"number":2,"head":{"sha":"`+strings.Repeat("b", 40)+`"}},"repository":{"full_name":"Codertocat/Hello-World"}}`), 0o644)
	ws := t.TempDir()
	t.Chdir(ws)
	env := map[string]string{"GITHUB_API_URL": fake.URL, "GITHUB_GRAPHQL_URL": fake.URL + "/graphql", "GITHUB_REPOSITORY": "Codertocat/Hello-World",
		"GITHUB_EVENT_NAME": "pull_request", "GITHUB_EVENT_PATH": event, "GITHUB_RUN_ID": "100", "GITHUB_SERVER_URL": "https://github.com",
		"GITHUB_WORKSPACE": ws, "GITHUB_STEP_SUMMARY": filepath.Join(t.TempDir(), "summary.md"), "GITHUB_OUTPUT": filepath.Join(t.TempDir(), "out.txt"),
		"INPUT_GITHUB-TOKEN": "t-write", "INPUT_VERIFY": "false"}
	step := func(s recipeStep, matrixRoot string) {
		t.Helper()
		for _, k := range []string{"plan", "ui-stream", "schemas", "pack", "roots", "key"} {
			t.Setenv("INPUT_"+strings.ToUpper(k), strings.ReplaceAll(s.With[k], "${{ matrix.root }}", matrixRoot))
		}
		for k, v := range env {
			t.Setenv(k, v)
		}
		var out, errOut bytes.Buffer
		if code := run([]string{"action"}, strings.NewReader(""), &out, &errOut); code != 0 {
			t.Fatalf("planpr in %q: exit %d\n%s\n%s", matrixRoot, code, out.String(), errOut.String())
		}
	}
	for i, r := range roots {
		if i == 1 {
			continue // this root's job failed before it planned: nothing packed
		}
		os.MkdirAll(r, 0o755)
		plan := `{"format_version":"1.2","terraform_version":"1.9.0","resource_changes":[{"address":"terraform_data.a","mode":"managed","type":"terraform_data","name":"a","provider_name":"terraform.io/builtin/terraform","change":{"actions":["create"],"before":null,"after":{"input":"x"},"after_unknown":{"id":true,"output":true}}}]}`
		os.WriteFile(filepath.Join(r, "plan.json"), []byte(plan), 0o644)
		os.WriteFile(filepath.Join(r, "plan.jsonl"), []byte(`{"@level":"info","@message":"OpenTofu 1.9.0","type":"version","terraform":"1.9.0","ui":"1.2"}`+"\n"), 0o644)
		// Real schemas of terraform_data: the final job renders each root with its own.
		os.WriteFile(filepath.Join(r, "schemas.json"), []byte(`{"format_version":"1.0","provider_schemas":{"terraform.io/builtin/terraform":{"resource_schemas":{"terraform_data":{"version":0,"block":{"attributes":{"id":{"type":"string","computed":true},"input":{"type":"dynamic","optional":true},"output":{"type":"dynamic","computed":true},"triggers_replace":{"type":"dynamic","optional":true}}}}}}}}`), 0o644)
		step(matrix, r)
		// upload-artifact, then download-artifact into artifacts/NAME.
		os.MkdirAll("artifacts", 0o755)
		if err := os.Rename(matrix.With["pack"], filepath.Join("artifacts", fmt.Sprintf("planpr-%d", i))); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(fake.Comments(2)); n != 0 {
		t.Fatalf("the matrix jobs posted %d comments", n)
	}
	step(final, "")
	comments := fake.Comments(2)
	if len(comments) != 1 {
		t.Fatalf("%d comments, want one for the pull request", len(comments))
	}
	body := comments[0].Body
	for i, r := range roots {
		want := "| `" + r + "` | ✅ |"
		if i == 1 {
			want = "| `" + r + "` — no plan arrived: its job failed or was cancelled | ❌ |"
		}
		if !strings.Contains(body, want) {
			t.Errorf("no row %q in\n%s", want, body)
		}
	}
	// Each root rendered with the schemas its job packed: no footer asks
	// for them.
	if strings.Contains(body, "values as the plan records them") {
		t.Errorf("the final job ignored the packed schemas:\n%s", body)
	}
}

// TestReadmeForkSafeRecipeWires: the fork-safe pair waits for the plan
// workflow by the name that workflow has (GitHub matches workflow_run's
// workflows by name, else by path), and the trusted workflow may write
// the check that the check input makes by default.
func TestReadmeForkSafeRecipeWires(t *testing.T) {
	block := readmeYAML(t, "# .github/workflows/plan.yml — runs the fork's code")
	docs := bytes.Split(block, []byte("\n---\n"))
	if len(docs) != 2 {
		t.Fatalf("the fork-safe pair is %d workflows, want two", len(docs))
	}
	var plan struct {
		Name string `yaml:"name"`
	}
	var comment struct {
		On struct {
			WorkflowRun struct {
				Workflows []string `yaml:"workflows"`
			} `yaml:"workflow_run"`
		} `yaml:"on"`
		Permissions map[string]string `yaml:"permissions"`
	}
	if err := yaml.Unmarshal(docs[0], &plan); err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(docs[1], &comment); err != nil {
		t.Fatal(err)
	}
	if plan.Name == "" || len(comment.On.WorkflowRun.Workflows) != 1 || comment.On.WorkflowRun.Workflows[0] != plan.Name {
		t.Errorf("comment.yml waits for %q; plan.yml is named %q", comment.On.WorkflowRun.Workflows, plan.Name)
	}
	for perm, want := range map[string]string{"pull-requests": "write", "actions": "read", "checks": "write"} {
		if comment.Permissions[perm] != want {
			t.Errorf("comment.yml: %s: %q, want %s", perm, comment.Permissions[perm], want)
		}
	}
}

// readmeYAML is the README's YAML block whose first line starts with
// first, without its fences.
func readmeYAML(t *testing.T, first string) []byte {
	t.Helper()
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	start := "```yaml\n" + first
	i := bytes.Index(readme, []byte(start))
	if i < 0 {
		t.Fatalf("the README has no YAML block starting %q", first)
	}
	block := readme[i+len("```yaml\n"):]
	return block[:bytes.Index(block, []byte("```"))]
}
