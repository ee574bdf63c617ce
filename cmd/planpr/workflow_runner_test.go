package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/planpr/planpr/bot/githubtest"
)

// This file runs the recipe workflows in testdata/workflows as GitHub's
// runner would run them, as far as they go: jobs in the order their needs
// say, a matrix job once per value, steps with their if conditions and
// ${{ }} expressions, bash run steps (tofu being a stand-in that answers
// from testdata, since CI cannot install it), artifacts uploaded and
// downloaded between jobs and workflows, and planpr's own step run as
// action.yml runs it — its inputs' defaults, its environment — with the
// real planpr binary against the fake GitHub. Anything else a recipe uses
// fails the test: a recipe must not say what this runner cannot check.

// workflowFile is a workflow, as much of it as the recipes use.
type workflowFile struct {
	Name        string                  `yaml:"name"`
	On          yaml.Node               `yaml:"on"` // an event's name, or a mapping of events
	Permissions map[string]string       `yaml:"permissions"`
	Jobs        map[string]*workflowJob `yaml:"jobs"`
}

type workflowJob struct {
	Needs    string `yaml:"needs"`
	If       string `yaml:"if"`
	Strategy struct {
		Matrix map[string][]string `yaml:"matrix"`
	} `yaml:"strategy"`
	Steps []workflowStep `yaml:"steps"`
}

type workflowStep struct {
	ID               string            `yaml:"id"`
	If               string            `yaml:"if"`
	Uses             string            `yaml:"uses"`
	Run              string            `yaml:"run"`
	WorkingDirectory string            `yaml:"working-directory"`
	With             map[string]string `yaml:"with"`
	Env              map[string]string `yaml:"env"`
}

// waitsFor is the workflows a workflow_run workflow waits for.
func (wf *workflowFile) waitsFor(t *testing.T) []string {
	var on struct {
		WorkflowRun struct {
			Workflows []string `yaml:"workflows"`
		} `yaml:"workflow_run"`
	}
	if wf.On.Kind == yaml.MappingNode {
		if err := wf.On.Decode(&on); err != nil {
			t.Fatal(err)
		}
	}
	return on.WorkflowRun.Workflows
}

// readWorkflow reads testdata/workflows/NAME.
func readWorkflow(t *testing.T, name string) *workflowFile {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "..", "testdata", "workflows", name))
	if err != nil {
		t.Fatal(err)
	}
	var wf workflowFile
	if err := yaml.Unmarshal(raw, &wf); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return &wf
}

// recipeWorld is what the workflows of one story share: the repository,
// the fake GitHub, the artifacts of every run, the secrets, the stand-in
// tofu and what it was asked.
type recipeWorld struct {
	t         *testing.T
	fake      *githubtest.Server
	repo      string                      // the repository's files, as a checkout writes them
	artifacts map[int64]map[string]string // run id → artifact name → its directory
	secrets   map[string]string
	bin       string // the stand-in tofu's directory
	tofuLog   string // each tofu command line, one a line
	action    *actionFile
	planpr    string // the planpr binary the test runs as
}

// actionFile is action.yml, as much of it as planpr's step needs.
type actionFile struct {
	Inputs map[string]struct {
		Default string `yaml:"default"`
	} `yaml:"inputs"`
	Runs struct {
		Steps []struct {
			ID  string            `yaml:"id"`
			Env map[string]string `yaml:"env"`
			Run string            `yaml:"run"`
		} `yaml:"steps"`
	} `yaml:"runs"`
}

func newRecipeWorld(t *testing.T, fake *githubtest.Server, repoFiles map[string]string) *recipeWorld {
	t.Helper()
	w := &recipeWorld{t: t, fake: fake, repo: t.TempDir(), artifacts: map[int64]map[string]string{}, secrets: map[string]string{}, bin: t.TempDir()}
	for name, content := range repoFiles {
		p := filepath.Join(w.repo, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	raw, err := os.ReadFile("../../action.yml")
	if err != nil {
		t.Fatal(err)
	}
	w.action = new(actionFile)
	if err := yaml.Unmarshal(raw, w.action); err != nil {
		t.Fatal(err)
	}
	// testscript.Main put the planpr command on PATH: the test binary,
	// running main.
	if w.planpr, err = exec.LookPath("planpr"); err != nil {
		t.Fatalf("no planpr command: %v", err)
	}
	data, _ := filepath.Abs("../../testdata/workflows/tofu")
	example, _ := filepath.Abs("../../testdata/example")
	w.tofuLog = filepath.Join(t.TempDir(), "tofu.log")
	tofu := `#!/usr/bin/env bash
# A stand-in for tofu: it answers from testdata as the real one would
# for the example plan (TOFU_SHOW: another plan JSON, TOFU_SCHEMAS its
# schemas). TOFU_FAIL names
# directories whose plan fails (all: every one).
echo "$PWD: tofu $*" >> ` + w.tofuLog + `
case " $TOFU_FAIL " in *" all "*|*" ${PWD##*/} "*) fail=1 ;; *) fail= ;; esac
case $1 in
init) echo "OpenTofu has been successfully initialized!" ;;
plan)
  for a in "$@"; do case $a in -out=*) echo "a plan file" > "${a#-out=}" ;; esac; done
  json=; for a in "$@"; do [ "$a" = -json ] && json=1; done
  if [ -n "$fail" ]; then
    [ -n "$json" ] && cat ` + data + `/failed-plan.jsonl || echo "Error: Unsupported argument" >&2
    exit 1
  fi
  if [ -n "$json" ]; then cat ` + example + `/plan.jsonl; else echo "Plan: 2 to add, 2 to change, 2 to destroy."; fi ;;
show) [ "$2" = -json ] || exit 2; cat "${TOFU_SHOW:-` + example + `/plan.json}" ;;
providers) [ "$2 $3" = "schema -json" ] || exit 2; cat "${TOFU_SCHEMAS:-` + example + `/schemas.json}" ;;
apply) cat ` + data + `/apply.jsonl ;;
*) echo "tofu: no such command in the stand-in: $*" >&2; exit 2 ;;
esac
`
	if err := os.WriteFile(filepath.Join(w.bin, "tofu"), []byte(tofu), 0o755); err != nil {
		t.Fatal(err)
	}
	return w
}

// tofuCalls are the tofu commands run so far, "DIR: tofu ARGS" each.
func (w *recipeWorld) tofuCalls() []string {
	raw, _ := os.ReadFile(w.tofuLog)
	return strings.Split(strings.TrimSpace(string(raw)), "\n")
}

var expression = regexp.MustCompile(`\$\{\{\s*(.*?)\s*\}\}`)

// workflowRun is one run of a workflow: its event and what it made.
type workflowRun struct {
	w         *recipeWorld
	wf        *workflowFile
	name      string
	event     string
	payload   map[string]any
	eventPath string
	id        int64
	token     string // what github.token is for this run
	env       map[string]string
	log       bytes.Buffer
	failed    map[string]bool // jobs that failed
}

// runWorkflow runs the workflow file name on event with payload and its
// run id; extra is more of the runner's environment (TOFU_FAIL). Its
// token has the permissions the workflow asks for, as GitHub's does —
// read only, whatever it asks, for a fork's pull request (fork).
func (w *recipeWorld) runWorkflow(name, event string, payload map[string]any, id int64, fork bool, extra map[string]string) *workflowRun {
	w.t.Helper()
	r := &workflowRun{w: w, wf: readWorkflow(w.t, name), name: name, event: event, payload: payload, id: id, failed: map[string]bool{}}
	// The fake GitHub's tokens: t-write may write everything, t-nochecks
	// all but check runs, t-read nothing.
	switch {
	case fork || r.wf.Permissions["pull-requests"] != "write" && r.wf.Permissions["issues"] != "write":
		r.token = "t-read"
	case r.wf.Permissions["checks"] != "write":
		r.token = "t-nochecks"
	default:
		r.token = "t-write"
	}
	raw, _ := json.Marshal(payload)
	r.eventPath = filepath.Join(w.t.TempDir(), "event.json")
	os.WriteFile(r.eventPath, raw, 0o644)
	r.env = map[string]string{
		"PATH": w.bin + string(os.PathListSeparator) + filepath.Dir(w.planpr) + string(os.PathListSeparator) + os.Getenv("PATH"),
		"HOME": w.t.TempDir(), "GITHUB_EVENT_NAME": event, "GITHUB_EVENT_PATH": r.eventPath, "GITHUB_RUN_ID": strconv.FormatInt(id, 10),
		"GITHUB_REPOSITORY": "Codertocat/Hello-World", "GITHUB_SERVER_URL": "https://github.com", "GITHUB_API_URL": w.fake.URL,
		"GITHUB_GRAPHQL_URL": w.fake.URL + "/graphql", "RUNNER_TEMP": w.t.TempDir(),
	}
	if repo, ok := payload["repository"].(map[string]any); ok {
		r.env["GITHUB_REPOSITORY"] = repo["full_name"].(string)
	}
	if sha, ok := payload["after"].(string); ok { // a push
		r.env["GITHUB_SHA"] = sha
	}
	maps.Copy(r.env, extra)
	for _, job := range r.jobOrder() {
		r.runJob(job)
	}
	return r
}

// jobOrder is the jobs in an order their needs allow.
func (r *workflowRun) jobOrder() []string {
	var order []string
	done := map[string]bool{}
	for len(order) < len(r.wf.Jobs) {
		progress := false
		for _, name := range slices.Sorted(maps.Keys(r.wf.Jobs)) {
			if job := r.wf.Jobs[name]; !done[name] && (job.Needs == "" || done[job.Needs]) {
				order, done[name], progress = append(order, name), true, true
			}
		}
		if !progress {
			r.w.t.Fatalf("%s: jobs that need jobs that do not exist", r.name)
		}
	}
	return order
}

// runJob runs a job, once per value of its matrix (one key at most: the
// recipes' matrices have one).
func (r *workflowRun) runJob(name string) {
	job := r.wf.Jobs[name]
	cond := job.If
	if cond == "" {
		cond = "success()"
	}
	if job.Needs != "" && !r.truthy(r.eval(cond, nil, r.failed[job.Needs])) {
		fmt.Fprintf(&r.log, "job %s skipped\n", name)
		return
	}
	if len(job.Strategy.Matrix) > 1 {
		r.w.t.Fatalf("%s: job %s has a matrix of more than one key", r.name, name)
	}
	values := []string{""}
	var key string
	for k, v := range job.Strategy.Matrix {
		key, values = k, v
	}
	for i, v := range values {
		ctx := map[string]string{"strategy.job-index": strconv.Itoa(i)}
		if key != "" {
			ctx["matrix."+key] = v
		}
		if !r.runSteps(name, job, ctx) {
			r.failed[name] = true
		}
	}
}

// runSteps runs one job's steps in a fresh workspace; it reports whether
// every step that ran passed.
func (r *workflowRun) runSteps(job string, j *workflowJob, ctx map[string]string) bool {
	t := r.w.t
	ws := t.TempDir()
	ok := true
	for i, s := range j.Steps {
		cond := s.If
		if cond == "" {
			cond = "success()"
		}
		if !r.truthy(r.eval(cond, ctx, !ok)) {
			fmt.Fprintf(&r.log, "%s step %d skipped\n", job, i)
			continue
		}
		if err := r.runStep(ws, s, ctx); err != nil {
			fmt.Fprintf(&r.log, "%s step %d failed: %v\n", job, i, err)
			ok = false
		}
	}
	return ok
}

func (r *workflowRun) runStep(ws string, s workflowStep, ctx map[string]string) error {
	t := r.w.t
	with := map[string]string{}
	for k, v := range s.With {
		with[k] = r.expand(v, ctx)
	}
	action, _, _ := strings.Cut(s.Uses, "@")
	switch {
	case s.Run != "":
		return r.bash(filepath.Join(ws, r.expand(s.WorkingDirectory, ctx)), r.expand(s.Run, ctx), nil)
	case action == "actions/checkout":
		return os.CopyFS(ws, os.DirFS(r.w.repo))
	case action == "opentofu/setup-opentofu":
		if with["tofu_wrapper"] != "false" {
			t.Errorf("%s: setup-opentofu without tofu_wrapper: false: the wrapper pollutes -json output", r.name)
		}
		return nil // the stand-in tofu is on PATH
	case action == "actions/upload-artifact":
		src := filepath.Join(ws, with["path"])
		if _, err := os.Stat(src); err != nil {
			fmt.Fprintf(&r.log, "upload-artifact: no files at %s: nothing uploaded\n", with["path"])
			return nil
		}
		if r.w.artifacts[r.id] == nil {
			r.w.artifacts[r.id] = map[string]string{}
		}
		dst := t.TempDir()
		r.w.artifacts[r.id][with["name"]] = dst
		return os.CopyFS(dst, os.DirFS(src))
	case action == "actions/download-artifact":
		run := r.id
		if id := with["run-id"]; id != "" {
			run, _ = strconv.ParseInt(id, 10, 64)
			if with["github-token"] == "" {
				t.Errorf("%s: download-artifact from another run needs github-token", r.name)
			}
			if p := r.wf.Permissions["actions"]; p != "read" && p != "write" {
				t.Errorf("%s: download-artifact from another run needs actions: read", r.name)
			}
		}
		for name, dir := range r.w.artifacts[run] {
			if m, _ := path.Match(with["pattern"], name); with["pattern"] != "" && m {
				if err := os.CopyFS(filepath.Join(ws, with["path"], name), os.DirFS(dir)); err != nil {
					return err
				}
			}
		}
		return nil
	case strings.HasPrefix(s.Uses, "planpr/planpr@"):
		return r.planpr(ws, with)
	}
	t.Fatalf("%s: a step this runner cannot stand in for: %+v", r.name, s)
	return nil
}

// planpr runs planpr's step as action.yml's run step does: the inputs
// with their defaults, then the step's environment, expanded.
func (r *workflowRun) planpr(ws string, with map[string]string) error {
	t := r.w.t
	inputs := map[string]string{}
	for name, in := range r.w.action.Inputs {
		inputs[name] = r.expand(in.Default, nil)
	}
	for k, v := range with {
		if _, ok := r.w.action.Inputs[k]; !ok {
			t.Fatalf("%s: planpr has no input %q", r.name, k)
		}
		inputs[k] = v
	}
	env := map[string]string{"GITHUB_WORKSPACE": ws}
	for _, step := range r.w.action.Runs.Steps {
		if step.ID != "run" {
			continue
		}
		for k, v := range step.Env {
			env[k] = expression.ReplaceAllStringFunc(v, func(m string) string {
				return r.evalWith(expression.FindStringSubmatch(m)[1], nil, false, inputs)
			})
		}
	}
	return r.bash(ws, "planpr action", env)
}

// bash runs a script as a run step does (bash -eo pipefail), with the
// runner's environment, GITHUB_OUTPUT and GITHUB_STEP_SUMMARY files, and
// more.
func (r *workflowRun) bash(dir, script string, more map[string]string) error {
	os.MkdirAll(dir, 0o755)
	cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script)
	cmd.Dir = dir
	env := maps.Clone(r.env)
	env["GITHUB_OUTPUT"] = filepath.Join(r.w.t.TempDir(), "output")
	env["GITHUB_STEP_SUMMARY"] = filepath.Join(r.w.t.TempDir(), "summary.md")
	maps.Copy(env, more)
	for _, k := range slices.Sorted(maps.Keys(env)) {
		cmd.Env = append(cmd.Env, k+"="+env[k])
	}
	cmd.Stdout, cmd.Stderr = &r.log, &r.log
	return cmd.Run()
}

// expand replaces each ${{ expression }} in s.
func (r *workflowRun) expand(s string, ctx map[string]string) string {
	return expression.ReplaceAllStringFunc(s, func(m string) string {
		return r.eval(expression.FindStringSubmatch(m)[1], ctx, false)
	})
}

// eval evaluates an expression (or an if condition, with or without its
// ${{ }}): ||, &&, ==, !=, !, 'strings', the status functions (failed:
// a step before failed), and the contexts github (the event's payload,
// token, event_name, run_id), matrix, strategy and secrets.
func (r *workflowRun) eval(expr string, ctx map[string]string, failed bool) string {
	return r.evalWith(expr, ctx, failed, nil)
}

func (r *workflowRun) evalWith(expr string, ctx map[string]string, failed bool, inputs map[string]string) string {
	e := strings.TrimSpace(expr)
	if m := expression.FindStringSubmatch(e); m != nil && m[0] == e {
		e = strings.TrimSpace(m[1])
	}
	for _, op := range []string{"||", "&&"} {
		if parts := strings.Split(e, op); len(parts) > 1 {
			for _, p := range parts {
				v := r.truthy(r.evalWith(p, ctx, failed, inputs))
				if op == "||" && v {
					return "true"
				}
				if op == "&&" && !v {
					return "false"
				}
			}
			return strconv.FormatBool(op == "&&")
		}
	}
	for _, op := range []string{"!=", "=="} {
		if left, right, ok := strings.Cut(e, op); ok {
			equal := r.evalWith(left, ctx, failed, inputs) == r.evalWith(right, ctx, failed, inputs)
			return strconv.FormatBool(equal == (op == "=="))
		}
	}
	if rest, ok := strings.CutPrefix(e, "!"); ok {
		return strconv.FormatBool(!r.truthy(r.evalWith(rest, ctx, failed, inputs)))
	}
	switch e {
	case "cancelled()":
		return "false"
	case "always()":
		return "true"
	case "success()":
		return strconv.FormatBool(!failed)
	case "failure()":
		return strconv.FormatBool(failed)
	}
	if len(e) >= 2 && e[0] == '\'' && e[len(e)-1] == '\'' {
		return e[1 : len(e)-1]
	}
	if v, ok := ctx[e]; ok {
		return v
	}
	if name, ok := strings.CutPrefix(e, "inputs."); ok && inputs != nil {
		return inputs[name]
	}
	if name, ok := strings.CutPrefix(e, "secrets."); ok {
		return r.w.secrets[name]
	}
	switch e {
	case "github.token":
		return r.token
	case "github.event_name":
		return r.event
	case "github.run_id":
		return strconv.FormatInt(r.id, 10)
	}
	if p, ok := strings.CutPrefix(e, "github.event."); ok {
		var v any = r.payload
		for _, k := range strings.Split(p, ".") {
			m, _ := v.(map[string]any)
			v = m[k]
		}
		switch v := v.(type) {
		case nil:
			return ""
		case string:
			return v
		case float64:
			return strconv.FormatFloat(v, 'f', -1, 64)
		default:
			raw, _ := json.Marshal(v)
			return string(raw)
		}
	}
	r.w.t.Fatalf("%s: an expression this runner does not know: %q", r.name, expr)
	return ""
}

func (r *workflowRun) truthy(v string) bool { return v != "" && v != "false" && v != "0" }
