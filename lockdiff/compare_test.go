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
			map[string]Severity{"h1-added": Info}},
		{"zh filled in", []string{aws + " 5.1.0 h1:a="}, []string{aws + " 5.1.0 h1:a= zh:1 zh:2"}, Changed,
			map[string]Severity{"zh-filled": Info}},
		{"h1 swapped", []string{aws + " 5.1.0 h1:a= zh:1"}, []string{aws + " 5.1.0 h1:b= zh:1"}, Changed,
			map[string]Severity{"h1-swapped": Notice}},
		{"h1 dropped", []string{aws + " 5.1.0 h1:a= h1:b= zh:1"}, []string{aws + " 5.1.0 h1:a= zh:1"}, Changed,
			map[string]Severity{"h1-dropped": Notice}},
		{"zh replaced, h1 replaced too", []string{aws + " 5.1.0 h1:a= zh:1 zh:2"}, []string{aws + " 5.1.0 h1:b= zh:3 zh:4"}, Changed,
			map[string]Severity{"zh-replaced": Alert, "h1-swapped": Notice}},
		{"zh replaced, h1 unchanged", []string{aws + " 5.1.0 h1:a= zh:1 zh:2"}, []string{aws + " 5.1.0 h1:a= zh:3 zh:4"}, Changed,
			map[string]Severity{"zh-replaced": Warning}},
		{"zh partly kept", []string{aws + " 5.1.0 h1:a= zh:1 zh:2"}, []string{aws + " 5.1.0 h1:a= zh:1 zh:3"}, Changed,
			map[string]Severity{"zh-added": Info}},
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

func TestMaxSeverity(t *testing.T) {
	fd := Compare("lock.hcl", lockFile(t, aws+" 5.1.0 h1:a= zh:1"), lockFile(t, aws+" 5.1.0 h1:b= zh:2"))
	if fd.MaxSeverity() != Alert {
		t.Errorf("max severity %s", fd.MaxSeverity())
	}
}
