package main

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// TestActionInputsOneSource: action.yml is the one list of the Action's
// inputs; the README's table, `planpr action --help` and the run step's
// INPUT_* variables are checked against it.
func TestActionInputsOneSource(t *testing.T) {
	raw, err := os.ReadFile("../../action.yml")
	if err != nil {
		t.Fatal(err)
	}
	var action struct {
		Inputs map[string]struct {
			Description string `yaml:"description"`
		} `yaml:"inputs"`
		Runs struct {
			Steps []struct {
				ID  string            `yaml:"id"`
				Env map[string]string `yaml:"env"`
			} `yaml:"steps"`
		} `yaml:"runs"`
	}
	if err := yaml.Unmarshal(raw, &action); err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile("../../docs/action.md")
	if err != nil {
		t.Fatal(err)
	}
	for name, in := range action.Inputs {
		if in.Description == "" {
			t.Errorf("input %s has no description in action.yml", name)
		}
		if !strings.Contains(string(readme), "| `"+name+"` |") {
			t.Errorf("input %s is not in docs/action.md's table of inputs", name)
		}
	}
	var passed []string
	for _, step := range action.Runs.Steps {
		if step.ID != "run" {
			continue
		}
		for v, expr := range step.Env {
			name, ok := strings.CutPrefix(v, "INPUT_")
			if !ok {
				continue
			}
			if want := "${{ inputs." + strings.ToLower(name) + " }}"; expr != want {
				t.Errorf("%s is %q, want %q", v, expr, want)
			}
			if _, ok := action.Inputs[strings.ToLower(name)]; !ok {
				t.Errorf("%s names no input of action.yml", v)
			}
			passed = append(passed, v)
		}
	}
	if len(passed) == 0 {
		t.Fatal("no INPUT_* variables in the run step")
	}
	inUsage := regexp.MustCompile(`INPUT_[A-Z-]+`).FindAllString(actionUsage, -1)
	for _, v := range passed {
		if !slices.Contains(inUsage, v) {
			t.Errorf("%s is passed to planpr action but `planpr action --help` does not name it", v)
		}
	}
	for _, v := range inUsage {
		if !slices.Contains(passed, v) {
			t.Errorf("`planpr action --help` names %s, which action.yml does not pass", v)
		}
	}
}
