package streamreport

import (
	"fmt"
	"strings"
	"testing"

	"github.com/planpr/planpr/render/mask"
	"github.com/planpr/planpr/render/tofujson/uistream"
)

func TestErrorLinks(t *testing.T) {
	src := Source{BlobURL: "https://github.com/acme/infra/blob/0123abc", Root: "envs/prod"}
	for _, tc := range []struct {
		src  Source
		file string
		want string
	}{
		{src, "main.tf", "https://github.com/acme/infra/blob/0123abc/envs/prod/main.tf#L7"},
		{src, "../../modules/app/x.tf", "https://github.com/acme/infra/blob/0123abc/modules/app/x.tf#L7"},
		{src, "../../../outside.tf", ""}, // outside the repository
		{src, "/etc/passwd", ""},
		{src, "a b.tf", ""},
		{Source{BlobURL: "http://github.com/acme/infra/blob/0123abc"}, "main.tf", ""},
		{Source{BlobURL: "https://github.com/acme/infra/blob/0123abc"}, "main.tf", "https://github.com/acme/infra/blob/0123abc/main.tf#L7"},
		{Source{}, "main.tf", ""},
	} {
		if got := tc.src.link(tc.file, 7); got != tc.want {
			t.Errorf("link(%+v, %q) = %q, want %q", tc.src, tc.file, got, tc.want)
		}
	}
}

// TestErrorBox: errors are said once, in a CAUTION box, each with its
// linked place, its snippet and its detail escaped; past the first few a
// line each, then a count.
func TestErrorBox(t *testing.T) {
	d := func(i int) *uistream.Diagnostic {
		return &uistream.Diagnostic{Severity: "error", Summary: fmt.Sprintf("Bad thing %d", i), Detail: "See <b>@admin</b> ```",
			Range:   &uistream.DiagnosticRange{Filename: "main.tf", Start: uistream.Pos{Line: i}},
			Snippet: &uistream.Snippet{Code: "  x = 1 ```", StartLine: i, HighlightStartOffset: 2, HighlightEndOffset: 3}}
	}
	var errs []Located
	for i := 1; i <= 25; i++ {
		errs = append(errs, Located{Diagnostic: d(i), Source: Source{BlobURL: "https://github.com/a/b/blob/abc", Root: "."}})
	}
	box := ErrorBox(errs, mask.NewMasker())
	for _, line := range strings.Split(strings.TrimSpace(box), "\n") {
		if !strings.HasPrefix(line, ">") {
			t.Fatalf("a line outside the box: %q", line)
		}
	}
	for _, want := range []string{"> [!CAUTION]", "> ❌ **Error: Bad thing 1** — [`main.tf` line 1](https://github.com/a/b/blob/abc/main.tf#L1)",
		">    1:   x = 1 ```", "> ❌ **Error: Bad thing 20** — [`main.tf` line 20]", "> … and 5 more errors"} {
		if !strings.Contains(box, want) {
			t.Errorf("no %q in\n%s", want, box)
		}
	}
	if strings.Contains(box, "<b>") || strings.Contains(box, " @admin") || strings.Count(box, "x = 1") != 5 {
		t.Errorf("details not escaped, or snippets beyond the first five:\n%s", box)
	}
}
