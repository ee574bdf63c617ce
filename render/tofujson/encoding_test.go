package tofujson

import (
	"encoding/binary"
	"reflect"
	"strings"
	"testing"

	"github.com/planpr/planpr/render/tofujson/internal/jsontest"
)

func utf16Bytes(s string, order binary.AppendByteOrder, bom bool) []byte {
	return jsontest.UTF16(s, order, bom)
}

// TestEncodings: what editors and shells write reads as the UTF-8 plan —
// a UTF-8 byte-order mark, UTF-16 LE and BE with one — with its changes,
// their values read again from spans, and located errors; UTF-16 without
// a mark and UTF-32 are refused by name.
func TestEncodings(t *testing.T) {
	plan := strings.Replace(minimalPlan, `"n":1.50`, `"n":1.50,"s":"café ✅ 😀"`, 1)
	read := func(path string) (*Plan, []ResourceChange) {
		t.Helper()
		var changes []ResourceChange
		p, err := ReadPlan(path, ReadOptions{SkipValues: []string{SectionChanges, SectionDrift}}, func(_ string, rc *ResourceChange) error {
			changes = append(changes, *rc)
			return nil
		})
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		f, err := OpenFile(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		cr := NewChangeReader(path, f)
		for i := range changes {
			if err := cr.Read(changes[i].Span, &changes[i]); err != nil {
				t.Fatalf("%s: reading a change again: %v", path, err)
			}
		}
		return p, changes
	}
	wantPlan, want := read(writeFile(t, "plan.json", plan))
	for name, data := range map[string][]byte{
		"utf-8 with a mark": append([]byte("\xEF\xBB\xBF"), plan...),
		"utf-16 LE":         utf16Bytes(plan, binary.LittleEndian, true),
		"utf-16 BE":         utf16Bytes(plan, binary.BigEndian, true),
	} {
		p, got := read(writeFile(t, "plan.json", string(data)))
		if p.FormatVersion != wantPlan.FormatVersion || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: read %+v, want %+v", name, got, want)
		}
	}
	bad := strings.Replace(plan, `"errored":false`, `"errored":fals`, 1)
	_, err := ReadPlanFile(writeFile(t, "bad.json", string(utf16Bytes(bad, binary.LittleEndian, true))), nil)
	if ie, ok := err.(*InputError); !ok || ie.Line != 8 {
		t.Errorf("a bad UTF-16 plan: %v, want a located error on line 8", err)
	}
	for name, data := range map[string][]byte{
		"UTF-16 without a byte-order mark": utf16Bytes(plan, binary.LittleEndian, false),
		"UTF-32":                           append([]byte{0xFF, 0xFE, 0, 0}, '{', 0, 0, 0),
	} {
		path := writeFile(t, "plan.json", string(data))
		_, err := ReadPlanFile(path, nil)
		if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), name) {
			t.Errorf("%s: %v, want an error naming the file and the encoding", name, err)
		}
	}
}
