package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/planpr/planpr/render/tofujson"
)

// TestEachInputOpenedOnce: a render opens each of its inputs — the plan,
// its stream, the schemas — once, whatever the format and however many
// passes read them (plan.json was opened six times for text).
func TestEachInputOpenedOnce(t *testing.T) {
	root, _ := filepath.Abs("../..")
	dir := t.TempDir()
	plan, schemas, stream := filepath.Join(dir, "plan.json"), filepath.Join(dir, "schemas.json"), filepath.Join(dir, "plan.jsonl")
	copyTo(t, filepath.Join(root, "testdata", "example", "plan.json"), plan)
	copyTo(t, filepath.Join(root, "testdata", "example", "schemas.json"), schemas)
	copyTo(t, filepath.Join(root, "testdata", "example", "plan.jsonl"), stream)
	var mu sync.Mutex
	opens := map[string]int{}
	tofujson.OnOpen = func(p string) { mu.Lock(); opens[filepath.Base(p)]++; mu.Unlock() }
	defer func() { tofujson.OnOpen = nil }()
	for _, format := range []string{"text", "markdown", "json"} {
		clear(opens)
		args := []string{"render", "--format", format, "--schemas", schemas, plan}
		if format != "text" {
			args = append(args, stream)
		}
		var stderr strings.Builder
		if code := run(args, strings.NewReader(""), io.Discard, &stderr); code != 0 {
			t.Fatalf("%s: exit %d: %s", format, code, stderr.String())
		}
		for _, name := range []string{"plan.json", "schemas.json"} {
			if opens[name] != 1 {
				t.Errorf("%s: %s opened %d times, want once", format, name, opens[name])
			}
		}
		if format != "text" && opens["plan.jsonl"] != 1 {
			t.Errorf("%s: plan.jsonl opened %d times, want once", format, opens["plan.jsonl"])
		}
	}
}

func writeTo(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestBadInputOpenedOnce: a bad Terraform plan is refused in Terraform's
// words, its flavour decided from the same open as its read.
func TestBadInputOpenedOnce(t *testing.T) {
	plan := filepath.Join(t.TempDir(), "plan.json")
	writeTo(t, plan, `{"terraform_version":"1.11.4","resource_changes":[{"address":"terraform_data.a","mode":"managed","type":"terraform_data","name":"a","provider_name":"registry.terraform.io/hashicorp/terraform","change":{"actions":["create"],"before":null,"after":{},"after_unknown":{},"before_sensitive":false,"after_sensitive":{}}}],"applyable":true,"complete":true}`)
	opens := 0
	tofujson.OnOpen = func(string) { opens++ }
	defer func() { tofujson.OnOpen = nil }()
	var stderr strings.Builder
	if code := run([]string{"render", "--format", "text", plan}, strings.NewReader(""), io.Discard, &stderr); code != 1 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if opens != 1 {
		t.Errorf("the bad plan was opened %d times", opens)
	}
	if !strings.Contains(stderr.String(), "no format_version") || !strings.Contains(stderr.String(), "`terraform show -json PLANFILE`") {
		t.Errorf("not in Terraform's words: %s", stderr.String())
	}
}
