package shape

import (
	"fmt"
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

// TestFollowsCases: pairs of creations and of updates, what Follows
// answers, and that Of's shapes agree whenever it answers alike.
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
		{"for_each keys where their values name them", `{"user":"alice","home":"/home/alice"}`, `{"user":"bob","home":"/home/bob"}`, []string{"alice"}, []string{"bob"}, true, true},
		{"for_each keys holding digits, and ids", `{"name":"web-eu-2","id":"i-2f"}`, `{"name":"web-eu-1","id":"i-9a"}`, []string{"eu-2"}, []string{"eu-1"}, true, false},
		{"a module's key and the resource's", `{"name":"prod-k2","zone":"prod"}`, `{"name":"prod-k1","zone":"prod"}`, []string{"prod", "k2"}, []string{"prod", "k1"}, true, true},
		{"one change's key in the other's text", `{"peer":"eu-2"}`, `{"peer":"eu-2"}`, []string{"eu-2"}, []string{"eu-1"}, false, false},
		{"keys apart from a word that differs", `{"user":"alice","role":"admin"}`, `{"user":"bob","role":"guest"}`, []string{"alice"}, []string{"bob"}, false, false},
		{"a key of one letter (left to Of)", `{"user":"a"}`, `{"user":"b"}`, []string{"a"}, []string{"b"}, false, false},
		{"the same text", `{"a":"x-1"}`, `{"a":"x-1"}`, []string{"1"}, []string{"2"}, true, false},
	} {
		changes := readChanges(t, [2]string{"null", tc.c}, [2]string{"null", tc.p})
		alike, strictly := Follows(&changes[0], &changes[1], tc.ck, tc.pk)
		if alike != tc.alike || strictly != tc.strictly {
			t.Errorf("%s: alike %v strictly %v, want %v %v", tc.what, alike, strictly, tc.alike, tc.strictly)
		}
		agreesWithOf(t, tc.what, &changes[0], &changes[1], tc.ck, tc.pk)
	}
	script := func(i int, edited bool) string {
		var lines []string
		for k := range 12 {
			line := fmt.Sprintf("step %d of instance %d", k, i)
			if edited && k == 3 {
				line = "changed"
			}
			lines = append(lines, line)
		}
		return fmt.Sprintf(`{"name":"web-%d","script":"%s","size":`, i, strings.Join(lines, `\n`))
	}
	for _, tc := range []struct {
		what            string
		c, p            [2]string
		alike, strictly bool
	}{
		{"the same attribute changed the same way", [2]string{`{"name":"web-1","size":5}`, `{"name":"web-1","size":6}`}, [2]string{`{"name":"web-2","size":5}`, `{"name":"web-2","size":6}`}, true, true},
		{"the same attribute changed in other numbers", [2]string{`{"name":"web-1","size":2}`, `{"name":"web-1","size":4}`}, [2]string{`{"name":"web-2","size":3}`, `{"name":"web-2","size":5}`}, true, false},
		{"changed in one, not the other", [2]string{`{"name":"web-1","size":2}`, `{"name":"web-1","size":4}`}, [2]string{`{"name":"web-2","size":3}`, `{"name":"web-2","size":3}`}, false, false},
		{"a script naming its instance, edited alike", [2]string{script(1, false) + "2}", script(1, true) + "4}"}, [2]string{script(2, false) + "2}", script(2, true) + "4}"}, true, false},
		{"a script edited in one only", [2]string{script(1, false) + "2}", script(1, true) + "4}"}, [2]string{script(2, false) + "2}", script(2, false) + "4}"}, false, false},
		{"members out of order (left to Of)", [2]string{`{"size":2,"name":"web-1"}`, `{"size":4,"name":"web-1"}`}, [2]string{`{"size":2,"name":"web-2"}`, `{"size":4,"name":"web-2"}`}, false, false},
	} {
		changes := readChanges(t, tc.c, tc.p)
		alike, strictly := Follows(&changes[0], &changes[1], []string{"1"}, []string{"2"})
		if alike != tc.alike || strictly != tc.strictly {
			t.Errorf("%s: alike %v strictly %v, want %v %v", tc.what, alike, strictly, tc.alike, tc.strictly)
		}
		agreesWithOf(t, tc.what, &changes[0], &changes[1], []string{"1"}, []string{"2"})
	}
}

// TestSameWordsAsOf: two members' words compared from where they first
// differ are the same exactly when Of hashes them alike, wherever the
// difference falls against words and escapes.
func TestSameWordsAsOf(t *testing.T) {
	pieces := []string{`web-17`, `\u0026\u0026a1`, `\\\\17`, `\n17`, `ab\u00e9c2`, `10.0.3.17`, `x`, `\u00261x`, `7`, `ab12cd`, `ab12ce`}
	for _, x := range pieces {
		for _, y := range pieces {
			for pad := range 20 {
				a := `"k":"` + strings.Repeat("a1 ", pad) + x + ` z9"`
				b := `"k":"` + strings.Repeat("a1 ", pad) + y + ` z9"`
				if got, want := sameWords([]byte(a), []byte(b)), attributeWords([]byte(a)) == attributeWords([]byte(b)); got != want {
					t.Fatalf("%s and %s: same %v, Of's hashes %v", a, b, got, want)
				}
			}
		}
	}
}

// TestFollowsAsOfInGeneratedPlans: in plans of thousands of changes,
// each change and the one before it of the same resource and action —
// as the comment compares them — are alike to Follows only where Of's
// shapes are alike, and Follows finds most alike changes, of resources
// with a count or for_each.
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
		_, err := tofujson.ReadPlan(filepath.Join(dir, "plan.json"), tofujson.ReadOptions{Lazy: true}, func(section string, rc *tofujson.ResourceChange) error {
			if section == tofujson.SectionChanges {
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
			if !ok {
				continue
			}
			p := &changes[j]
			if Of(&c.c, c.keys).Loose == Of(&p.c, p.keys).Loose && !shortKey(c.keys) && !shortKey(p.keys) {
				ofAlike++
			}
			if agreesWithOf(t, c.address+" after "+p.address, &c.c, &p.c, c.keys, p.keys) {
				followed++
			}
		}
		t.Logf("%v: %d of %d changes alike the one before them found so", args, followed, ofAlike)
		if followed < ofAlike*9/10 {
			t.Errorf("%v: Follows found %d of the %d changes alike the one before them", args, followed, ofAlike)
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
	f.Add(`{"name":"web-eu-2","peer":"eu-1","id":"i-2f"}`, `{"name":"web-eu-1","peer":"eu-1","id":"i-9a"}`, "eu-2", "eu-1")
	f.Add(`{"user":"alice","home":"/home/alice","k":"alice\u0026bob"}`, `{"user":"bob","home":"/home/bob","k":"bob\u0026bob"}`, "alice", "bob")
	f.Add(`{"k":"u0026 \u0026"}`, `{"k":"u0027 \u0026"}`, "u0026", "u0027")
	f.Add(`{"k":"ab#1","m":"x"}`, `{"k":"cd#1","m":"x"}`, "ab", "cd")
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

// attributeWords is the hash of the words Of replaces in one member's
// text, as shapeNormalizer.attribute adds them up.
func attributeWords(text []byte) uint64 {
	var n shapeNormalizer
	n.setKeys(nil)
	n.strictWords, n.perAttribute = fnvOffset, true
	n.writeDigitWords(text, []uint32{0})
	if len(n.attrs[0]) == 0 {
		return fnvOffset
	}
	return n.attrs[0][0].words
}

// FuzzFollowsUpdates: whatever two updates' values before and after,
// and whatever their keys, Follows says alike only where Of's shapes are.
func FuzzFollowsUpdates(f *testing.F) {
	f.Add(`{"name":"web-1","size":2}`, `{"name":"web-1","size":4}`, `{"name":"web-2","size":3}`, `{"name":"web-2","size":3}`, "1", "2")
	f.Add(`{"a":"x1 y\n2","b":"ab12cd"}`, `{"a":"x1 y\n3","b":"ab12ce"}`, `{"a":"x2 y\n2","b":"ab12cd"}`, `{"a":"x2 y\n3","b":"ab12ce"}`, "1", "2")
	f.Add(`{"s":"step 1 of 1\u0026\u0026 a1"}`, `{"s":"changed\u0026\u0026 a1"}`, `{"s":"step 1 of 2\u0026\u0026 a1"}`, `{"s":"changed\u0026\u0026 a2"}`, "1", "2")
	f.Add(`{"name":"web-eu-1","size":2}`, `{"name":"web-eu-1","size":4}`, `{"name":"web-eu-2","size":2}`, `{"name":"web-eu-2","size":4}`, "eu-1", "eu-2")
	f.Add(`{"eu-1":"a","name":"eu-1"}`, `{"eu-1":"b","name":"eu-1"}`, `{"eu-2":"a","name":"eu-2"}`, `{"eu-2":"b","name":"eu-2"}`, "eu-1", "eu-2")
	f.Fuzz(func(t *testing.T, cb, ca, pb, pa, ck, pk string) {
		for _, v := range []string{cb, ca, pb, pa} {
			if !jsontext.Value(v).IsValid() || !strings.HasPrefix(v, "{") {
				return // values of resources, checked by the reader
			}
		}
		changes := readChanges(t, [2]string{cb, ca}, [2]string{pb, pa})
		agreesWithOf(t, cb+" -> "+ca+" after "+pb+" -> "+pa+" keys "+ck+", "+pk, &changes[0], &changes[1], []string{ck}, []string{pk})
	})
}
