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

// TestRootsNamesByOnePolicy: one policy names every runner's roots — by
// label, else by directory: its name for `planpr render` (no top), its
// place in the repository for the Action and dry-run (several roots by
// place, one by its short name, the top as "."), whatever the spelling
// of the paths.
func TestRootsNamesByOnePolicy(t *testing.T) {
	top := t.TempDir()
	const plan = `{"format_version":"1.2"}`
	for _, rel := range []string{"envs/prod/plan.json", "apps/prod/plan.json", "plan.json"} {
		p := filepath.Join(top, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(plan), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	abs := func(rel string) string { return filepath.Join(top, rel) }
	t.Chdir(top) // render's relative paths
	type named struct{ Name, Root, Source string }
	names := func(roots []Root) []named {
		var out []named
		for _, r := range roots {
			out = append(out, named{r.Name, r.Root, r.Source})
		}
		return out
	}
	for _, tc := range []struct {
		name    string
		entries []Entry
		naming  Naming
		want    []named
	}{
		{"render: by directory name, a file at the top by its own", []Entry{{Path: "envs/prod/plan.json"}, {Path: "./plan.json"}}, Naming{},
			[]named{{"prod", "", ""}, {"plan.json", "", ""}}},
		{"render: alike directory names apart", []Entry{{Path: "envs/prod/plan.json"}, {Path: "apps/prod/plan.json"}}, Naming{},
			[]named{{"envs/prod", "", ""}, {"apps/prod", "", ""}}},
		{"one root: its short name", []Entry{{Path: abs("envs/prod/plan.json")}}, Naming{Top: top},
			[]named{{"prod", "envs/prod", "envs/prod/plan.json"}}},
		{"several roots: by place, alike last names apart", []Entry{{Path: abs("envs/prod/plan.json")}, {Path: abs("apps/prod/plan.json")}}, Naming{Top: top},
			[]named{{"envs/prod", "envs/prod", "envs/prod/plan.json"}, {"apps/prod", "apps/prod", "apps/prod/plan.json"}}},
		{"the top is .", []Entry{{Path: abs("plan.json")}}, Naming{Top: top},
			[]named{{".", ".", "plan.json"}}},
		{"a label names its root", []Entry{{Label: "web", Path: abs("envs/prod/plan.json")}, {Path: abs("apps/prod/plan.json")}}, Naming{Top: top},
			[]named{{"web", "", ""}, {"apps/prod", "apps/prod", "apps/prod/plan.json"}}},
		{"a label and a directory of one name", []Entry{{Label: "prod", Path: abs("plan.json")}, {Path: abs("envs/prod/plan.json")}}, Naming{},
			[]named{{"prod", "", ""}, {"envs/prod", "", ""}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := names(Roots(nil, tc.entries, tc.naming)); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %+v\nwant %+v", got, tc.want)
			}
		})
	}
}
