package tofujson

import (
	"bufio"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/planpr/planpr/render/tofujson/internal/jsonread"
)

// A mapped plan and a streamed one read alike, plan and changes.
func TestReadPlanMappedOrStreamed(t *testing.T) {
	paths, _ := filepath.Glob("../../../shared/conformance/equivalence/*/plan.json")
	paths = append(paths, writeFile(t, "plan.json", minimalPlan), "../../testdata/example/plan.json")
	for _, path := range paths {
		read := func(mapped bool) (*Plan, []ResourceChange) {
			var changes []ResourceChange
			visit := func(_ string, rc *ResourceChange) error {
				changes = append(changes, *rc)
				return nil
			}
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			var p *Plan
			if m, ok := jsonread.Map(f); mapped && ok {
				defer jsonread.Unmap(m)
				p, err = readMapped(path, m, ReadOptions{}, visit)
			} else {
				p, err = readPlan(path, bufio.NewReader(f), ReadOptions{}, visit)
			}
			if err != nil {
				t.Fatal(err)
			}
			return p, changes
		}
		mp, mc := read(true)
		sp, sc := read(false)
		if !reflect.DeepEqual(mp, sp) || !reflect.DeepEqual(mc, sc) {
			t.Errorf("%s reads differently mapped and streamed", path)
		}
	}
}

// A mapped file cut short under the reader is an error naming the file,
// not a crash.
func TestReadPlanMappedFileCutShort(t *testing.T) {
	path := writeFile(t, "plan.json", minimalPlan+strings.Repeat(" ", 3*os.Getpagesize()))
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, ok := jsonread.Map(f)
	if !ok {
		t.Skip("no mapped files here")
	}
	defer jsonread.Unmap(m)
	if err := os.Truncate(path, 0); err != nil {
		t.Fatal(err)
	}
	_, err = readMapped(path, m, ReadOptions{}, nil)
	ie, ok := err.(*InputError)
	if !ok || ie.File != path || !strings.Contains(ie.Msg, "changed while planpr read it") {
		t.Fatalf("got %v", err)
	}
}

// Pages are given back in whole pages, every droppedEvery bytes read,
// dropLag behind the read.
func TestReaderDropsWhatItRead(t *testing.T) {
	page := int64(os.Getpagesize())
	r := &reader{mapped: make([]byte, 3*droppedEvery+dropLag)}
	r.drop(dropLag + droppedEvery - 1)
	if r.dropped != 0 {
		t.Fatalf("dropped %d bytes before reading %d", r.dropped, dropLag+droppedEvery)
	}
	r.drop(dropLag + droppedEvery + page + 5)
	if r.dropped != droppedEvery+page {
		t.Fatalf("dropped up to %d, want %d (whole pages, %d behind)", r.dropped, droppedEvery+page, dropLag)
	}
	r.drop(dropLag + droppedEvery + 3*page)
	if r.dropped != droppedEvery+page {
		t.Fatalf("dropped again after %d bytes", 2*page)
	}
	(&reader{}).drop(5 * droppedEvery) // nothing mapped: nothing to do
}
