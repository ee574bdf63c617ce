package streamreport

import (
	"fmt"

	"github.com/planpr/planpr/render/internal/safe"
	"github.com/planpr/planpr/render/mask"
	"github.com/planpr/planpr/render/review"
)

// Warnings are a stream's failures for the warnings at the top.
func Warnings(st *review.StreamSummary, masker *mask.Masker) []string {
	var lines []string
	for _, a := range st.Applies {
		if a.Status == "errored" {
			lines = append(lines, fmt.Sprintf("- ❌ %s: %s **failed**", safe.Code(masker, a.Address), safe.Text(masker, a.Action)))
		}
	}
	if t := st.TestSummary; t != nil && t.Failed+t.Errored > 0 {
		lines = append(lines, fmt.Sprintf("- ❌ tests: %d failed, %d errored (%d passed)", t.Failed, t.Errored, t.Passed))
	}
	if st.Info.Truncated > 0 {
		lines = append(lines, fmt.Sprintf("- ⚠️ %s ends mid-message at line %d: the run was probably interrupted", safe.Text(masker, DisplayPath(st.Path)), st.Info.Truncated))
	}
	return lines
}
