package findings

import (
	"math/big"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/planpr/planpr/render/tofujson"
)

// planAddresses are the addresses of a plan's resource changes.
func planAddresses(t *testing.T, plan string) []string {
	t.Helper()
	var out []string
	if _, err := tofujson.ReadPlanFile(plan, func(_ string, rc *tofujson.ResourceChange) error {
		out = append(out, rc.Address)
		return nil
	}, tofujson.SectionChanges); err != nil {
		t.Fatal(err)
	}
	return out
}

func readSARIF(t *testing.T, path string) []Finding {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	found, dropped, err := ReadSARIF(path, data)
	if err != nil || dropped != 0 {
		t.Fatalf("%s: %v (%d dropped)", path, err, dropped)
	}
	return found
}

// TestTfsecFindingsLandOnTheirInstances: tfsec's real SARIF for the
// configuration in testdata/findings/modules (a module called twice, a
// for_each resource, an unchanged resource) puts each finding on the
// instance it names; the same configuration written in JSON syntax
// gives the same placement.
func TestTfsecFindingsLandOnTheirInstances(t *testing.T) {
	want := map[string]int{
		`module.a.terraform_data.logs`: 1, `module.b.terraform_data.logs`: 1,
		`terraform_data.web["eu"]`: 1, `terraform_data.web["us"]`: 1, `terraform_data.kept`: 1,
	}
	for _, dir := range []string{"modules", "modules-json"} {
		t.Run(dir, func(t *testing.T) {
			root := filepath.Join("..", "..", "testdata", "findings", dir)
			found := readSARIF(t, filepath.Join(root, "tfsec.sarif"))
			for _, f := range found {
				if f.Tool != "defsec" || f.RuleID != "custom-custom-cus001" || f.Severity != High || !strings.HasPrefix(f.HelpURI, "https://") {
					t.Errorf("finding read as %+v", f)
				}
			}
			placed := Place(found, NewIndex(os.DirFS(root)), planAddresses(t, filepath.Join(root, "plan.json")))
			got := map[string]int{}
			for a, fs := range placed.ByAddress {
				got[a] = len(fs)
			}
			if !reflect.DeepEqual(got, want) || len(placed.Unmatched) != 0 {
				t.Errorf("placed %v, %d unmatched; want %v", got, len(placed.Unmatched), want)
			}
		})
	}
}

// TestALineNamesEveryInstanceOfItsBlock: a finding placed by file and
// line alone (a linter's: no address in it) names every instance the
// plan has of the block at that line — both calls of a module, every
// for_each key — in native and JSON syntax alike; a line outside every
// block is unmatched, kept apart.
func TestALineNamesEveryInstanceOfItsBlock(t *testing.T) {
	for _, tc := range []struct {
		dir                         string
		logsLine, webLine, callLine int
	}{
		{"modules", 6, 18, 6},
		{"modules-json", 10, 19, 7},
	} {
		t.Run(tc.dir, func(t *testing.T) {
			root := filepath.Join("..", "..", "testdata", "findings", tc.dir)
			ix := NewIndex(os.DirFS(root))
			if len(ix.Problems) > 0 {
				t.Fatalf("problems: %v", ix.Problems)
			}
			ext := ".tf"
			if tc.dir == "modules-json" {
				ext = ".tf.json"
			}
			found := []Finding{
				{RuleID: "in-module", File: "modules/x/main" + ext, Line: tc.logsLine},
				{RuleID: "for-each", File: "main" + ext, Line: tc.webLine},
				{RuleID: "module-call", File: "main" + ext, Line: tc.callLine},
				{RuleID: "nowhere", File: "main" + ext, Line: 1},
			}
			placed := Place(found, ix, planAddresses(t, filepath.Join(root, "plan.json")))
			rules := func(addr string) []string {
				var out []string
				for _, f := range placed.ByAddress[addr] {
					out = append(out, f.RuleID)
				}
				slices.Sort(out)
				return out
			}
			for addr, want := range map[string][]string{
				"module.a.terraform_data.logs":  {"in-module", "module-call"},
				"module.b.terraform_data.logs":  {"in-module"},
				"module.a.terraform_data.audit": {"module-call"},
				`terraform_data.web["eu"]`:      {"for-each"},
				`terraform_data.web["us"]`:      {"for-each"},
				"terraform_data.kept":           nil,
			} {
				if got := rules(addr); !slices.Equal(got, want) {
					t.Errorf("%s: %v, want %v", addr, got, want)
				}
			}
			if len(placed.Unmatched) != 1 || placed.Unmatched[0].RuleID != "nowhere" {
				t.Errorf("unmatched %+v", placed.Unmatched)
			}
		})
	}
}

func TestConfigAddressDropsInstanceKeys(t *testing.T) {
	for in, want := range map[string]string{
		`aws_s3_bucket.b`:                                 `aws_s3_bucket.b`,
		`module.a["x"].aws_s3_bucket.b[0]`:                `module.a.aws_s3_bucket.b`,
		`module.a["x.]y"].module.c[2].data.d_e.f["a\"]"]`: `module.a.module.c.data.d_e.f`,
	} {
		if got := ConfigAddress(in); got != want {
			t.Errorf("ConfigAddress(%s) = %s, want %s", in, got, want)
		}
	}
}

// TestAModuleThatCallsItselfIsBounded: a module whose calls lead back to
// it (twice, so that the tree doubles at each level) is read to the
// limits and said so, quickly.
func TestAModuleThatCallsItselfIsBounded(t *testing.T) {
	src := "module \"a\" {\n  source = \"./\"\n}\nmodule \"b\" {\n  source = \"./\"\n}\nresource \"terraform_data\" \"r\" {\n}\n"
	ix := NewIndex(fstest.MapFS{"main.tf": {Data: []byte(src)}})
	if len(ix.Problems) == 0 {
		t.Error("no problem said for a module tree past the limits")
	}
	if got := ix.At("main.tf", 8); len(got) == 0 || len(got) > maxModuleCalls+1 {
		t.Errorf("%d addresses for the resource", len(got))
	}
}

// TestTflintFindingAtALineLandsOnEveryInstance: TFLint's real SARIF names
// no resource, only a file and line (a comment in the for_each resource's
// block): the finding lands on every instance of that block.
func TestTflintFindingAtALineLandsOnEveryInstance(t *testing.T) {
	root := filepath.Join("..", "..", "testdata", "findings", "modules")
	found := readSARIF(t, filepath.Join(root, "tflint.sarif"))
	if len(found) != 1 || found[0].Tool != "tflint" || found[0].Address != "" || found[0].Severity != Medium ||
		found[0].File != "main.tf" || found[0].Line != 16 || !strings.Contains(found[0].HelpURI, "terraform_comment_syntax") {
		t.Fatalf("read %+v", found)
	}
	placed := Place(found, NewIndex(os.DirFS(root)), planAddresses(t, filepath.Join(root, "plan.json")))
	var on []string
	for a := range placed.ByAddress {
		on = append(on, a)
	}
	slices.Sort(on)
	if want := []string{`terraform_data.web["eu"]`, `terraform_data.web["us"]`}; !slices.Equal(on, want) || len(placed.Unmatched) != 0 {
		t.Errorf("on %v (%d unmatched), want %v", on, len(placed.Unmatched), want)
	}
}

// TestInfracostDiffReadsTheMonthlyDifference: Infracost's own diff output
// for its example plan: the totals and each resource's difference,
// exactly, in its currency.
func TestInfracostDiffReadsTheMonthlyDifference(t *testing.T) {
	data, err := os.ReadFile("../../testdata/findings/infracost/infracost.json")
	if err != nil {
		t.Fatal(err)
	}
	c, err := ReadInfracost("infracost.json", data)
	if err != nil {
		t.Fatal(err)
	}
	if got := Money(c.Delta, c.Currency, true); got != "+1,361.31 USD" {
		t.Errorf("delta %s", got)
	}
	if c.Past == nil || c.Past.Sign() != 0 || Money(c.Now, "", false) != "1,361.31" {
		t.Errorf("past %v, now %v", c.Past, c.Now)
	}
	if got := Money(c.Resources["aws_instance.web_app"], c.Currency, true); got != "+742.64 USD" || len(c.Resources) != 5 {
		t.Errorf("web_app %s, %d resources", got, len(c.Resources))
	}
	if Percent(c.Delta, c.Past) != "" || Percent(big.NewRat(1, 10), big.NewRat(1, 1)) != "+10.0%" {
		t.Error("percent")
	}
	for _, bad := range []string{`{"version":"0.2","currency":"USD","projects":[{"breakdown":{"totalMonthlyCost":"a lot"}}]}`, `{"version":"1.0","projects":[]}`, `{"projects": [`} {
		if _, err := ReadInfracost("bad.json", []byte(bad)); err == nil {
			t.Errorf("%s read", bad)
		}
	}
}

// TestPolicyVerdictsLandOnTheResourcesTheyName: conftest's and opa eval's
// real JSON over the modules plan: each denial a high finding, denied,
// on the resource its message names; conftest's warnings medium.
func TestPolicyVerdictsLandOnTheResourcesTheyName(t *testing.T) {
	root := filepath.Join("..", "..", "testdata", "findings", "policy")
	addresses := planAddresses(t, filepath.Join(root, "plan.json"))
	for _, tc := range []struct {
		file           string
		denied, warned int
	}{{"report.json", 4, 4}, {"opa.json", 4, 0}} {
		data, err := os.ReadFile(filepath.Join(root, tc.file))
		if err != nil {
			t.Fatal(err)
		}
		found, err := ReadPolicy(tc.file, data)
		if err != nil {
			t.Fatal(err)
		}
		denied, warned := 0, 0
		for _, f := range found {
			switch {
			case f.Denied && f.Severity == High && f.RuleID == "main.deny":
				denied++
			case !f.Denied && f.Severity == Medium && f.RuleID == "main.warn":
				warned++
			default:
				t.Errorf("%s: read %+v", tc.file, f)
			}
		}
		placed := Place(found, nil, addresses)
		if denied != tc.denied || warned != tc.warned || len(placed.Unmatched) != 0 || len(placed.ByAddress[`terraform_data.web["eu"]`]) != 1 {
			t.Errorf("%s: %d denied, %d warned, %d unmatched, on web[eu] %v", tc.file, denied, warned, len(placed.Unmatched), placed.ByAddress[`terraform_data.web["eu"]`])
		}
	}
	if _, err := ReadPolicy("bad.json", []byte(`[{"failures": 3}]`)); err == nil {
		t.Error("a conftest output of the wrong shape was read")
	}
}
