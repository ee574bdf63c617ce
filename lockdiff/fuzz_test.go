package lockdiff

import (
	"os"
	"testing"
)

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// FuzzParse checks that no input makes the lock-file parser panic, and that
// whatever parses compares with itself as unchanged.
func FuzzParse(f *testing.F) {
	for _, name := range []string{"address", "version", "attributes", "duplicate", "syntax"} {
		if src, err := os.ReadFile("testdata/bad/" + name + ".hcl"); err == nil {
			f.Add(src)
		}
	}
	f.Add([]byte("provider \"registry.opentofu.org/hashicorp/aws\" {\n  version = \"5.0.0\"\n  constraints = \"~> 5.0\"\n  hashes = [\"h1:a=\", \"zh:b\"]\n}\n"))
	f.Add([]byte(""))
	f.Fuzz(func(t *testing.T, src []byte) {
		lf, diags := Parse(src, "fuzz.hcl")
		if diags.HasErrors() {
			return
		}
		fd := Compare("fuzz.hcl", lf, lf)
		for _, p := range fd.Providers {
			if p.Change != Unchanged {
				t.Fatalf("%s compares with itself as %s", p.Address, p.Change)
			}
		}
	})
}
