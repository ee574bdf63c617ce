package streamreport

import (
	"fmt"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/planpr/planpr/lockdiff"
	"github.com/planpr/planpr/render/mask"
	"github.com/planpr/planpr/render/review"
	"github.com/planpr/planpr/render/tofujson/uistream"
)

// TestAnnotations: the streams' diagnostics land on their lines in the
// repository (from the root module's directory; a file outside it, or a
// module whose place is not known, marks nothing), and a lock-file alert
// on its provider's block.
func TestAnnotations(t *testing.T) {
	diag := func(sev, file string, line int) *uistream.Diagnostic {
		return &uistream.Diagnostic{Severity: sev, Summary: "s " + file, Range: &uistream.DiagnosticRange{Filename: file, Start: uistream.Pos{Line: line}}}
	}
	streams := []*review.StreamSummary{{Diagnostics: []*uistream.Diagnostic{diag("error", "main.tf", 3), diag("warning", "../mod/x.tf", 9), diag("error", "../../../out.tf", 1)}}}
	modules := []*review.Module{{Root: "envs/prod", Streams: streams}, {Root: "", Streams: streams}}
	lock := &lockdiff.FileDiff{Path: "envs/prod/.terraform.lock.hcl", Providers: []*lockdiff.ProviderDiff{{
		Address:  lockdiff.Address{Host: "registry.opentofu.org", Namespace: "hashicorp", Type: "null"},
		After:    &lockdiff.Lock{DeclRange: hcl.Range{Start: hcl.Pos{Line: 7}}},
		Findings: []lockdiff.Finding{{Severity: lockdiff.Alert, Message: "replaced"}, {Severity: lockdiff.Info, Message: "fine"}}}}}
	var got []string
	for _, a := range Annotations(modules, []*lockdiff.FileDiff{lock}, mask.NewMasker()) {
		got = append(got, fmt.Sprintf("%s:%d %s", a.Path, a.Line, a.Level))
	}
	want := "[envs/prod/main.tf:3 failure envs/mod/x.tf:9 warning envs/prod/.terraform.lock.hcl:7 failure]"
	if fmt.Sprint(got) != want {
		t.Errorf("annotations %v, want %s", got, want)
	}
}
