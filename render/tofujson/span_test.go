package tofujson

import (
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/planpr/planpr/render/tofujson/internal/jsonread"
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

func TestChangeReaderReusingMemoryReadsTheSame(t *testing.T) {
	path := escapedChangesPlan(t, 500)
	var spans []Span
	if _, err := ReadPlan(path, ReadOptions{SkipValues: []string{SectionChanges}}, func(_ string, rc *ResourceChange) error {
		spans = append(spans, rc.Span)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fresh, reusing := NewChangeReader(path, f), NewChangeReader(path, f)
	reusing.ReuseMemory()
	var kept []ResourceChange
	for i, span := range spans {
		var want, got ResourceChange
		if err := fresh.Read(span, &want); err != nil {
			t.Fatal(err)
		}
		if err := reusing.Read(span, &got); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("change %d reusing memory:\n%+v\nwant\n%+v", i, got, want)
		}
		kept = append(kept, got)
	}
	// Names, addresses and actions are the caller's to keep.
	for i, rc := range kept {
		if rc.Address != fmt.Sprintf("null_resource.r%d", i) || rc.Name != fmt.Sprintf("r%d", i) ||
			rc.Type != "null_resource" || rc.ProviderName != "p" || len(rc.Change.Actions) != 1 || rc.Change.Actions[0] != "update" {
			t.Fatalf("change %d changed once later ones were read: %q %q %q %q %q", i, rc.Address, rc.Name, rc.Type, rc.ProviderName, rc.Change.Actions)
		}
	}
}

// An update's after value takes the members its before writes the same,
// decoded once.
func TestAfterSharesWhatBeforeWritesTheSame(t *testing.T) {
	var rc ResourceChange
	src := `{"change":{"actions":["update"],"before":{"list":[1,2],"n":1,"obj":{"k":"v"},"s":"x"},"after":{"list":[1,2],"n":12,"obj":{"k":"w"},"s":"x"}}}`
	decodeChange := func(src string, rc *ResourceChange) error {
		var d jsonread.Decoder
		d.Reset(src)
		return changeDecoder{&d}.resourceChange(rc)
	}
	if err := decodeChange(src, &rc); err != nil {
		t.Fatal(err)
	}
	before, after := rc.Change.Before.(Object), rc.Change.After.(Object)
	if got := after.Value("n"); got != json.Number("12") {
		t.Errorf("n = %v: 12 starts like 1 but is not it", got)
	}
	if k := after.Value("obj").(Object).Value("k"); k != "w" {
		t.Errorf("obj.k = %v", k)
	}
	bl, al := before.Value("list").([]any), after.Value("list").([]any)
	if &bl[0] != &al[0] {
		t.Error("the list written the same on both sides was decoded twice")
	}
	whole := `{"change":{"before":{"a":[1]},"after":{"a":[1]}}}`
	if err := decodeChange(whole, &rc); err != nil {
		t.Fatal(err)
	}
	if b, a := rc.Change.Before.(Object), rc.Change.After.(Object); &b[0] != &a[0] {
		t.Error("an after written as its before was decoded again")
	}
}
