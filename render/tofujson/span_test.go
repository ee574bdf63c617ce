package tofujson

import (
	"os"
	"reflect"
	"testing"
)

func TestChangeReaderReadsWhatAPassSkipped(t *testing.T) {
	path := writeFile(t, "plan.json", minimalPlan)
	var full []ResourceChange
	if _, err := ReadPlanFile(path, func(_ string, rc *ResourceChange) error {
		full = append(full, *rc)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	var spans []Span
	_, err := ReadPlan(path, ReadOptions{SkipValues: []string{SectionChanges}}, func(section string, rc *ResourceChange) error {
		if section == SectionChanges {
			if rc.Change.After != nil || rc.Change.Before != nil {
				t.Errorf("%s: values kept although skipped", rc.Address)
			}
			if len(rc.Change.Actions) == 0 || rc.Address == "" {
				t.Errorf("%s: skipping values lost the rest: %+v", rc.Address, rc)
			}
		} else if rc.Change.After == nil {
			t.Errorf("%s: values of a section not named were skipped", rc.Address)
		}
		spans = append(spans, rc.Span)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cr := NewChangeReader(path, f)
	for i, span := range spans {
		var rc ResourceChange
		if err := cr.Read(span, &rc); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(rc, full[i]) {
			t.Errorf("change %d read from its span:\n%+v\nwant\n%+v", i, rc, full[i])
		}
	}
}

func TestChangeReaderNamesTheFileWhenItChanged(t *testing.T) {
	path := writeFile(t, "plan.json", minimalPlan)
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rc ResourceChange
	err = NewChangeReader(path, f).Read(Span{Start: 3, End: 40}, &rc)
	if err == nil {
		t.Fatal("read a resource change from the middle of the header")
	}
	if ie, ok := err.(*InputError); !ok || ie.File != path || ie.Line == 0 {
		t.Errorf("error %v does not locate the problem in %s", err, path)
	}
}
