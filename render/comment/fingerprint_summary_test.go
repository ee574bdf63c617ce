package comment

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/planpr/planpr/render/review"
	"github.com/planpr/planpr/render/summary"
)

// TestSummaryFingerprintWithoutSchemas: the machine summary's fingerprint
// is what the plan will do, the same read with the providers' schemas and
// without them.
func TestSummaryFingerprintWithoutSchemas(t *testing.T) {
	plans := []CommentPlan{{Name: "example", Path: "../../testdata/example/plan.json"}}
	fp := func(o review.PlanOptions) string {
		var b bytes.Buffer
		if err := summary.Write(&b, plans, o); err != nil {
			t.Fatal(err)
		}
		var doc struct{ Fingerprint string }
		json.Unmarshal(b.Bytes(), &doc)
		return doc.Fingerprint
	}
	with, without := fp(review.PlanOptions{Schemas: exampleSchemas(t)}), fp(review.PlanOptions{})
	if len(with) != 64 || with != without {
		t.Errorf("fingerprint with schemas %q, without %q", with, without)
	}
}
