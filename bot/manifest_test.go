package bot

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestManifestFields(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ text, err string }{
		{`{"pr": 8, "key": "prod", "mode": "destroy", "flavor": "terraform"}`, ""},
		{`{"flavor": "opentofu"}`, ""},
		{`{"flavor": "pulumi"}`, `flavor "pulumi": want opentofu, terraform or auto`},
		{`{"mode": "sideways"}`, `"sideways"`},
		{`{"key": "locks"}`, "planpr's own"},
		{`{"sha": "main"}`, "not a commit SHA"},
	} {
		path := filepath.Join(dir, "planpr.json")
		writeFiles(t, dir, map[string]string{"planpr.json": tc.text})
		_, err := ReadManifestFile(path)
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("%s: %v", tc.text, err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%s: err = %v, want %q", tc.text, err, tc.err)
		}
	}
}
