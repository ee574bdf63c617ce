package shape

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/planpr/planpr/render/review"
	"github.com/planpr/planpr/render/tofujson"
)

// agreesWithOf fails t when Follows says c follows p where Of's shapes
// say otherwise, and reports whether it said so.
func agreesWithOf(t *testing.T, what string, c, p *tofujson.Change, ck, pk []string) bool {
	t.Helper()
	alike, strictly := Follows(c, p, ck, pk)
	oc, op := Of(c, ck), Of(p, pk)
	if alike && (oc.Loose != op.Loose || strictly != (oc.Strict == op.Strict)) {
		t.Errorf("%s: Follows says alike, strictly %v; Of says loose %v, strict %v", what, strictly, oc.Loose == op.Loose, oc.Strict == op.Strict)
	}
	return alike
}

// TestFollowsCases: pairs of creations, what Follows answers, and that
// Of's shapes agree whenever it answers alike.
func TestFollowsCases(t *testing.T) {
	for _, tc := range []struct {
		what            string
		c, p            string
		ck, pk          []string
		alike, strictly bool
	}{
		{"names and addresses from the index", `{"name":"web-7","ip":"10.0.0.7"}`, `{"name":"web-6","ip":"10.0.0.6"}`, []string{"7"}, []string{"6"}, true, true},
		{"ids apart from the index", `{"id":"i-0abc7","n":2}`, `{"id":"i-9f1","n":2}`, []string{"7"}, []string{"6"}, true, false},
		{"longer and shorter numbers", `{"name":"web-10","port":80}`, `{"name":"web-9","port":80}`, []string{"10"}, []string{"9"}, true, true},
		{"the key where the other has the same word", `{"name":"web-3","retries":3}`, `{"name":"web-2","retries":3}`, []string{"3"}, []string{"2"}, true, false},
		{"the other's key where this one has it", `{"name":"web-3","retries":2}`, `{"name":"web-2","retries":2}`, []string{"3"}, []string{"2"}, true, false},
		{"the key after an escape, where the other has the same", `{"a":"7","b":"x\n7"}`, `{"a":"8","b":"x\n7"}`, []string{"7"}, []string{"8"}, true, false},
		{"a shared module index", `{"a":"m1-5","b":"1"}`, `{"a":"m1-6","b":"1"}`, []string{"1", "5"}, []string{"1", "6"}, true, true},
		{"a word differing", `{"type":"t3.micro"}`, `{"type":"t3.large"}`, nil, nil, false, false},
		{"a word gaining a digit", `{"name":"ab1"}`, `{"name":"ab"}`, nil, nil, false, false},
		{"punctuation differing", `{"ip":"10.0.0.1"}`, `{"ip":"10.0.0-1"}`, nil, nil, false, false},
		{"a differing word after an escape (left to Of)", `{"s":"\n5 x"}`, `{"s":"\n6 x"}`, []string{"5"}, []string{"6"}, false, false},
		{"for_each keys (left to Of)", `{"user":"alice"}`, `{"user":"bob"}`, []string{"alice"}, []string{"bob"}, false, false},
		{"the same text", `{"a":"x-1"}`, `{"a":"x-1"}`, []string{"1"}, []string{"2"}, true, false},
	} {
		changes := readChanges(t, [2]string{"null", tc.c}, [2]string{"null", tc.p})
		alike, strictly := Follows(&changes[0], &changes[1], tc.ck, tc.pk)
		if alike != tc.alike || strictly != tc.strictly {
			t.Errorf("%s: alike %v strictly %v, want %v %v", tc.what, alike, strictly, tc.alike, tc.strictly)
		}
		agreesWithOf(t, tc.what, &changes[0], &changes[1], tc.ck, tc.pk)
	}
	updates := readChanges(t, [2]string{`{"name":"web-1","size":2}`, `{"name":"web-1","size":4}`}, [2]string{`{"name":"web-2","size":3}`, `{"name":"web-2","size":3}`})
	if alike, _ := Follows(&updates[0], &updates[1], []string{"1"}, []string{"2"}); alike {
		t.Errorf("an update, whose shape says which attributes change, should be left to Of")
	}
}

// TestFollowsAsOfInGeneratedPlans: in plans of thousands of changes,
// each change and the one before it of the same resource and action —
// as the comment compares them — are alike to Follows only where Of's
// shapes are alike, and Follows finds most alike creations and destroys
// of resources with a count (for_each keys are left to Of).
func TestFollowsAsOfInGeneratedPlans(t *testing.T) {
	if testing.Short() {
		t.Skip("generates plans")
	}
	for _, args := range [][]string{{"-n", "1500"}, {"-scenario", "fleet"}, {"-scenario", "numbered-destroys"}} {
		dir := t.TempDir()
		if out, err := exec.Command("go", append([]string{"run", "../../../testdata/genplan", "-o", dir}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("genplan: %v\n%s", err, out)
		}
		type change struct {
			c       tofujson.Change
			address string
			keys    []string
		}
		var changes []change
		_, err := tofujson.ReadPlan(filepath.Join(dir, "plan.json"), tofujson.ReadOptions{Lazy: true, Borrow: true}, func(section string, rc *tofujson.ResourceChange) error {
			if section == tofujson.SectionChanges {
				rc.Change.KeepValues()
				changes = append(changes, change{rc.Change, rc.Address, review.SplitAddress(rc.Address).Keys()})
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		last := map[string]int{}
		ofAlike, followed := 0, 0
		for i := range changes {
			c := &changes[i]
			bucket := review.SplitAddress(c.address).Pattern + strings.Join(c.c.Actions, ",")
			j, ok := last[bucket]
			last[bucket] = i
			if !ok || !wordless(c.c.RawValues()[0]) && !wordless(c.c.RawValues()[1]) {
				continue
			}
			p := &changes[j]
			if Of(&c.c, c.keys).Loose == Of(&p.c, p.keys).Loose && countKeys(c.keys) && countKeys(p.keys) {
				ofAlike++
			}
			if agreesWithOf(t, c.address+" after "+p.address, &c.c, &p.c, c.keys, p.keys) {
				followed++
			}
		}
		t.Logf("%v: %d of %d counted creations and destroys alike the one before them found so", args, followed, ofAlike)
		if followed < ofAlike*9/10 {
			t.Errorf("%v: Follows found %d of the %d counted creations and destroys alike the one before them", args, followed, ofAlike)
		}
	}
}

// FuzzFollows: whatever two creations' values, Follows says alike only
// where Of's shapes are.
func FuzzFollows(f *testing.F) {
	for _, v := range fastPathSeeds {
		f.Add(v, strings.ReplaceAll(v, "17", "18"), "17", "18")
		f.Add(v, v, "1", "17")
	}
	f.Add(`{"a":"7","b":"x\n7"}`, `{"a":"8","b":"x\n7"}`, "7", "8")
	f.Fuzz(func(t *testing.T, c, p, ck, pk string) {
		if !jsontext.Value(c).IsValid() || !jsontext.Value(p).IsValid() || !strings.HasPrefix(c, "{") || !strings.HasPrefix(p, "{") {
			return // values of resources, checked by the reader
		}
		changes := readChanges(t, [2]string{"null", c}, [2]string{"null", p})
		agreesWithOf(t, c+" after "+p, &changes[0], &changes[1], []string{ck}, []string{pk})
	})
}

// TestCommonPrefixAtEachByte: whichever byte first differs, in whichever
// step of 32 or eight it falls, and whatever the lengths, commonPrefix
// finds it.
func TestCommonPrefixAtEachByte(t *testing.T) {
	a := []byte(strings.Repeat("abcdefghijklmnopqrstuvwxyz0123456789", 4))
	for n := range len(a) + 1 {
		for at := range n + 1 {
			b := append([]byte(nil), a[:n]...)
			if at < n {
				b[at] ^= 0x20
			}
			want := at
			if got := commonPrefix(a[:n], b); got != want {
				t.Fatalf("length %d, differing at %d: %d", n, at, got)
			}
			if got := commonPrefix(a, b[:at]); got != at {
				t.Fatalf("a prefix of length %d: %d", at, got)
			}
		}
	}
}
