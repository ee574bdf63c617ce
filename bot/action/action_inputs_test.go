package action

import (
	"github.com/planpr/planpr/bot"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/planpr/planpr/bot/githubtest"
	"github.com/planpr/planpr/bot/publish"
)

// TestActionInputsCheckedTogether: every bad input stops the step before
// anything runs, named with what it accepts, all of them at once.
func TestActionInputsCheckedTogether(t *testing.T) {
	for input, want := range map[string]string{
		"INPUT_COMMENT-MODE": "sometimes",
		"INPUT_JOB-SUMMARY":  "maybe",
		"INPUT_LABELS":       "perhaps",
		"INPUT_MODE":         "sideways",
		"INPUT_FLAVOR":       "pulumi",
		"INPUT_VERIFY":       "often",
		"INPUT_REGISTRY":     "nonsense",
		"INPUT_VERIFY-HOSTS": "a/b",
		"INPUT_PLATFORMS":    "linux-amd64",
	} {
		_, err := readActionInputs(actionEnv(map[string]string{"INPUT_GITHUB-TOKEN": "t", input: want}))
		name := strings.ToLower(strings.TrimPrefix(input, "INPUT_"))
		if err == nil || !strings.Contains(err.Error(), want) && !strings.Contains(err.Error(), name) {
			t.Errorf("%s=%s: %v", input, want, err)
		}
	}
	_, err := readActionInputs(actionEnv(map[string]string{"INPUT_JOB-SUMMARY": "maybe", "INPUT_MODE": "sideways"}))
	for _, want := range []string{"job-summary", "sideways", "github-token is empty"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("three bad inputs: %v lacks %q", err, want)
		}
	}
	in, err := readActionInputs(actionEnv(map[string]string{"INPUT_GITHUB-TOKEN": "t", "INPUT_PLATFORMS": "linux_amd64,\nlinux_arm64"}))
	if err != nil || strings.Join(in.Platforms, " ") != "linux_amd64 linux_arm64" || strings.Join(in.Verifier.Platforms, " ") != "linux_amd64 linux_arm64" {
		t.Errorf("platforms: %+v %v", in, err)
	}
	in, err = readActionInputs(actionEnv(map[string]string{"INPUT_GITHUB-TOKEN": "t"}))
	if err != nil || in.LockFiles != "auto" || !in.JobSummary || !in.Labels || in.Verifier == nil || in.CommentMode != publish.ModeUpdate {
		t.Errorf("defaults: %+v %v", in, err)
	}
}

// TestActionManifestRoot: plans downloaded from another run's artifact
// are named by the root their manifest names, so that the fork-safe pair
// keys and titles them as the plan's own job would.
func TestActionManifestRoot(t *testing.T) {
	ws := t.TempDir()
	plan, err := os.ReadFile("../../testdata/example/plan.json")
	if err != nil {
		t.Fatal(err)
	}
	writeFiles(t, ws, map[string]string{"artifact/plan.json": string(plan), "artifact/planpr.json": `{"pr": 2, "root": "envs/prod"}`})
	p, err := prepare(actionEnv(map[string]string{"GITHUB_REPOSITORY": "o/r", "GITHUB_EVENT_PATH": "../../testdata/payloads/pull_request-opened.json",
		"INPUT_GITHUB-TOKEN": "t", "INPUT_PLAN": filepath.Join(ws, "artifact/plan.json"), "INPUT_LOCK-FILES": "off"}))
	if err != nil {
		t.Fatal(err)
	}
	if p.plans[0].Name != "prod" || p.plans[0].Source != "envs/prod/plan.json" || p.marker.Key != "prod" || p.title != "planpr · prod" {
		t.Errorf("name %q, source %q, key %q, title %q", p.plans[0].Name, p.plans[0].Source, p.marker.Key, p.title)
	}
	if _, err := bot.ReadManifestFile(writeManifest(t, `{"root": "../etc"}`)); err == nil {
		t.Error("a root outside the repository was accepted")
	}
}

func writeManifest(t *testing.T, text string) string {
	path := filepath.Join(t.TempDir(), "planpr.json")
	os.WriteFile(path, []byte(text), 0o644)
	return path
}

// TestActionNothingToReport: an empty plan input on a pull request that
// changes no lock file is an error naming the input, and nothing is
// posted (it was a green comment with an empty title).
func TestActionNothingToReport(t *testing.T) {
	fake, _, _ := newFake(t, "t-write")
	fake.AddPR(githubtest.PR{Number: 2, BaseSHA: "f95f852bd8fca8fcc58a9a2d6c842781e32a215e", HeadSHA: "ec26c3e57ca3a959ca5aad62de7213c562f8c821",
		Files: []githubtest.File{{Name: "README.md", Status: "modified"}}})
	env := actionEnv(map[string]string{"GITHUB_API_URL": fake.URL, "GITHUB_GRAPHQL_URL": fake.URL + "/graphql", "GITHUB_REPOSITORY": "o/r",
		"GITHUB_EVENT_PATH": "../../testdata/payloads/pull_request-opened.json", "INPUT_GITHUB-TOKEN": "t-write", "INPUT_VERIFY": "false"})
	err := Run(t.Context(), env)
	if err == nil || !strings.Contains(err.Error(), "nothing to report") || !strings.Contains(err.Error(), "plan input") {
		t.Errorf("err = %v", err)
	}
	if n := len(fake.Comments(2)); n != 0 {
		t.Errorf("%d comments posted", n)
	}
}

// TestUIStreamInputAndItsOldName: ui-stream is the input; ui-log, its old
// name, is still read with a notice to rename it, and the two set to
// different globs are refused.
func TestUIStreamInputAndItsOldName(t *testing.T) {
	base := map[string]string{"GITHUB_REPOSITORY": "o/r", "INPUT_GITHUB-TOKEN": "t", "INPUT_LOCK-FILES": "off"}
	with := func(kv ...string) Env {
		vars := maps.Clone(base)
		for i := 0; i < len(kv); i += 2 {
			vars[kv[i]] = kv[i+1]
		}
		return actionEnv(vars)
	}
	in, err := readActionInputs(with("INPUT_UI-STREAM", "a/*.jsonl"))
	if err != nil || in.UILog != "a/*.jsonl" || len(in.Notices) != 0 {
		t.Errorf("ui-stream: %+v %v", in, err)
	}
	in, err = readActionInputs(with("INPUT_UI-LOG", "b/*.jsonl"))
	if err != nil || in.UILog != "b/*.jsonl" || len(in.Notices) != 1 || !strings.Contains(in.Notices[0], "now ui-stream") {
		t.Errorf("ui-log: %+v %v", in, err)
	}
	if _, err := readActionInputs(with("INPUT_UI-STREAM", "a/*.jsonl", "INPUT_UI-LOG", "b/*.jsonl")); err == nil || !strings.Contains(err.Error(), "both set") {
		t.Errorf("both: %v", err)
	}
}
