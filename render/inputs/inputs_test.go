package inputs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestOpenTellsEachFileByItsContent(t *testing.T) {
	dir := t.TempDir()
	var paths []string
	want := map[string]Kind{}
	for name, tc := range map[string]struct {
		text string
		want Kind
	}{
		"plan.json":    {`{"format_version":"1.2","resource_changes":[]}`, Plan},
		"state.json":   {`{"format_version":"1.0","values":{}}`, State},
		"schemas.json": {`{"format_version":"1.0","provider_schemas":{}}`, Schemas},
		"plan.jsonl":   {`{"@level":"info","@message":"OpenTofu 1.9.0","type":"version","ui":"1.2"}` + "\n", Stream},
		// named as another kind: the content decides
		"schemas.jsonl": {`{"format_version":"1.2","resource_changes":[]}`, Plan},
	} {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(tc.text), 0o644); err != nil {
			t.Fatal(err)
		}
		paths, want[path] = append(paths, path), tc.want
	}
	set, err := Open(paths)
	if err != nil {
		t.Fatal(err)
	}
	defer set.Close()
	for i, f := range set.Files {
		if f.Path != paths[i] || f.Kind != want[f.Path] {
			t.Errorf("%s: %s, want %s", f.Path, f.Kind, want[f.Path])
		}
	}
	if got := set.Paths(Schemas); len(got) != 1 || filepath.Base(got[0]) != "schemas.json" {
		t.Errorf("schemas: %q", got)
	}
}

func TestOpenNamesAFileThatIsNoInput(t *testing.T) {
	dir := t.TempDir()
	plan, bad := filepath.Join(dir, "plan.json"), filepath.Join(dir, "bad.json")
	os.WriteFile(plan, []byte(`{"format_version":"1.2","resource_changes":[]}`), 0o644)
	os.WriteFile(bad, []byte("not json"), 0o644)
	if _, err := Open([]string{plan, bad}); err == nil || !strings.Contains(err.Error(), bad) {
		t.Errorf("a file that is none of them: %v", err)
	}
}
