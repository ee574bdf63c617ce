package lockdiff

import (
	"os"
	"strings"
	"testing"
	"testing/fstest"
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

// FuzzNesting repeats a shape of HCL many times over: whatever it makes,
// the lock-file and configuration parsers answer (the nesting check comes
// before hcl recurses), and what nests deeper than MaxNesting is refused.
func FuzzNesting(f *testing.F) {
	for _, seed := range []string{"[", "{a=", "(", `"${`, "%{if x}", "-", "!", "x ? 1 : ", "[*]", ".*", "[for x in ", "f(", "<<EOT\n${"} {
		f.Add(seed, uint16(3000))
	}
	f.Fuzz(func(t *testing.T, shape string, n uint16) {
		if len(shape) == 0 || len(shape) > 16 {
			return
		}
		tail := strings.Repeat(shape, int(n)%5000)
		Parse([]byte("provider \"registry.opentofu.org/hashicorp/aws\" {\n  version = \"5.0.0\"\n  hashes = "+tail+"\n}\n"), "fuzz.hcl")
		LoadConfigFS(fstest.MapFS{"main.tf": {Data: []byte("locals {\n  a = " + tail + "\n}\n")}}, "root")
		LoadConfigFS(fstest.MapFS{"main.tf.json": {Data: []byte(`{"locals":{"a":` + tail + `}}`)}}, "root")
	})
}
