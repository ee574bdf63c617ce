package tofujson

import (
	"fmt"
	"os"
	"reflect"
	"strings"
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

// escapedChangesPlan is a plan of n changes whose values hold escaped
// strings, longer in all than a ChangeReader reads ahead.
func escapedChangesPlan(t *testing.T, n int) string {
	t.Helper()
	var b strings.Builder
	b.WriteString(`{"format_version":"1.2","resource_changes":[`)
	for i := range n {
		if i > 0 {
			b.WriteString(",\n")
		}
		text := strings.Repeat(fmt.Sprintf(`step \"%d\"\n`, i), 1+i%23)
		fmt.Fprintf(&b, `{"address":"null_resource.r%d","mode":"managed","type":"null_resource","name":"r%d","provider_name":"p","change":{"actions":["update"],"before":{"text":"%s","tags":{"k\u00e9":"v%d"}},"after":{"text":"%s\t","list":["a\\b","%d"]},"after_unknown":{},"before_sensitive":{},"after_sensitive":{}}}`,
			i, i, text, i, text, i)
	}
	b.WriteString("]}")
	if b.Len() < 4*readAhead {
		t.Fatalf("the plan is %d bytes: too short to make the reader read ahead again", b.Len())
	}
	return writeFile(t, "plan.json", b.String())
}

// Changes read one after another, past several read-aheads and with
// escaped strings, decode as the whole pass decodes them; each is the
// caller's to keep.
func TestChangeReaderReadsALongPlanAsThePassDoes(t *testing.T) {
	path := escapedChangesPlan(t, 500)
	var spans []Span
	var want []ResourceChange
	if _, err := ReadPlanFile(path, func(_ string, rc *ResourceChange) error {
		spans = append(spans, rc.Span)
		want = append(want, *rc)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cr := NewChangeReader(path, f)
	kept := make([]ResourceChange, len(spans))
	for i, span := range spans {
		if err := cr.Read(span, &kept[i]); err != nil {
			t.Fatal(err)
		}
	}
	for i := range kept {
		if !reflect.DeepEqual(kept[i], want[i]) {
			t.Fatalf("change %d, once every later one was read:\n%+v\nwant\n%+v", i, kept[i], want[i])
		}
	}
}
