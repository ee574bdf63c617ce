package lockdiff

import (
	"strings"
	"testing"
)

func TestLoadConfig(t *testing.T) {
	cfg, diags := LoadConfig("testdata/config/root")
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	var got []string
	for _, r := range cfg.Requirements {
		var cs []string
		for _, c := range r.Constraints {
			cs = append(cs, c.Expr+"@"+rangeString(c.Range))
		}
		got = append(got, r.Address.String()+" implied="+map[bool]string{true: "yes", false: "no"}[r.Implied]+" "+strings.Join(cs, ","))
	}
	want := []string{
		"registry.opentofu.org/hashicorp/aws implied=no ~> 5.0@testdata/config/root/versions.tofu:3",
		"registry.opentofu.org/hashicorp/null implied=yes ",
		"registry.opentofu.org/hashicorp/random implied=no ~> 3.0@testdata/config/root/versions.tofu:7",
		"registry.opentofu.org/integrations/github implied=no >= 6.0@testdata/config/root/providers.tf.json:6",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("requirements:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestCrossCheck(t *testing.T) {
	cfg, diags := LoadConfig("testdata/config/root")
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	before := lockFile(t)
	after := lockFile(t,
		"registry.terraform.io/hashicorp/aws 5.31.0 c=~>_4.0 h1:a=",
		"registry.opentofu.org/hashicorp/random 2.0.0 c=~>_3.0 h1:b=",
		"registry.opentofu.org/hashicorp/null 3.2.0 h1:c=",
		"registry.opentofu.org/hashicorp/tls 4.0.0 h1:d=",
	)
	fd := Compare("root/.terraform.lock.hcl", before, after)
	CrossCheck(fd, after, cfg)
	byKind := map[string][]string{}
	for _, f := range fd.AllFindings() {
		byKind[f.Kind] = append(byKind[f.Kind], string(f.Severity)+": "+f.Message)
	}
	check := func(kind, contains string) {
		t.Helper()
		for _, m := range byKind[kind] {
			if strings.Contains(m, contains) {
				return
			}
		}
		t.Errorf("no %s finding containing %q; got %v", kind, contains, byKind)
	}
	check("required-not-locked", "warning: integrations/github is required at testdata/config/root/providers.tf.json:6")
	check("version-rejected", `error: The locked version 2.0.0 of registry.opentofu.org/hashicorp/random does not satisfy the constraint "~> 3.0" at testdata/config/root/versions.tofu:7`)
	check("locked-not-required", "info: registry.opentofu.org/hashicorp/tls is locked but the root module")
	check("constraint-source", `The constraint "~> 5.0" on hashicorp/aws comes from testdata/config/root/versions.tofu:3`)
	check("stale-constraints", `records constraints "~> 4.0" for hashicorp/aws but the configuration now says "~> 5.0"`)
	if len(byKind["required-not-locked"]) != 1 {
		t.Errorf("only github should be missing (null is implied and locked, aws is locked from registry.terraform.io): %v", byKind["required-not-locked"])
	}
}

func TestConfigErrors(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir+"/bad.tf", "terraform {\n  required_providers {\n    aws = 42\n  }\n}\n")
	_, diags := LoadConfig(dir)
	if !diags.HasErrors() || diags[0].Subject.Start.Line != 3 || !strings.Contains(diags[0].Detail, "must be an object") {
		t.Errorf("diags = %v", diags)
	}
	writeFile(t, dir+"/bad.tf", "terraform {\n")
	if _, diags := LoadConfig(dir); !diags.HasErrors() {
		t.Error("a syntax error was not reported")
	}
}
