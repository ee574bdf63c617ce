package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"io"
	"io/fs"
	"log/slog"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/planpr/planpr/bot/action"
	"github.com/planpr/planpr/bot/app"
	"github.com/planpr/planpr/bot/githubtest"
	"github.com/planpr/planpr/bot/publish/publishtest"
	"github.com/planpr/planpr/render/report"
)

// TestEveryRunnerBuildsTheSameReport: dry-run, the Action and the App are
// adapters over one hallway (inputs, review.Read, report.Build, a sink),
// so for the same plans, streams, schemas and lock change each hands its
// sink the same report — comment, key, title, labels, outputs and machine
// summary — apart from what only a run has (the run it links, its clock,
// the commit's links). Each runner runs whole, its sink a recorder:
// dry-run in the checkout, the Action on the pull request's event, the
// App on the workflow run whose artifacts the Action packed in a matrix.
func TestEveryRunnerBuildsTheSameReport(t *testing.T) {
	example := "../../testdata/example"
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(example, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	failed, err := os.ReadFile("../../testdata/workflows/tofu/failed-plan.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	root := func(plan bool) map[string]string {
		files := map[string]string{"plan.jsonl": read("plan.jsonl"), "schemas.json": read("schemas.json")}
		if plan {
			files["plan.json"] = read("plan.json")
		} else {
			files = map[string]string{"plan.jsonl": string(failed)}
		}
		return files
	}
	for _, tc := range []struct {
		name  string
		roots map[string]map[string]string // root → its files
	}{
		{"one-root-stream-schemas-lock", map[string]map[string]string{"envs/prod": root(true)}},
		{"two-roots", map[string]map[string]string{"envs/prod": root(true), "envs/staging": root(true)}},
		{"a-failed-root-beside-a-planned-one", map[string]map[string]string{"envs/prod": root(true), "envs/staging": root(false)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHallway(t, tc.roots)
			reports := map[string][]*comparable{
				"dry-run": h.dryRun(t),
				"action":  h.action(t),
				"app":     h.app(t),
			}
			want := reports["action"]
			if len(want) != 1 {
				t.Fatalf("the Action published %d reports, want one", len(want))
			}
			for _, runner := range []string{"dry-run", "app"} {
				got := reports[runner]
				if len(got) != len(want) {
					t.Errorf("%s published %d reports, the Action %d", runner, len(got), len(want))
					continue
				}
				for i := range got {
					got[i].diff(t, runner, want[i])
				}
			}
		})
	}
}

// comparable is a report as the runners must agree on it.
type comparable struct {
	marker, body, footer, title, labels, summary string
	outputs                                      map[string]string
}

var (
	runLinks  = regexp.MustCompile(` · \[run\]\([^)]*\)| · \[check [^\]]*\]\([^)]*\)`)
	linkURLs  = regexp.MustCompile(`\[([^\]]*)\]\(https://github\.com/[^)]*\)`)
	commitSHA = regexp.MustCompile("commit `[0-9a-f]{7}`")
)

// comparableOf keeps of a report what every runner must make alike: the
// marker's findings (not its run or clock), the body with links to the
// repository's files made plain (dry-run knows no repository URL), the
// footer without the run's and check's links and the commit (dry-run's
// is the checkout's), the outputs a report makes (not those posting adds).
func comparableOf(t *testing.T, rep *report.Report) *comparable {
	head, body, footer := report.CommentParts(rep.Comment)
	m, ok := report.ParseMarker(head)
	if !ok {
		t.Fatalf("a report without its marker:\n%s", rep.Comment)
	}
	outputs := rep.Outputs()
	summary := regexp.MustCompile(`(?s),\n  "check": \{.*\n  \}\n\}\s*$`).ReplaceAllString(outputs["summary"], "\n}")
	delete(outputs, "summary")
	return &comparable{
		marker: strings.Join([]string{"key=" + m.Key, "roots=" + strings.Join(m.Roots, ","), "destroy=" + strconv.Itoa(m.Destroy),
			"lock-alert=" + strconv.FormatBool(m.LockAlert), "fp=" + m.Fingerprint}, " "),
		body:   linkURLs.ReplaceAllString(body, "$1"),
		footer: commitSHA.ReplaceAllString(runLinks.ReplaceAllString(footer, ""), "commit `SHA`"),
		title:  rep.Title, labels: strings.Join(rep.Labels(), ","), summary: summary, outputs: outputs,
	}
}

func (c *comparable) diff(t *testing.T, runner string, action *comparable) {
	t.Helper()
	for _, f := range []struct{ what, got, want string }{
		{"marker", c.marker, action.marker}, {"title", c.title, action.title}, {"labels", c.labels, action.labels},
		{"body", c.body, action.body}, {"footer", c.footer, action.footer}, {"machine summary", c.summary, action.summary},
	} {
		if f.what == "machine summary" && runner == "app" {
			continue // the App writes no step outputs: it asks for no machine summary
		}
		if f.got != f.want {
			t.Errorf("%s's %s differs from the Action's:\n--- %s\n%s\n--- the Action\n%s", runner, f.what, runner, f.got, f.want)
		}
	}
	if !maps.Equal(c.outputs, action.outputs) {
		t.Errorf("%s's outputs %v, the Action's %v", runner, c.outputs, action.outputs)
	}
}

// hallway is one input set, laid out for every runner: a git checkout
// whose feature commit adds the roots' files and changes envs/prod's lock
// file, and a fake GitHub holding the same pull request.
type hallway struct {
	repo       string // planpr's checkout: testdata
	ws         string
	roots      map[string]map[string]string
	fake       *githubtest.Server
	base, head string
}

func newHallway(t *testing.T, roots map[string]map[string]string) *hallway {
	repo, err := filepath.Abs("../..") // before dry-run moves into the checkout
	if err != nil {
		t.Fatal(err)
	}
	h := &hallway{repo: repo, ws: t.TempDir(), roots: roots, fake: githubtest.New()}
	t.Cleanup(h.fake.Close)
	example := filepath.Join(repo, "testdata", "example")
	lock := "envs/prod/.terraform.lock.hcl"
	copyTo(t, filepath.Join(example, "before.terraform.lock.hcl"), filepath.Join(h.ws, lock))
	copyTo(t, filepath.Join(example, "versions.tf"), filepath.Join(h.ws, "envs/prod/versions.tf"))
	git := func(args ...string) string {
		t.Helper()
		out, err := exec.Command("git", append([]string{"-C", h.ws, "-c", "user.email=d@e", "-c", "user.name=d"}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	git("init", "-q", "-b", "main")
	git("add", "-A")
	git("commit", "-q", "-m", "base")
	h.base = git("rev-parse", "HEAD")
	git("checkout", "-q", "-b", "feature")
	copyTo(t, filepath.Join(example, "after.terraform.lock.hcl"), filepath.Join(h.ws, lock))
	for r, files := range roots {
		for name, content := range files {
			p := filepath.Join(h.ws, r, name)
			os.MkdirAll(filepath.Dir(p), 0o755)
			if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	git("add", "-A")
	git("commit", "-q", "-m", "feature")
	h.head = git("rev-parse", "HEAD")

	h.fake.AddPR(githubtest.PR{Number: 2, BaseSHA: h.base, HeadSHA: h.head, HeadRef: "feature", HeadOwner: "octo-org",
		Files: []githubtest.File{{Name: lock, Status: "modified"}}})
	for sha, file := range map[string]string{h.base: "before.terraform.lock.hcl", h.head: "after.terraform.lock.hcl"} {
		b, _ := os.ReadFile(filepath.Join(example, file))
		h.fake.AddFile(sha, lock, b)
	}
	versions, _ := os.ReadFile(filepath.Join(example, "versions.tf"))
	h.fake.AddFile(h.head, "envs/prod/versions.tf", versions)
	return h
}

// inputs are the roots' plans and streams, as dry-run takes them.
func (h *hallway) inputs() []string {
	var out []string
	for _, r := range slices.Sorted(maps.Keys(h.roots)) {
		for _, name := range []string{"plan.json", "plan.jsonl"} {
			if _, ok := h.roots[r][name]; ok {
				out = append(out, filepath.Join(r, name))
			}
		}
	}
	return out
}

func (h *hallway) dryRun(t *testing.T) []*comparable {
	t.Chdir(h.ws)
	var rec publishtest.Recorder
	if err := dryRun(dryRunOptions{base: "main", mode: "normal", flavorName: "auto", failOnText: report.DefaultFailOn,
		files: h.inputs(), stdout: io.Discard, stderr: io.Discard, sink: &rec}); err != nil {
		t.Fatalf("dry-run: %v", err)
	}
	return recorded(t, &rec)
}

// actionVars are a pull request's event for the Action in the checkout.
func (h *hallway) actionVars(t *testing.T, more map[string]string) map[string]string {
	event, err := os.ReadFile(filepath.Join(h.repo, "testdata", "payloads", "pull_request-opened.json"))
	if err != nil {
		t.Fatal(err)
	}
	event = bytes.ReplaceAll(event, []byte("ec26c3e57ca3a959ca5aad62de7213c562f8c821"), []byte(h.head))
	eventPath := filepath.Join(t.TempDir(), "event.json")
	os.WriteFile(eventPath, event, 0o644)
	vars := map[string]string{
		"GITHUB_API_URL": h.fake.URL, "GITHUB_GRAPHQL_URL": h.fake.URL + "/graphql", "GITHUB_REPOSITORY": "octo-org/octo-repo",
		"GITHUB_EVENT_NAME": "pull_request", "GITHUB_EVENT_PATH": eventPath, "GITHUB_RUN_ID": "100", "GITHUB_SERVER_URL": "https://github.com",
		"GITHUB_WORKSPACE": h.ws, "GITHUB_STEP_SUMMARY": filepath.Join(t.TempDir(), "summary.md"), "GITHUB_OUTPUT": filepath.Join(t.TempDir(), "out"),
		"INPUT_GITHUB-TOKEN": "t-write", "INPUT_VERIFY": "off", "PLANPR_WORKFLOW_TOKEN": "true",
		"INPUT_PLAN": filepath.Join(h.ws, "envs/*/plan.json"), "INPUT_UI-STREAM": filepath.Join(h.ws, "envs/*/plan.jsonl"),
	}
	maps.Copy(vars, more)
	return vars
}

func (h *hallway) action(t *testing.T) []*comparable {
	var rec publishtest.Recorder
	vars := h.actionVars(t, nil)
	env := action.Env{Getenv: func(k string) string { return vars[k] }, Stdout: &strings.Builder{}, Version: Version, Sink: &rec}
	if err := action.Run(context.Background(), env); err != nil {
		t.Fatalf("action: %v\n%s", err, env.Stdout)
	}
	return recorded(t, &rec)
}

// app packs each root as a matrix job of the monorepo recipe does, uploads
// the packs as one workflow run's artifacts, and lets the App answer that
// run's completion.
func (h *hallway) app(t *testing.T) []*comparable {
	const runID, installation = 300, 42
	for i, r := range slices.Sorted(maps.Keys(h.roots)) {
		pack := filepath.Join(t.TempDir(), "planpr-out")
		more := map[string]string{"INPUT_PACK": pack, "INPUT_PLAN": filepath.Join(h.ws, r, "plan.json"), "INPUT_UI-STREAM": filepath.Join(h.ws, r, "plan.jsonl"),
			"INPUT_SCHEMAS": ""}
		if _, ok := h.roots[r]["schemas.json"]; ok {
			more["INPUT_SCHEMAS"] = filepath.Join(h.ws, r, "schemas.json")
		}
		vars := h.actionVars(t, more)
		env := action.Env{Getenv: func(k string) string { return vars[k] }, Stdout: &strings.Builder{}, Version: Version}
		if err := action.Run(context.Background(), env); err != nil {
			t.Fatalf("pack %s: %v\n%s", r, err, env.Stdout)
		}
		files := map[string]string{}
		err := filepath.WalkDir(pack, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			b, err := os.ReadFile(p)
			rel, _ := filepath.Rel(pack, p)
			files[filepath.ToSlash(rel)] = string(b)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		h.fake.AddArtifact(runID, githubtest.Artifact{ID: int64(i + 1), Name: "planpr-" + strconv.Itoa(i), Zip: githubtest.Zip(files)})
	}
	h.fake.AddInstallation(1, installation)
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	var rec publishtest.Recorder
	srv, err := app.NewServer(app.ServerConfig{AppID: 1, PrivateKey: pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(key)}),
		WebhookSecret: []byte("s"), APIURL: h.fake.URL, GraphQLURL: h.fake.URL + "/graphql", DataDir: t.TempDir(), Redeliver: -1,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Version: Version, Sink: &rec})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Shutdown(context.Background()) })
	raw, err := os.ReadFile(filepath.Join(h.repo, "testdata", "payloads", "workflow_run-completed.with-pull-requests.json"))
	if err != nil {
		t.Fatal(err)
	}
	var ev map[string]any
	json.Unmarshal(raw, &ev)
	run := ev["workflow_run"].(map[string]any)
	run["id"], run["head_sha"] = runID, h.head
	run["pull_requests"].([]any)[0].(map[string]any)["number"] = 2
	run["pull_requests"].([]any)[0].(map[string]any)["head"].(map[string]any)["sha"] = h.head
	ev["installation"] = map[string]any{"id": installation}
	body, _ := json.Marshal(ev)
	if err := srv.Handle(context.Background(), "workflow_run", body, slog.New(slog.NewTextHandler(io.Discard, nil))); err != nil {
		t.Fatalf("the App: %v", err)
	}
	return recorded(t, &rec)
}

func recorded(t *testing.T, rec *publishtest.Recorder) []*comparable {
	var out []*comparable
	for _, pub := range rec.Publications() {
		for _, rep := range pub.Reports {
			out = append(out, comparableOf(t, rep))
		}
	}
	return out
}
