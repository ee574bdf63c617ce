package review

import (
	"fmt"
	"github.com/planpr/planpr/render/inputs"
	"github.com/planpr/planpr/render/tofujson"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestSplittingReadsEachPlanOfAFile(t *testing.T) {
	files := tofujson.NewFiles()
	defer files.Close()
	dir := t.TempDir()
	plan := func(n int) string {
		changes := make([]string, n)
		for i := range changes {
			changes[i] = fmt.Sprintf(`{"address":"a.b%d","mode":"managed","type":"a","name":"b%d","change":{"actions":["create"],"before":null,"after":{}}}`, i, i)
		}
		return `{"format_version":"1.2","resource_changes":[` + strings.Join(changes, ",") + `]}`
	}
	several := filepath.Join(dir, "plans.json")
	one := filepath.Join(dir, "one.json")
	log := filepath.Join(dir, "plan.jsonl")
	for path, text := range map[string]string{several: plan(1) + "\n" + plan(2) + "\n" + plan(0) + "\n", one: plan(1), log: `{"@level":"info","@message":"OpenTofu 1.9.0","type":"version","terraform":"1.9.0","ui":"1.2"}` + "\n"} {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var calls int
	var got []inputs.Root
	var counts []int
	cleanup, err := Splitting(files, []inputs.Root{{Name: "one", Path: one}, {Name: "live", Path: several, Streams: []string{log}}}, func(ins []inputs.Root) error {
		calls++
		got, counts = ins, nil
		for _, in := range ins {
			m, err := ReadModule(in, PlanOptions{Mode: ModeNormal, Files: files}, ScanOptions{})
			if err != nil {
				return err
			}
			counts = append(counts, m.Total.Add)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if calls != 2 {
		t.Errorf("read %d times, want 2: once, then again with the file split", calls)
	}
	var names, sources []string
	for _, in := range got {
		names, sources = append(names, in.Name), append(sources, in.Source)
	}
	if want := []string{"one", "live#1", "live#2", "live#3"}; !reflect.DeepEqual(names, want) {
		t.Errorf("names %q, want %q", names, want)
	}
	if want := []string{"", several + "#1", several + "#2", several + "#3"}; !reflect.DeepEqual(sources, want) {
		t.Errorf("sources %q, want %q", sources, want)
	}
	if want := []int{1, 1, 2, 0}; !reflect.DeepEqual(counts, want) {
		t.Errorf("adds %v, want %v", counts, want)
	}
	if !reflect.DeepEqual(got[1].Streams, []string{log}) || got[2].Streams != nil {
		t.Errorf("streams %v / %v: want them with the first plan", got[1].Streams, got[2].Streams)
	}
	part := got[2].Path
	cleanup()
	if _, err := os.Stat(part); !os.IsNotExist(err) {
		t.Errorf("cleanup left %s: %v", part, err)
	}
}

// An error in the second plan of a file names the file and the place in
// it, not the part planpr wrote.
func TestSplittingLocatesErrorsInTheFile(t *testing.T) {
	files := tofujson.NewFiles()
	defer files.Close()
	path := filepath.Join(t.TempDir(), "plans.json")
	text := `{"format_version":"1.2","resource_changes":[]}` + "\n" + `{"format_version":"1.2","resource_changes":[{"change":{"actions":["explode"]}}]}` + "\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	cleanup, err := Splitting(files, []inputs.Root{{Path: path}}, func(ins []inputs.Root) error {
		for _, in := range ins {
			if _, err := ReadModule(in, PlanOptions{Mode: ModeNormal, Files: files}, ScanOptions{}); err != nil {
				return err
			}
		}
		return nil
	})
	defer cleanup()
	if err == nil || !strings.HasPrefix(err.Error(), path+":2:") || !strings.Contains(err.Error(), "explode") {
		t.Fatalf("err = %v, want it at %s:2:…", err, path)
	}
}

// TestSplittingNamesEachPlan: a file of several plans (terragrunt run-all
// show -json) given one name for each plan names each part by it, in
// order; a wrong count is an error naming the file.
func TestSplittingNamesEachPlan(t *testing.T) {
	files := tofujson.NewFiles()
	defer files.Close()
	dir := t.TempDir()
	path := filepath.Join(dir, "plans.json")
	plan := `{"format_version":"1.2","terraform_version":"1.9.0","resource_changes":[]}`
	if err := os.WriteFile(path, []byte(plan+"\n"+plan+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var names []string
	cleanup, err := Splitting(files, []inputs.Root{{Name: "envs/a,envs/b", Path: path}}, func(ins []inputs.Root) error {
		names = nil
		for _, in := range ins {
			names = append(names, in.Name)
			if _, err := ReadPlan(in.Path, PlanOptions{Files: files}, ScanOptions{}); err != nil {
				return err
			}
		}
		return nil
	})
	cleanup()
	if err != nil || !reflect.DeepEqual(names, []string{"envs/a", "envs/b"}) {
		t.Errorf("names %q, error %v", names, err)
	}
	cleanup, err = Splitting(files, []inputs.Root{{Name: "a,b,c", Path: path}}, func(ins []inputs.Root) error {
		for _, in := range ins {
			if _, err := ReadPlan(in.Path, PlanOptions{Files: files}, ScanOptions{}); err != nil {
				return err
			}
		}
		return nil
	})
	cleanup()
	if err == nil || !strings.Contains(err.Error(), "plans.json") || !strings.Contains(err.Error(), "holds 2 plans but 3 names") {
		t.Errorf("error %v", err)
	}
}
