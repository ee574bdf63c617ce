package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// workflowCommand finds a line GitHub Actions would run as a workflow
// command: "::name…" at its start, or "##[" anywhere.
var workflowCommand = regexp.MustCompile(`(?m)^[ \t]*::|##\[`)

// TestNoWorkflowCommandsInErrors: five error paths printed untrusted
// text raw, so a lock version holding "\n::error title=…::…" issued
// commands in the CI log. Every error now goes through bot.SafeLog.
func TestNoWorkflowCommandsInErrors(t *testing.T) {
	const inject = `\n::error title=Security scan passed::all good\n::add-mask::x\n##[warning]y`
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	empty := write("empty.hcl", "")
	plan := write("plan.json", `{"format_version":"1.2","resource_changes":[{"address":"a_b.c`+inject+`","mode":"managed","type":"a_b","name":"c","provider_name":"p`+inject+`","change":{"actions":["create"],"before":null,"after":{"x":1},"after_unknown":{},"before_sensitive":false,"after_sensitive":{}}}]}`)
	schemas := write("schemas.json", `{"format_version":"1.0","provider_schemas":{"q":{"resource_schemas":{"t":{"block":{}}}}}}`)
	cases := map[string][]string{
		"lock version":   {"lockdiff", empty, write("version.hcl", "provider \"registry.opentofu.org/hashicorp/aws\" {\n  version = \"3.2.4"+inject+"\"\n  hashes = [\"h1:a\"]\n}\n")},
		"provider label": {"lockdiff", empty, write("label.hcl", "provider \"registry.opentofu.org/hashicorp/aws"+inject+"\" {\n  version = \"3.2.4\"\n  hashes = [\"h1:a\"]\n}\n")},
		"provider name":  {"render", "--schemas", schemas, plan},
		"block name":     {"render", "--schemas", write("bad-schemas.json", `{"format_version":"1.0","provider_schemas":{"p":{"resource_schemas":{"t":{"block":{"block_types":{"b`+inject+`":{"nesting_mode":"tree","block":{}}}}}}}}}`), plan},
		"file name":      {"render", write("x\n::error::y##[z.json", "not json")},
		"usage":          {"render", "--format", "x\n::error::y"},
	}
	for name, args := range cases {
		t.Run(name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if code := run(args, strings.NewReader(""), &stdout, &stderr); code == 0 {
				t.Fatalf("exit 0; stderr %s", stderr.String())
			}
			if loc := workflowCommand.FindStringIndex(stderr.String()); loc != nil {
				t.Errorf("stderr issues a workflow command:\n%s", stderr.String())
			}
			if !strings.Contains(stderr.String(), "planpr: ") {
				t.Errorf("no error printed: %q", stderr.String())
			}
		})
	}
}

// TestActionOutputIsInsideStopCommands: the Action's whole output is in
// ::stop-commands:: windows, and its own annotations are issued between
// them with their messages escaped.
func TestActionOutputIsInsideStopCommands(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "p\n::error::x.json")
	if err := os.WriteFile(bad, []byte("not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	event := filepath.Join(dir, "event.json")
	if err := os.WriteFile(event, []byte(`{"pull_request":{"number":1,"head":{"sha":"a"}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GITHUB_EVENT_PATH", event)
	t.Setenv("INPUT_LOCK-FILES", "off")
	t.Setenv("GITHUB_API_URL", "http://127.0.0.1:1")
	t.Setenv("GITHUB_REPOSITORY", "o/r")
	t.Setenv("INPUT_GITHUB-TOKEN", "t")
	t.Setenv("INPUT_PLAN", filepath.Join(dir, "p*"))
	var stdout, stderr bytes.Buffer
	if code := run([]string{"action"}, strings.NewReader(""), &stdout, &stderr); code != 1 {
		t.Fatalf("exit %d", code)
	}
	open := ""
	for _, line := range strings.Split(strings.TrimRight(stdout.String(), "\n"), "\n") {
		switch {
		case open == "" && strings.HasPrefix(line, "::stop-commands::"):
			open = strings.TrimPrefix(line, "::stop-commands::")
		case open != "" && line == "::"+open+"::":
			open = ""
		case open == "" && strings.HasPrefix(line, "::error::planpr: "):
			if strings.Contains(line[2:], "\n") || !strings.Contains(line, "%0A::error::x.json") {
				t.Errorf("the annotation's message is not escaped: %q", line)
			}
		case open == "":
			t.Errorf("a line outside the windows: %q", line)
		}
	}
	if open != "" {
		t.Error("the last window is not closed")
	}
	if workflowCommand.MatchString(stderr.String()) {
		t.Errorf("stderr issues a workflow command:\n%s", stderr.String())
	}
}

// TestErrorsAreMasked: errors quote addresses and files, and with them
// credential-shaped for_each keys.
func TestErrorsAreMasked(t *testing.T) {
	dir := t.TempDir()
	token := "ghp_" + strings.Repeat("A1b2", 9)
	plan := filepath.Join(dir, "plan.json")
	schemas := filepath.Join(dir, "schemas.json")
	os.WriteFile(plan, []byte(`{"format_version":"1.2","resource_changes":[{"address":"a_b.c[\"`+token+`\"]","mode":"managed","type":"a_b","name":"c","provider_name":"p","change":{"actions":["create"],"before":null,"after":{"x":1},"after_unknown":{},"before_sensitive":false,"after_sensitive":{}}}]}`), 0o644)
	os.WriteFile(schemas, []byte(`{"format_version":"1.0","provider_schemas":{"q":{"resource_schemas":{"t":{"block":{}}}}}}`), 0o644)
	var stdout, stderr bytes.Buffer
	if code := run([]string{"render", "--schemas", schemas, plan}, strings.NewReader(""), &stdout, &stderr); code != 1 {
		t.Fatalf("exit %d", code)
	}
	if strings.Contains(stderr.String(), "ghp_") || !strings.Contains(stderr.String(), "needed by") {
		t.Errorf("stderr: %s", stderr.String())
	}
}
