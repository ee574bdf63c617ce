package tofujson

import (
	"bufio"
	"bytes"
	"fmt"
	"github.com/go-json-experiment/json/jsontext"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/planpr/planpr/render/tofujson/internal/mapping"
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
			if m, ok := mapping.Map(f); mapped && ok {
				defer mapping.Unmap(m)
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
	m, ok := mapping.Map(f)
	if !ok {
		t.Skip("no mapped files here")
	}
	defer mapping.Unmap(m)
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

// planRead is what one read of a plan gave.
type planRead struct {
	plan    *Plan
	changes []ResourceChange
	err     string
}

func (r planRead) String() string {
	return fmt.Sprintf("%d changes, error %q", len(r.changes), r.err)
}

// readBothWays reads data lazily as a mapped plan is read (with a
// jsonread.Cursor) and with jsontext, and says what each gave: as the
// comment reads a plan (values borrowed) and as the text's first pass
// does (values checked and skipped).
func readBothWays(t *testing.T, path string, data []byte) (cursor, streamed [2]planRead) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	read := func(mapped, skip bool) planRead {
		var changes []ResourceChange
		visit := func(_ string, rc *ResourceChange) error {
			c := *rc
			c.Change.KeepValues()
			if r := c.Change.raw; r != nil {
				checkIndex(t, r.values[0], r.beforeIndex)
				checkIndex(t, r.values[1], r.afterIndex)
				r.beforeIndex, r.afterIndex = nil, nil // only the cursor keeps them
			}
			changes = append(changes, c)
			return nil
		}
		var p *Plan
		var err error
		opts := ReadOptions{Lazy: true, Borrow: true}
		if skip {
			opts = ReadOptions{Lazy: true, SkipValues: []string{SectionChanges}}
		}
		if mapped {
			p, err = readMapped(path, data, opts, visit)
		} else { // as a mapped plan was read before the cursor
			p, err = readPlanFrom(path, bytes.NewBuffer(data), data, opts, visit)
		}
		if err != nil {
			return planRead{err: err.Error()}
		}
		return planRead{plan: p, changes: changes}
	}
	return [2]planRead{read(true, false), read(true, true)}, [2]planRead{read(false, false), read(false, true)}
}

// checkIndex fails t unless index says where each of the object raw's
// own members begins, or is empty.
func checkIndex(t *testing.T, raw []byte, index []uint32) {
	t.Helper()
	if len(index) == 0 {
		return
	}
	dec := jsontext.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.ReadToken(); err != nil || tok.Kind() != '{' {
		t.Fatalf("an index of %d members for %q, not an object", len(index), raw)
	}
	for i := 0; dec.PeekKind() == '"'; i++ {
		at := dec.InputOffset()
		for raw[at] != '"' {
			at++ // the space and comma before the name
		}
		if i >= len(index) || int64(index[i]) != at {
			t.Fatalf("member %d of %q begins at %d; index %v", i, raw, at, index)
		}
		if _, err := dec.ReadToken(); err != nil {
			t.Fatal(err)
		}
		if err := dec.SkipValue(); err != nil {
			t.Fatal(err)
		}
		if i == len(index)-1 && dec.PeekKind() == '"' {
			t.Fatalf("%q has more members than index %v", raw, index)
		}
	}
}

// TestCursorReadsAsJsontext: a plan read with the cursor is read as
// jsontext reads it, and a broken one fails with jsontext's error.
func TestCursorReadsAsJsontext(t *testing.T) {
	paths, _ := filepath.Glob("../testdata/plans/*.json")
	paths = append(paths, "../../testdata/example/plan.json")
	dir := t.TempDir()
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		variants := [][]byte{data, data[:len(data)/2], data[:len(data)-2], append(bytes.Clone(data), "{}"...)}
		for _, at := range []int{len(data) / 3, len(data) / 2, 2 * len(data) / 3} {
			for _, b := range []byte{'"', '\\', '}', ',', 0x01, 0xff} {
				v := bytes.Clone(data)
				v[at] = b
				variants = append(variants, v)
			}
		}
		for i, v := range variants {
			if cursor, streamed := readBothWays(t, filepath.Join(dir, "plan.json"), v); !reflect.DeepEqual(cursor, streamed) {
				t.Errorf("%s variant %d:\ncursor:   %v\nstreamed: %v", p, i, cursor, streamed)
			}
		}
	}
}

// FuzzCursorReadsAsJsontext: whatever the input, the cursor's read and
// jsontext's agree.
func FuzzCursorReadsAsJsontext(f *testing.F) {
	f.Add([]byte(minimalPlan))
	f.Add([]byte(`{"format_version":"1.2","resource_changes":[{"address":"a.b[\"k\"]","index":"k","change":{"actions":["delete","create"],"before":{"a":[1,{"b":null}]},"after_unknown":true,"replace_paths":[["a",0]]}}]}`))
	f.Add([]byte(`{"format_version":"1.2","resource_changes":null,"output_changes":{"x":{"actions":["create"]}}}`))
	f.Add([]byte(`{"format_version":"1.2","resource_drift":[{"address":"x","change":{"actions":["update"],"before":{},"after":{}}}],"prior_state":{"values":{}}} {}`))
	f.Add([]byte(`{"format_version":"1.2","resource_changes":[{"change":{"actions":["create"],"after":"\ud800"}}]}`))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		if cursor, streamed := readBothWays(t, filepath.Join(dir, "plan.json"), data); !reflect.DeepEqual(cursor, streamed) {
			t.Fatalf("%q:\ncursor:   %v\nstreamed: %v", data, cursor, streamed)
		}
	})
}
