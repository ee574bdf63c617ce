package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/planpr/planpr/bot/githubtest"
	"github.com/planpr/planpr/render/report"
)

// TestParityDryRunAndAction: dry-run is the Action with a stdout sink.
// The same plan, its stream and a lock-file change give the same comment
// body, key, title and labels from `planpr dry-run` in the checkout and
// from `planpr action` against the fake GitHub — apart from the marker's
// run fields and the footer's commit and run link.
func TestParityDryRunAndAction(t *testing.T) {
	root, _ := filepath.Abs("../..")
	ws := t.TempDir()
	example := filepath.Join(root, "testdata", "example")
	copyTo(t, filepath.Join(example, "before.terraform.lock.hcl"), filepath.Join(ws, "envs/prod/.terraform.lock.hcl"))
	copyTo(t, filepath.Join(example, "versions.tf"), filepath.Join(ws, "envs/prod/versions.tf"))
	git := func(args ...string) string {
		t.Helper()
		out, err := exec.Command("git", append([]string{"-C", ws, "-c", "user.email=d@e", "-c", "user.name=d"}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	git("init", "-q", "-b", "main")
	git("add", "-A")
	git("commit", "-q", "-m", "base")
	base := git("rev-parse", "HEAD")
	git("checkout", "-q", "-b", "feature")
	copyTo(t, filepath.Join(example, "after.terraform.lock.hcl"), filepath.Join(ws, "envs/prod/.terraform.lock.hcl"))
	copyTo(t, filepath.Join(example, "plan.json"), filepath.Join(ws, "envs/prod/plan.json"))
	copyTo(t, filepath.Join(example, "plan.jsonl"), filepath.Join(ws, "envs/prod/plan.jsonl"))
	git("add", "-A")
	git("commit", "-q", "-m", "feature")
	head := git("rev-parse", "HEAD")
	t.Chdir(ws)

	// dry-run in the checkout.
	var dryOut, dryErr bytes.Buffer
	summaryFile := filepath.Join(t.TempDir(), "summary.json")
	if code := run([]string{"dry-run", "--base", "main", "--summary", summaryFile, "envs/prod/plan.json", "envs/prod/plan.jsonl"}, strings.NewReader(""), &dryOut, &dryErr); code != 0 {
		t.Fatalf("dry-run: exit %d: %s", code, dryErr.String())
	}

	// The Action on the pull request, the fake GitHub holding the same commits.
	fake := githubtest.New()
	defer fake.Close()
	fake.AddPR(githubtest.PR{Number: 2, BaseSHA: base, HeadSHA: head, HeadRef: "feature", HeadOwner: "octo",
		Files: []githubtest.File{{Name: "envs/prod/.terraform.lock.hcl", Status: "modified"}}})
	for sha, file := range map[string]string{base: "before.terraform.lock.hcl", head: "after.terraform.lock.hcl"} {
		b, _ := os.ReadFile(filepath.Join(example, file))
		fake.AddFile(sha, "envs/prod/.terraform.lock.hcl", b)
	}
	event, _ := os.ReadFile(filepath.Join(root, "testdata", "payloads", "pull_request-opened.json"))
	event = bytes.ReplaceAll(event, []byte("ec26c3e57ca3a959ca5aad62de7213c562f8c821"), []byte(head))
	eventPath := filepath.Join(t.TempDir(), "event.json")
	os.WriteFile(eventPath, event, 0o644)
	outputFile := filepath.Join(t.TempDir(), "out.txt")
	for k, v := range map[string]string{
		"GITHUB_API_URL": fake.URL, "GITHUB_GRAPHQL_URL": fake.URL + "/graphql", "GITHUB_REPOSITORY": "Codertocat/Hello-World",
		"GITHUB_EVENT_NAME": "pull_request", "GITHUB_EVENT_PATH": eventPath, "GITHUB_RUN_ID": "100", "GITHUB_SERVER_URL": "https://github.com",
		"GITHUB_WORKSPACE": ws, "GITHUB_STEP_SUMMARY": filepath.Join(t.TempDir(), "summary.md"), "GITHUB_OUTPUT": outputFile,
		"INPUT_GITHUB-TOKEN": "t-write", "INPUT_PLAN": "envs/*/plan.json", "INPUT_UI-LOG": "envs/*/plan.jsonl", "INPUT_VERIFY": "false",
	} {
		t.Setenv(k, v)
	}
	var actOut, actErr bytes.Buffer
	if code := run([]string{"action"}, strings.NewReader(""), &actOut, &actErr); code != 0 {
		t.Fatalf("action: exit %d\n%s\n%s", code, actOut.String(), actErr.String())
	}
	comments := fake.Comments(2)
	if len(comments) != 1 {
		t.Fatalf("%d comments", len(comments))
	}
	action := comments[0].Body

	dry := dryOut.String()
	dm, _ := report.ParseMarker(dry)
	am, _ := report.ParseMarker(action)
	if dm.Key != am.Key || dm.SHA != am.SHA || dm.Destroy != am.Destroy || dm.LockAlert != am.LockAlert || strings.Join(dm.Roots, ",") != strings.Join(am.Roots, ",") {
		t.Errorf("markers differ: dry-run %+v, Action %+v", dm, am)
	}
	for _, want := range []string{"## ⚠️ planpr · prod: 2 to add, 2 to change, 2 to destroy", "### Lock file changes", "envs/prod/.terraform.lock.hcl"} {
		if !strings.Contains(action, want) {
			t.Errorf("the Action's comment lacks %q:\n%s", want, action)
		}
	}
	if d, a := bodyOf(dry), bodyOf(action); d != a {
		t.Errorf("bodies differ:\n--- dry-run\n%s\n--- Action\n%s", d, a)
	}
	// The footers differ in the run the Action links alone.
	if d, a := footerPart(dry), regexp.MustCompile(` · \[run\]\([^)]*\)( · \[check [^\]]*\]\([^)]*\))?`).ReplaceAllString(footerPart(action), ""); d != a {
		t.Errorf("footers differ:\n%s\n%s", d, a)
	}
	// The outputs dry-run says are the ones the Action wrote.
	written, _ := os.ReadFile(outputFile)
	for _, kv := range strings.Fields(regexp.MustCompile(`outputs: (.*)`).FindStringSubmatch(dryErr.String())[1]) {
		if !strings.Contains(string(written), kv+"\n") {
			t.Errorf("dry-run says %s; the Action wrote:\n%s", kv, written)
		}
	}
	// The machine summary dry-run writes is the Action's summary output.
	drySummary, _ := os.ReadFile(summaryFile)
	var actionSummary string
	if m := regexp.MustCompile(`summary<<(\S+)\n`).FindSubmatchIndex(written); m != nil {
		delim := "\n" + string(written[m[2]:m[3]]) + "\n"
		actionSummary, _, _ = strings.Cut(string(written[m[1]:]), delim)
	}
	if actionSummary == "" || actionSummary != strings.TrimSpace(string(drySummary)) {
		t.Errorf("summaries differ:\n--- dry-run\n%s\n--- Action's outputs\n%s", drySummary, written)
	}
	labels := fake.Labels(2)
	slices.Sort(labels)
	if want := "labels: " + strings.Join(labels, ", "); !strings.Contains(dryErr.String(), want) {
		t.Errorf("dry-run says %q; the Action set %v", dryErr.String(), labels)
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
