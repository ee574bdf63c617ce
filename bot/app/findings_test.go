package app

import (
	"os"
	"strings"
	"testing"

	"github.com/planpr/planpr/bot/githubtest"
)

// TestAppShowsTheFindingsOfTheArtifact: scanners' reports uploaded with
// the plan land on the resources they name; one that names none (the App
// has no checkout to place it by its line) is listed apart, never lost.
func TestAppShowsTheFindingsOfTheArtifact(t *testing.T) {
	read := func(name string) string {
		b, err := os.ReadFile("../../testdata/findings/modules/" + name)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	a := newTestApp(t, 1)
	a.start(t)
	a.fake.AddArtifact(289782451, githubtest.Artifact{ID: 1, Name: "planpr-infra", Zip: githubtest.Zip(map[string]string{
		"planpr.json": `{"pr": 2, "key": "infra"}`, "plan.json": read("plan.json"), "tfsec.sarif": read("tfsec.sarif"), "scan/tflint.sarif": read("tflint.sarif")})})
	body := payload(t, "workflow_run-completed.with-pull-requests.json", nil)
	a.deliver(t, "workflow_run", "w-1", body, githubtest.Sign(testSecret, body))
	waitFor(t, "the plan comment", func() bool { n, _ := countKey(a.fake, 2, "infra"); return n == 1 })
	a.stop(t)
	_, c := countKey(a.fake, 2, "infra")
	for _, want := range []string{"#### Findings on this plan's changes: 4 high",
		"— on `terraform_data.web[\"eu\"]`, `terraform_data.web[\"us\"]`, `module.a.terraform_data.logs`, `module.b.terraform_data.logs`",
		"1 finding on resources this plan leaves alone; 1 finding on no resource of this plan", "`terraform_comment_syntax`"} {
		if !strings.Contains(c.Body, want) {
			t.Errorf("the comment lacks %q:\n%s", want, c.Body)
		}
	}
}
