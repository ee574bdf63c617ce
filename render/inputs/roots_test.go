package inputs

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestGroup(t *testing.T) {
	dir := t.TempDir()
	write := func(rel, content string) string {
		path := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	const plan = `{"format_version":"1.2"}`
	const stream = `{"@level":"info","type":"version","terraform":"1.9.0","ui":"1.2"}` + "\n"
	prodPlan := write("envs/prod/plan.json", plan)
	prodLog := write("envs/prod/plan.jsonl", stream)
	devPlan := write("envs/dev/plan.json", plan)
	secondProd := write("envs/prod/again.json", plan)
	lateLog := write("envs/prod/apply.log", "not a stream line\n")

	files := []RootFile{InDirectory(prodPlan), InDirectory(devPlan), InDirectory(prodLog), InDirectory(secondProd)}
	late := InDirectory(lateLog)
	late.Stream = true // the Action's logs are streams whatever their first line
	files = append(files, late)
	got := Group(nil, files)
	want := []Root{
		{Name: "prod (plan.json)", Path: prodPlan, Streams: []string{prodLog}},
		{Name: "dev", Path: devPlan},
		{Name: "prod (again.json)", Path: secondProd, Streams: []string{lateLog}}, // a second plan is not dropped
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Group:\n got %+v\nwant %+v", got, want)
	}
}

func TestInDirectoryAndModuleName(t *testing.T) {
	for _, tc := range []struct{ path, key, name, module string }{
		{"plan.json", ".", ".", "plan.json"},
		{"envs/prod/plan.json", "envs/prod", "prod", "prod"},
		{"/plan.json", "/", "/", "plan.json"},
	} {
		f := InDirectory(tc.path)
		if f.Key != tc.key || f.Name != tc.name {
			t.Errorf("InDirectory(%q) = key %q name %q, want %q %q", tc.path, f.Key, f.Name, tc.key, tc.name)
		}
		if got := ModuleName(tc.path); got != tc.module {
			t.Errorf("ModuleName(%q) = %q, want %q", tc.path, got, tc.module)
		}
	}
}

func TestGroupNamesByShortestUniquePath(t *testing.T) {
	files := []RootFile{
		InDirectory("regions/prod/eu/plan.json"),
		InDirectory("regions/staging/eu/plan.json"),
		InDirectory("regions/prod/us/plan.json"),
		InDirectory("a/x/eu/plan.json"), // eu three times: prod/eu, staging/eu, x/eu
	}
	var names []string
	for _, in := range Group(nil, files) {
		names = append(names, in.Name)
	}
	if want := []string{"prod/eu", "staging/eu", "us", "x/eu"}; !reflect.DeepEqual(names, want) {
		t.Errorf("names %q, want %q", names, want)
	}
}
