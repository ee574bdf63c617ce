package app

import (
	"bytes"
	"context"
	"github.com/planpr/planpr/bot"
	"github.com/planpr/planpr/bot/action"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/planpr/planpr/bot/githubtest"
	"github.com/planpr/planpr/render/report"
	"github.com/planpr/planpr/render/review"
	"github.com/planpr/planpr/render/summary"
)

// TestParityAppAndAction: the App, from a workflow run's artifact whose
// manifest names its root, posts the comment the Action posts for the
// same plan, stream and lock change — body, footer, key, title and labels
// — apart from the run the marker records and the footer links.
func TestParityAppAndAction(t *testing.T) {
	example := "../../testdata/example"
	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join(example, name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	stream := string(read("plan.jsonl")) // the example plan's own stream
	lockPath := "envs/prod/.terraform.lock.hcl"
	addPR := func(fake *githubtest.Server, base, head string) {
		fake.AddPR(githubtest.PR{Number: 2, BaseSHA: base, HeadSHA: head, HeadRef: "feature", HeadOwner: "octo-org",
			Files: []githubtest.File{{Name: lockPath, Status: "modified"}}})
		fake.AddFile(base, lockPath, read("before.terraform.lock.hcl"))
		fake.AddFile(head, lockPath, read("after.terraform.lock.hcl"))
		fake.AddFile(head, "envs/prod/versions.tf", read("versions.tf"))
	}

	// The Action, in a checkout.
	outputFile := filepath.Join(t.TempDir(), "outputs")
	fake, _, _ := newFake(t, "t-write")
	base, head := "f95f852bd8fca8fcc58a9a2d6c842781e32a215e", "ec26c3e57ca3a959ca5aad62de7213c562f8c821"
	addPR(fake, base, head)
	ws := t.TempDir()
	writeFiles(t, ws, map[string]string{"envs/prod/plan.json": string(read("plan.json")), "envs/prod/plan.jsonl": stream,
		"envs/prod/versions.tf": string(read("versions.tf")), lockPath: string(read("after.terraform.lock.hcl"))})
	vars := map[string]string{
		"GITHUB_API_URL": fake.URL, "GITHUB_GRAPHQL_URL": fake.URL + "/graphql", "GITHUB_REPOSITORY": "octo-org/octo-repo",
		"GITHUB_EVENT_NAME": "pull_request", "GITHUB_EVENT_PATH": "../../testdata/payloads/pull_request-opened.json", "GITHUB_RUN_ID": "100",
		"GITHUB_SERVER_URL": "https://github.com", "GITHUB_WORKSPACE": ws, "RUNNER_TEMP": t.TempDir(), "GITHUB_OUTPUT": outputFile,
		"INPUT_GITHUB-TOKEN": "t-write", "INPUT_PLAN": filepath.Join(ws, "envs/*/plan.json"), "INPUT_UI-LOG": filepath.Join(ws, "envs/*/plan.jsonl"), "INPUT_VERIFY": "false",
	}
	env := action.Env{Getenv: func(k string) string { return vars[k] }, Stdout: &strings.Builder{}, Version: "test"}
	if err := action.Run(context.Background(), env); err != nil {
		t.Fatalf("action: %v\n%s", err, env.Stdout)
	}
	_, fromAction := countKey(fake, 2, "prod")

	// The App, from the run's artifact.
	a := newTestApp(t, 1)
	a.start(t)
	runHead := head // the run built the pull request's head
	addPR(a.fake, base, runHead)
	a.fake.AddArtifact(289782451, githubtest.Artifact{ID: 1, Name: "planpr-prod", Zip: githubtest.Zip(map[string]string{
		"planpr.json": `{"pr": 2, "key": "prod", "root": "envs/prod"}`, "plan.json": string(read("plan.json")), "plan.jsonl": stream})})
	// The pull request's own delivery comes first: its lock file is
	// reviewed in the lock comment until a plan's comment holds it.
	opened := payload(t, "pull_request-opened.json", setPR(2, runHead, "2026-11-01T10:00:00Z"))
	a.deliver(t, "pull_request", "p-1", opened, githubtest.Sign(testSecret, opened))
	waitFor(t, "the lock comment", func() bool { n, _ := countKey(a.fake, 2, bot.LocksKey); return n == 1 })
	body := payload(t, "workflow_run-completed.with-pull-requests.json", func(m map[string]any) {
		run := m["workflow_run"].(map[string]any)
		run["head_sha"] = head
		run["pull_requests"].([]any)[0].(map[string]any)["head"].(map[string]any)["sha"] = head
	})
	a.deliver(t, "workflow_run", "w-1", body, githubtest.Sign(testSecret, body))
	waitFor(t, "the App's comment", func() bool { n, _ := countKey(a.fake, 2, "prod"); return n == 1 })
	a.stop(t)
	_, app := countKey(a.fake, 2, "prod")

	am, _ := report.ParseMarker(fromAction.Body)
	pm, _ := report.ParseMarker(app.Body)
	if am.Key != pm.Key || am.Destroy != pm.Destroy || am.LockAlert != pm.LockAlert || slices.Compare(am.Roots, pm.Roots) != 0 {
		t.Errorf("markers differ: Action %+v, App %+v", am, pm)
	}
	for _, c := range []string{fromAction.Body, app.Body} {
		if !strings.Contains(c, "### Lock file changes") || !strings.Contains(c, "2 to add, 2 to change, 2 to destroy") {
			t.Fatalf("a comment without its plan or lock section:\n%s", c)
		}
	}
	if a, p := bodyOf(fromAction.Body), bodyOf(app.Body); a != p {
		t.Errorf("bodies differ:\n--- Action\n%s\n--- App\n%s", a, p)
	}
	// The footers differ in the run they link alone.
	runLink := regexp.MustCompile(`\[run\]\([^)]*\)( · \[check [^\]]*\]\([^)]*\))?`)
	if a, p := runLink.ReplaceAllString(footerPart(fromAction.Body), "RUN"), runLink.ReplaceAllString(footerPart(app.Body), "RUN"); a != p {
		t.Errorf("footers differ:\n%s\n%s", a, p)
	}
	al, pl := fake.Labels(2), a.fake.Labels(2)
	slices.Sort(al)
	slices.Sort(pl)
	if slices.Compare(al, pl) != 0 {
		t.Errorf("labels: Action %v, App %v", al, pl)
	}
	// The App's plans, named from its manifest, give the Action's machine
	// summary (its summary output).
	art := t.TempDir()
	writeFiles(t, art, map[string]string{"plan.json": string(read("plan.json")), "plan.jsonl": stream})
	var appSummary bytes.Buffer
	if err := summary.Write(&appSummary, artifactPlans(nil, art, "planpr-prod", "envs/prod", []string{filepath.Join(art, "plan.json"), filepath.Join(art, "plan.jsonl")}), review.PlanOptions{}); err != nil {
		t.Fatal(err)
	}
	written, _ := os.ReadFile(outputFile)
	var actionSummary string
	if m := regexp.MustCompile(`summary<<(\S+)\n`).FindSubmatchIndex(written); m != nil {
		actionSummary, _, _ = strings.Cut(string(written[m[1]:]), "\n"+string(written[m[2]:m[3]])+"\n")
	}
	// The Action's summary ends with its check's verdict, which the App
	// keeps on its check run instead.
	actionSummary = regexp.MustCompile(`(?s),\n  "check": \{.*\n  \}\n\}\s*$`).ReplaceAllString(actionSummary, "\n}")
	if actionSummary == "" || actionSummary != strings.TrimSpace(appSummary.String()) {
		t.Errorf("summaries differ:\n--- Action\n%s\n--- App\n%s", actionSummary, appSummary.String())
	}
	// Its root's lock file is in the plan's comment: no lock comment stays.
	if n, _ := countKey(a.fake, 2, bot.LocksKey); n != 0 {
		t.Errorf("%d lock comments beside the plan's", n)
	}
}

func bodyOf(comment string) string {
	_, body, _ := report.CommentParts(comment)
	return body
}

func footerPart(comment string) string {
	_, _, footer := report.CommentParts(comment)
	return footer
}
