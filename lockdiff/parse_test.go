package lockdiff

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
)

var expectation = regexp.MustCompile(`# (ERROR|WARNING): (.+)$`)

// TestBadLockFiles parses each file in testdata/bad and checks that the
// diagnostics are exactly the ones its lines announce with `# ERROR:` or
// `# WARNING:` comments, on those lines.
func TestBadLockFiles(t *testing.T) {
	paths, _ := filepath.Glob("testdata/bad/*.hcl")
	if len(paths) == 0 {
		t.Fatal("no fixtures")
	}
	for _, path := range paths {
		t.Run(filepath.Base(path), func(t *testing.T) {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			var want []string
			for i, line := range strings.Split(string(src), "\n") {
				if m := expectation.FindStringSubmatch(line); m != nil {
					want = append(want, diagKey(i+1, m[1], m[2]))
				}
			}
			_, diags := Parse(src, path)
			var got []string
			for _, d := range diags {
				if d.Subject == nil {
					t.Errorf("diagnostic without a range: %s", d.Summary)
					continue
				}
				if d.Subject.Filename != path {
					t.Errorf("diagnostic names %q, want %q", d.Subject.Filename, path)
				}
				sev := "ERROR"
				if d.Severity == hcl.DiagWarning {
					sev = "WARNING"
				}
				if d.Detail == "" {
					t.Errorf("%s has no detail telling what to do", d.Summary)
				}
				got = append(got, diagKey(d.Subject.Start.Line, sev, d.Summary))
			}
			sort.Strings(want)
			sort.Strings(got)
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("diagnostics:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}

func diagKey(line int, sev, summary string) string {
	return strings.Join([]string{itoa(line), sev, strings.TrimSpace(summary)}, " ")
}

func itoa(n int) string { return fmt.Sprintf("%04d", n) }

func TestParseGood(t *testing.T) {
	src := `# This file is maintained automatically by "tofu init".
provider "registry.opentofu.org/hashicorp/aws" {
  version     = "5.31.0"
  constraints = ">= 5.0.0, < 6.0.0"
  hashes = [
    "h1:one=",
    "zh:two",
    "future:kept",
  ]
}

provider "registry.terraform.io/integrations/github" {
  version = "6.0.0-beta.1"
  hashes  = ["h1:x="]
}
`
	lf, diags := Parse([]byte(src), "x.hcl")
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if len(lf.Providers) != 2 {
		t.Fatalf("%d providers", len(lf.Providers))
	}
	aws := lf.Providers[0]
	if aws.Address.String() != "registry.opentofu.org/hashicorp/aws" || aws.RawVersion != "5.31.0" ||
		aws.Constraints != ">= 5.0.0, < 6.0.0" || len(aws.Hashes) != 3 || aws.DeclRange.Start.Line != 2 {
		t.Errorf("aws lock = %+v", aws)
	}
	if gh := lf.Providers[1]; gh.Version.Prerelease() != "beta.1" || gh.Constraints != "" {
		t.Errorf("github lock = %+v", gh)
	}
	empty, diags := Parse([]byte("\n  \n"), "empty.hcl")
	if diags.HasErrors() || len(empty.Providers) != 0 {
		t.Errorf("an empty file should mean no providers: %v %v", empty, diags)
	}
}
