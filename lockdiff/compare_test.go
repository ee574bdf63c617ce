package lockdiff

import (
	"fmt"
	"strings"
	"testing"
)

// lockFile builds and parses a lock file from "ADDRESS VERSION [c=CONSTRAINTS] HASH..." lines.
func lockFile(t *testing.T, lines ...string) *LockFile {
	t.Helper()
	var b strings.Builder
	for _, l := range lines {
		f := strings.Fields(l)
		fmt.Fprintf(&b, "provider %q {\n  version = %q\n", f[0], f[1])
		var hashes []string
		for _, x := range f[2:] {
			if c, ok := strings.CutPrefix(x, "c="); ok {
				fmt.Fprintf(&b, "  constraints = %q\n", strings.ReplaceAll(c, "_", " "))
			} else {
				hashes = append(hashes, fmt.Sprintf("%q", x))
			}
		}
		if len(hashes) > 0 {
			fmt.Fprintf(&b, "  hashes = [%s]\n", strings.Join(hashes, ", "))
		}
		b.WriteString("}\n")
	}
	lf, diags := Parse([]byte(b.String()), "lock.hcl")
	if diags.HasErrors() {
		t.Fatalf("%v\n%s", diags, b.String())
	}
	return lf
}

func findingsOf(fd *FileDiff) map[string]Severity {
	out := map[string]Severity{}
	for _, f := range fd.AllFindings() {
		out[f.Kind] = f.Severity
	}
	return out
}

const aws = "registry.opentofu.org/hashicorp/aws"

func TestCompareFindings(t *testing.T) {
	tests := []struct {
		name          string
		before, after []string
		change        Change
		want          map[string]Severity
	}{
		{"added", nil, []string{aws + " 5.0.0 h1:a= zh:1 zh:2"}, Added,
			map[string]Severity{"provider-added": Notice}},
		{"added without hashes", nil, []string{aws + " 5.0.0"}, Added,
			map[string]Severity{"provider-added": Notice, "no-hashes": Warning}},
		{"added for one platform", nil, []string{aws + " 5.0.0 h1:a="}, Added,
			map[string]Severity{"provider-added": Notice, "single-platform": Warning}},
		{"removed", []string{aws + " 5.0.0 h1:a="}, nil, Removed,
			map[string]Severity{"provider-removed": Info, "lock-file-deleted": Warning}},
		{"patch upgrade", []string{aws + " 5.0.0 h1:a= zh:1"}, []string{aws + " 5.0.1 h1:b= zh:2"}, Upgraded,
			map[string]Severity{"upgrade": Notice}},
		{"major upgrade", []string{aws + " 5.9.0 h1:a="}, []string{aws + " 6.0.0 h1:b="}, Upgraded,
			map[string]Severity{"major-upgrade": Warning}},
		{"0.x minor upgrade", []string{aws + " 0.3.9 h1:a="}, []string{aws + " 0.4.0 h1:b="}, Upgraded,
			map[string]Severity{"major-upgrade": Warning}},
		{"pre-release", []string{aws + " 5.0.0 h1:a="}, []string{aws + " 5.1.0-rc1 h1:b="}, Upgraded,
			map[string]Severity{"upgrade": Notice, "prerelease": Warning}},
		{"pre-release to release", []string{aws + " 5.1.0-rc1 h1:a="}, []string{aws + " 5.1.0 h1:b="}, Upgraded,
			map[string]Severity{"upgrade": Notice}},
		{"downgrade", []string{aws + " 5.1.0 h1:a="}, []string{aws + " 5.0.0 h1:b="}, Downgraded,
			map[string]Severity{"downgrade": Warning}},
		{"constraints only", []string{aws + " 5.1.0 c=~>_5.0 h1:a="}, []string{aws + " 5.1.0 c=~>_5.1 h1:a="}, Changed,
			map[string]Severity{"constraints-only": Info}},
		{"h1 added", []string{aws + " 5.1.0 h1:a= zh:1"}, []string{aws + " 5.1.0 h1:a= h1:b= zh:1"}, Changed,
			map[string]Severity{"h1-added": Alert}},
		{"a zh: replaced by an h1: is an alert: nothing verified the added hash", []string{aws + " 5.1.0 h1:a= zh:1"}, []string{aws + " 5.1.0 h1:a= h1:b="}, Changed,
			map[string]Severity{"h1-added": Alert, "hashes-removed": Notice}},
		{"zh filled in", []string{aws + " 5.1.0 h1:a="}, []string{aws + " 5.1.0 h1:a= zh:1 zh:2"}, Changed,
			map[string]Severity{"zh-filled": Alert}},
		{"h1 swapped", []string{aws + " 5.1.0 h1:a= zh:1"}, []string{aws + " 5.1.0 h1:b= zh:1"}, Changed,
			map[string]Severity{"hashes-replaced": Alert}},
		{"h1 dropped", []string{aws + " 5.1.0 h1:a= h1:b= zh:1"}, []string{aws + " 5.1.0 h1:a= zh:1"}, Changed,
			map[string]Severity{"hashes-removed": Notice}},
		{"zh replaced, h1 replaced too", []string{aws + " 5.1.0 h1:a= zh:1 zh:2"}, []string{aws + " 5.1.0 h1:b= zh:3 zh:4"}, Changed,
			map[string]Severity{"hashes-replaced": Alert}},
		{"zh replaced, h1 unchanged", []string{aws + " 5.1.0 h1:a= zh:1 zh:2"}, []string{aws + " 5.1.0 h1:a= zh:3 zh:4"}, Changed,
			map[string]Severity{"hashes-replaced": Alert}},
		{"one zh swapped for another, the rest kept", []string{aws + " 5.1.0 h1:a= zh:1 zh:2"}, []string{aws + " 5.1.0 h1:a= zh:1 zh:3"}, Changed,
			map[string]Severity{"hashes-replaced": Alert}},
		{"zh added", []string{aws + " 5.1.0 h1:a= zh:1"}, []string{aws + " 5.1.0 h1:a= zh:1 zh:3"}, Changed,
			map[string]Severity{"zh-added": Alert}},
		{"unknown hash schemes are kept, not judged", []string{aws + " 5.1.0 h1:a="}, []string{aws + " 5.1.0 h1:a= h9:new"}, Changed,
			map[string]Severity{}},
		{"unchanged", []string{aws + " 5.1.0 h1:a="}, []string{aws + " 5.1.0 h1:a="}, Unchanged,
			map[string]Severity{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fd := Compare("lock.hcl", lockFile(t, tt.before...), lockFile(t, tt.after...))
			if len(fd.Providers) != 1 || fd.Providers[0].Change != tt.change {
				t.Fatalf("providers = %+v, want one %s", fd.Providers, tt.change)
			}
			got := findingsOf(fd)
			if fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Errorf("findings %v, want %v", got, tt.want)
			}
			for _, f := range fd.AllFindings() {
				if !strings.HasSuffix(f.Message, ".") && !strings.HasSuffix(f.Message, ".)") {
					t.Errorf("finding %s is not a sentence: %q", f.Kind, f.Message)
				}
			}
		})
	}
}

func TestCompareHashesAndRegistries(t *testing.T) {
	tfAws := "registry.terraform.io/hashicorp/aws"
	fd := Compare("lock.hcl",
		lockFile(t, tfAws+" 5.0.0 h1:a= zh:1"),
		lockFile(t, aws+" 5.0.0 h1:b= zh:2", tfAws+" 5.0.0 h1:a= zh:1 zh:9"))
	got := findingsOf(fd)
	if got["both-registries"] != Warning {
		t.Errorf("findings %v: want both-registries", got)
	}
	tf := fd.Providers[1]
	if tf.Address.String() != tfAws || strings.Join(tf.HashesAdded, ",") != "zh:9" || len(tf.HashesRemoved) != 0 {
		t.Errorf("terraform.io provider = %+v", tf)
	}
	moved := Compare("lock.hcl", lockFile(t, tfAws+" 5.0.0 h1:a="), lockFile(t, aws+" 5.0.0 h1:b="))
	if findingsOf(moved)["registry-move"] != Notice {
		t.Errorf("findings %v: want registry-move", findingsOf(moved))
	}
}

// TestMaxSeverity: a file's highest severity, and how many of its
// findings are alerts (what a comment's title counts).
func TestMaxSeverity(t *testing.T) {
	fd := Compare("lock.hcl", lockFile(t, aws+" 5.1.0 h1:a= zh:1"), lockFile(t, aws+" 5.1.0 h1:b= zh:2"))
	if fd.MaxSeverity() != Alert {
		t.Errorf("max severity %s", fd.MaxSeverity())
	}
	alerts := 0
	for _, f := range fd.AllFindings() {
		if f.Severity == Alert {
			alerts++
		}
	}
	if alerts == 0 || fd.Alerts() != alerts {
		t.Errorf("Alerts() = %d, want the %d alert findings", fd.Alerts(), alerts)
	}
	if same := Compare("lock.hcl", lockFile(t, aws+" 5.1.0 h1:a= zh:1"), lockFile(t, aws+" 5.1.0 h1:a= zh:1")); same.Alerts() != 0 {
		t.Errorf("an unchanged file has %d alerts", same.Alerts())
	}
}

// TestHashSwapNamed: one `zh:` of hashicorp/null 3.3.1 replaced by another
// on the same version names both hashes, says what to do, and is an alert
// without asking any registry.
func TestHashSwapNamed(t *testing.T) {
	null := "registry.opentofu.org/hashicorp/null"
	fd := Compare("lock.hcl", lockFile(t, null+" 3.3.1 h1:keep= zh:aaaa1111 zh:bbbb2222"), lockFile(t, null+" 3.3.1 h1:keep= zh:aaaa1111 zh:cccc3333"))
	f := fd.AllFindings()
	if len(f) != 1 || f[0].Severity != Alert || fd.MaxSeverity() != Alert {
		t.Fatalf("findings %+v", f)
	}
	for _, want := range []string{"1 `zh:` hash removed (`zh:bbbb2222`) and 1 added (`zh:cccc3333`)", "Run `tofu providers lock` from a trusted machine and compare; if the registry's checksums differ, do not merge."} {
		if !strings.Contains(f[0].Message, want) {
			t.Errorf("%q lacks %q", f[0].Message, want)
		}
	}
}

// TestPlatformCoverage: a provider the change touches that covers fewer
// platforms than the rest of the file (or than the declared platforms) is
// a warning without --verify, with the command that fixes it; in
// Terraform's words for a Terraform lock.
func TestPlatformCoverage(t *testing.T) {
	null := "registry.opentofu.org/hashicorp/null"
	six := " h1:1= h1:2= h1:3= h1:4= h1:5= h1:6= zh:1 zh:2"
	before := lockFile(t, aws+" 5.0.0"+six)
	after := lockFile(t, aws+" 5.0.0"+six, null+" 3.3.1 h1:mac= zh:9")
	fd := Compare("lock.hcl", before, after)
	var msg string
	for _, f := range fd.AllFindings() {
		if f.Kind == "platforms-fewer" && f.Severity == Warning {
			msg = f.Message
		}
	}
	if !strings.Contains(msg, "1 `h1:` hash where registry.opentofu.org/hashicorp/aws has 6") ||
		!strings.Contains(msg, "`tofu providers lock -platform=linux_amd64 -platform=darwin_arm64 -platform=windows_amd64 registry.opentofu.org/hashicorp/null`") {
		t.Errorf("coverage finding %q", msg)
	}
	// Declared platforms are the measure, and the command names them.
	fd, _ = ComparePair(Pair{Path: "lock.hcl", Before: []byte(""), After: []byte(`provider "registry.terraform.io/hashicorp/null" {
  version = "3.3.1"
  hashes = ["h1:a=", "h1:b=", "zh:1"]
}
`), Platforms: []string{"linux_amd64", "linux_arm64", "darwin_arm64"}})
	msg = ""
	for _, f := range fd.AllFindings() {
		if f.Kind == "platforms-fewer" {
			msg = f.Message
		}
	}
	if !strings.Contains(msg, "2 `h1:` hashes for the 3 platforms you declared") ||
		!strings.Contains(msg, "`terraform providers lock -platform=linux_amd64 -platform=linux_arm64 -platform=darwin_arm64 registry.terraform.io/hashicorp/null`") {
		t.Errorf("declared coverage finding %q", msg)
	}
}

func TestChangesURL(t *testing.T) {
	up := Compare("lock.hcl", lockFile(t, aws+" 3.2.4 h1:a="), lockFile(t, aws+" 3.3.1 h1:b="))
	down := Compare("lock.hcl", lockFile(t, aws+" 3.3.1 h1:a="), lockFile(t, aws+" 3.2.4 h1:b="))
	other := Compare("lock.hcl", lockFile(t, "example.com/acme/x 1.0.0 h1:a="), lockFile(t, "example.com/acme/x 1.1.0 h1:b="))
	for _, tc := range []struct {
		fd   *FileDiff
		want string
	}{
		{up, "https://github.com/hashicorp/terraform-provider-aws/compare/v3.2.4...v3.3.1"},
		{down, "https://github.com/hashicorp/terraform-provider-aws/compare/v3.2.4...v3.3.1"},
		{other, ""},
	} {
		if got := tc.fd.Providers[0].ChangesURL; got != tc.want {
			t.Errorf("ChangesURL %q, want %q", got, tc.want)
		}
	}
}
