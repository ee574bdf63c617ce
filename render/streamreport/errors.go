package streamreport

import (
	"fmt"
	"net/url"
	"path"
	"strings"

	"github.com/planpr/planpr/render/internal/safe"
	"github.com/planpr/planpr/render/mask"
	"github.com/planpr/planpr/render/md"
	"github.com/planpr/planpr/render/review"
	"github.com/planpr/planpr/render/tofujson/uistream"
)

// Bounds of the errors box: the first errors with their snippets, the
// next ones a line each, the rest counted.
const (
	maxErrorsInFull = 5
	maxErrorLines   = 15
)

// Source links a diagnostic's file to the repository at the commit the
// comment is about: BlobURL is https://github.com/OWNER/REPO/blob/SHA and
// Root the root module's directory in the repository (the tools name
// files relative to it). With BlobURL empty, files are named, not linked.
type Source struct {
	BlobURL string
	Root    string
}

// link is the URL of file's line, or "" when it cannot be linked: no
// repository, or a file outside the root module's tree.
func (src Source) link(file string, line int) string {
	u, err := url.Parse(src.BlobURL)
	if src.BlobURL == "" || err != nil || u.Scheme != "https" || u.Host == "" || strings.ContainsAny(src.BlobURL, " ()<>\"'\n") {
		return ""
	}
	p := path.Clean(path.Join(src.Root, file))
	if path.IsAbs(file) || p == ".." || strings.HasPrefix(p, "../") || strings.ContainsAny(p, " ()<>\"'\n#?\\") {
		return ""
	}
	return strings.TrimSuffix(src.BlobURL, "/") + "/" + p + fmt.Sprintf("#L%d", line)
}

// Located is an error diagnostic with the root module it came from.
type Located struct {
	*uistream.Diagnostic
	Source Source
	Where  string // the root module's name in a comment of several, else ""
}

// Errors are the error diagnostics of a module's streams, each once.
func Errors(streams []*review.StreamSummary, src Source, where string) []Located {
	var errs []Located
	for _, st := range streams {
		e, _ := splitDiagnostics(st.Diagnostics)
		for _, d := range e {
			errs = append(errs, Located{Diagnostic: d, Source: src, Where: where})
		}
	}
	return errs
}

// ErrorBox is the CAUTION box of a comment's errors: each with where it
// is (linked to the file's line at the commit), its snippet and its
// detail, the first maxErrorsInFull in full, the next a line each, the
// rest counted.
func ErrorBox(errs []Located, m *mask.Masker) string {
	if len(errs) == 0 {
		return ""
	}
	var parts []string
	for i, d := range errs {
		if i == maxErrorsInFull+maxErrorLines {
			parts = append(parts, fmt.Sprintf("… and %d more errors", len(errs)-i))
			break
		}
		head := "❌ **Error: " + md.Text(m.Mask(d.Summary)) + "**"
		if d.Where != "" {
			head += " in " + safe.Code(m, d.Where)
		}
		if d.Range != nil {
			at := safe.Code(m, d.Range.Filename) + fmt.Sprintf(" line %d", d.Range.Start.Line)
			if u := d.Source.link(d.Range.Filename, d.Range.Start.Line); u != "" {
				at = "[" + at + "](" + u + ")"
			}
			head += " — " + at
		}
		if i >= maxErrorsInFull {
			parts = append(parts, head)
			continue
		}
		var b strings.Builder
		b.WriteString(head + "\n")
		if sn := d.Snippet; sn != nil && sn.Code != "" {
			b.WriteString(md.Fence(md.Visible(m.Mask(snippetText(d.Diagnostic))), "hcl"))
		}
		if d.Detail != "" {
			var lines []string
			for _, l := range strings.Split(m.Mask(d.Detail), "\n") {
				lines = append(lines, safe.Text(m, l))
			}
			b.WriteString("\n" + strings.Join(lines, "<br>\n") + "\n")
		}
		parts = append(parts, strings.TrimRight(b.String(), "\n"))
	}
	return quote("[!CAUTION]\n"+strings.Join(parts, "\n\n")) + "\n\n"
}

// quote puts text in a block quote, every line.
func quote(text string) string {
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		if l == "" {
			lines[i] = ">"
		} else {
			lines[i] = "> " + l
		}
	}
	return strings.Join(lines, "\n")
}
