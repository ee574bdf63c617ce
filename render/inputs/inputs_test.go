package inputs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestClassify(t *testing.T) {
	dir := t.TempDir()
	for name, tc := range map[string]struct {
		text string
		want Kind
	}{
		"plan.json":    {`{"format_version":"1.2","resource_changes":[]}`, Plan},
		"state.json":   {`{"format_version":"1.0","values":{}}`, State},
		"schemas.json": {`{"format_version":"1.0","provider_schemas":{}}`, Schemas},
		"plan.jsonl":   {`{"@level":"info","@message":"OpenTofu 1.9.0","type":"version","ui":"1.2"}` + "\n", Stream},
	} {
		path := filepath.Join(dir, name)
		os.WriteFile(path, []byte(tc.text), 0o644)
		if got, err := Classify(path); err != nil || got != tc.want {
			t.Errorf("%s: %s %v, want %s", name, got, err, tc.want)
		}
	}
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte("not json"), 0o644)
	if _, err := ClassifyAll([]string{filepath.Join(dir, "plan.json"), bad}); err == nil || !strings.Contains(err.Error(), bad) {
		t.Errorf("a file that is none of them: %v", err)
	}
}
